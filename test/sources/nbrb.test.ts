import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbrb, parseNbrbDaily, parseNbrbDynamics } from '../../src/sources/nbrb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbrb.yml'];

describe('nbrb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbrb', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-17',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 30 currencies x 17 days of dynamics (weekends included); the daily list repeats 2026-03-17
    await assertIngested(run, { stored: 510, symbols: 30 });
    assert.equal(run.replay.requests.length, 31);
    await assertSpots(run, [
      // 2026-03-17 USD scale 1 at 2.9463 BYN; 00:00 Minsk (UTC+3) is 21:00Z the day before
      {
        date: '2026-03-17',
        base: 'USD',
        symbol: 'BYN',
        rate: '2.9463',
        decimals: 12,
        observationTime: '2026-03-16T21:00:00.000Z',
      },
      // VND scale 100000 at 11.2071 BYN
      {
        date: '2026-03-17',
        base: 'VND',
        symbol: 'BYN',
        rate: '0.000112071',
        decimals: 12,
        observationTime: '2026-03-16T21:00:00.000Z',
      },
      // 2026-03-01 EUR 3.3653 and USD 2.8523 BYN: USD per EUR is their ratio; observed at 21:00Z
      // on 2026-02-28, the UTC date that shows it
      {
        date: '2026-02-28',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.179854853977',
        decimals: 12,
        observationTime: '2026-02-28T21:00:00.000Z',
      },
    ]);
  });
});

describe('nbrb parsers on inline samples', () => {
  test('Cur_Scale moves the decimal point; the ids and scales are kept for the history', () => {
    const daily = parseNbrbDaily(
      JSON.stringify([
        {
          Cur_ID: 461,
          Date: '2026-01-15T00:00:00',
          Cur_Abbreviation: 'IRR',
          Cur_Scale: 100000,
          Cur_OfficialRate: 0.695,
        },
        {
          Cur_ID: 431,
          Date: '2026-01-15T00:00:00',
          Cur_Abbreviation: 'USD',
          Cur_Scale: 1,
          Cur_OfficialRate: null,
        },
      ]),
      nbrb,
    );
    assert.deepEqual(observationRows(daily), [['IRR', '2026-01-14T21:00:00.000Z', 1 / 0.00000695]]);
    assert.equal(daily.dropped, 1);
    assert.deepEqual(daily.currencies, [
      { id: 461, code: 'IRR', scale: '100000' },
      { id: 431, code: 'USD', scale: '1' },
    ]);
  });

  test("a history row of another currency id is dropped, not stored under this one's code", () => {
    const extraction = parseNbrbDynamics(
      JSON.stringify([
        { Cur_ID: 508, Date: '2026-01-15T00:00:00', Cur_OfficialRate: 1.9 },
        { Cur_ID: 509, Date: '2026-01-15T00:00:00', Cur_OfficialRate: 2.5 },
      ]),
      { id: 508, code: 'JPY', scale: '100' },
      nbrb,
    );
    assert.deepEqual(observationRows(extraction), [['JPY', '2026-01-14T21:00:00.000Z', 1 / 0.019]]);
    assert.equal(extraction.dropped, 1);
  });

  test('a body cut short or an error object is refused', () => {
    assert.throws(() => parseNbrbDaily('[{"Cur_ID":431,"Date":"2026', nbrb), /cut short/);
    assert.throws(
      () =>
        parseNbrbDynamics(
          '{"Message":"An error has occurred."}',
          { id: 1, code: 'USD', scale: '1' },
          nbrb,
        ),
      /JSON array/,
    );
  });
});
