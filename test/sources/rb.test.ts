import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as rb, parseRbJson } from '../../src/sources/rb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['rb.yml'];

describe('rb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('rb', {
      recordings: RECORDINGS,
      from: '2026-03-24',
      to: '2026-03-28',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 29 SEK<code>PMI series x 4 banking days; SEKETT (SEK against itself) dropped 4 times
    await assertIngested(run, { stored: 116, symbols: 29, dropped: 4 });
    assert.deepEqual(run.report.dropReasons[0], 'series SEKETT is not an exchange rate');
    await assertSpots(run, [
      // 2026-03-27 SEKUSDPMI 9.44517; 16:15 Stockholm in winter is 15:15Z
      {
        date: '2026-03-27',
        base: 'USD',
        symbol: 'SEK',
        rate: '9.44517',
        decimals: 12,
        observationTime: '2026-03-27T15:15:00.000Z',
      },
      // 2026-03-24 SEKJPYPMI 0.05885, per yen
      {
        date: '2026-03-24',
        base: 'JPY',
        symbol: 'SEK',
        rate: '0.05885',
        decimals: 12,
        observationTime: '2026-03-24T15:15:00.000Z',
      },
      // 2026-03-25 EUR 10.7715 and USD 9.29218 SEK
      {
        date: '2026-03-25',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('10.7715', '9.29218', 9),
        decimals: 9,
        observationTime: '2026-03-25T15:15:00.000Z',
      },
    ]);
  });
});

describe('rb parser on inline samples', () => {
  test('SEK per unit, inverted; SEKETT and missing values dropped', () => {
    const result = parseRbJson(
      JSON.stringify([
        { seriesId: 'SEKUSDPMI', date: '2026-07-01', value: 9.5 },
        { seriesId: 'SEKETT', date: '2026-07-01', value: 1 },
        { seriesId: 'SEKGBPPMI', date: '2026-07-01', value: null },
      ]),
      rb,
    );
    // 16:15 Stockholm in summer is 14:15Z
    assert.deepEqual(observationRows(result), [['USD', '2026-07-01T14:15:00.000Z', 1 / 9.5]]);
    assert.equal(result.dropped, 2);
  });

  test('an empty body is an empty window; a cut-short one is refused', () => {
    assert.equal(parseRbJson('', rb).observations.length, 0);
    assert.throws(() => parseRbJson('[{"seriesId":"SEKUSDPMI","da', rb), /cut short/);
    assert.throws(() => parseRbJson('{"message":"rate limit"}', rb), /JSON array/);
  });
});
