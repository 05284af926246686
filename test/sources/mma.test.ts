import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as mma, parseMmaJson } from '../../src/sources/mma.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['mma.yml'];

describe('mma on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('mma', {
      recordings: RECORDINGS,
      from: '2026-05-01',
      to: '2026-05-21',
      today: '2026-05-21',
    });
  });
  after(() => run?.close());

  test('the whole history stored; published figures come back through the API', async () => {
    // 3,554 records from 21 April 2011 to 21 May 2026; 8 and 9 February 2021 are listed twice
    // (with the same rate), and the repeats are dropped.
    await assertIngested(run, { stored: 3552, symbols: 1, dropped: 2 });
    assert.deepEqual(run.replay.requests, ['/JSON/referencerates.json?v=20260521']);
    // The Maldives have no DST: midnight in Malé is 19:00Z the day before.
    await assertSpots(run, [
      // {"Date": "21 May 2026", "Rate": "15.42"}
      {
        date: '2026-05-20',
        base: 'USD',
        symbol: 'MVR',
        rate: '15.42',
        decimals: 10,
        observationTime: '2026-05-20T19:00:00.000Z',
      },
      // {"Date": "21 April 2011", "Rate": "14.75"}, the first
      {
        date: '2011-04-20',
        base: 'USD',
        symbol: 'MVR',
        rate: '14.75',
        decimals: 10,
        observationTime: '2011-04-20T19:00:00.000Z',
      },
      // {"Date": "24 April 2011", "Rate": "14.90"}, as rufiyaa in dollars
      {
        date: '2011-04-23',
        base: 'MVR',
        symbol: 'USD',
        rate: divideDecimals('1', '14.9', 10),
        decimals: 10,
        observationTime: '2011-04-23T19:00:00.000Z',
      },
    ]);
  });
});

describe('mma parser on inline samples', () => {
  test('English dates, repeats and bad values dropped, cut-off bodies fail', () => {
    const text = JSON.stringify([
      { Date: '02 January 2024', Rate: '15.42' },
      { Date: '2 January 2024', Rate: '15.42' },
      { Date: '31 Dec 2023', Rate: '' },
      { Date: 'Smarch 2023', Rate: '15.4' },
    ]);
    const result = parseMmaJson(text, mma);
    assert.deepEqual(observationRows(result), [['USD', '2024-01-01T19:00:00.000Z', 1 / 15.42]]);
    assert.equal(result.dropped, 3);
    assert.match(
      result.dropReasons.join(' | '),
      /2024-01-02: listed again.*2023-12-31.*not a positive number.*'Smarch 2023' is not a date/,
    );
    assert.throws(() => parseMmaJson(text.slice(0, -2), mma), /cut short/);
    // Every answer holds the whole history: an empty one failed.
    assert.throws(() => parseMmaJson('[]', mma), /an empty list of reference rates/);
  });
});
