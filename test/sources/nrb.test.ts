import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as nrb, parseNrbJson } from '../../src/sources/nrb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nrb.yml'];

describe('nrb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nrb', {
      recordings: RECORDINGS,
      from: '2026-04-01',
      to: '2026-04-05',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 22 currencies on each of 5 days (weekends included), one page
    await assertIngested(run, { stored: 110, symbols: 22 });
    // Kathmandu (UTC+5:45, no daylight saving) documents no fixing time: 00:00 local is
    // 18:15Z on the day before, the UTC date the date endpoint finds a day's rates under
    await assertSpots(run, [
      // 2026-04-02 USD buy 151.44 sell 152.04: midpoint 151.74
      {
        date: '2026-04-01',
        base: 'USD',
        symbol: 'NPR',
        rate: '151.74',
        decimals: 12,
        observationTime: '2026-04-01T18:15:00.000Z',
      },
      // 2026-04-01 INR per 100: buy 160.00 sell 160.15, midpoint 160.075 per 100
      {
        date: '2026-03-31',
        base: 'INR',
        symbol: 'NPR',
        rate: '1.60075',
        decimals: 12,
        observationTime: '2026-03-31T18:15:00.000Z',
      },
      // 2026-04-03 JPY per 10: buy 9.31 sell 9.34; EUR buy 171.24 sell 171.93
      {
        date: '2026-04-02',
        base: 'EUR',
        symbol: 'JPY',
        rate: divideDecimals('171.585', '0.9325', 8),
        decimals: 8,
        observationTime: '2026-04-02T18:15:00.000Z',
      },
    ]);
  });
});

describe('nrb parser on inline samples', () => {
  const page = (rates: unknown[]) =>
    JSON.stringify({
      data: { payload: [{ date: '2026-07-01', rates }] },
      pagination: { page: 1, pages: 2 },
    });

  test('midpoint of buying and selling per `unit` units; the page count comes back', () => {
    const result = parseNrbJson(
      page([{ currency: { iso3: 'KRW', unit: 100 }, buy: '9.85', sell: '9.89' }]),
      nrb,
    );
    assert.deepEqual(observationRows(result), [['KRW', '2026-06-30T18:15:00.000Z', 1 / 0.0987]]);
    assert.equal(result.pages, 2);
  });

  test('a missing price is dropped and counted', () => {
    const result = parseNrbJson(
      page([{ currency: { iso3: 'USD', unit: 1 }, buy: null, sell: '152.04' }]),
      nrb,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 1);
  });

  test('an error answer or a cut-short body is refused', () => {
    assert.throws(() => parseNrbJson('{"status":{"code":422},"data":null}', nrb), /payload/);
    assert.throws(() => parseNrbJson(page([]).slice(0, 30), nrb), /cut short/);
  });
});
