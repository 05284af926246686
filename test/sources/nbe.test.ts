import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbe, parseNbeJson } from '../../src/sources/nbe.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbe.yml'];

describe('nbe on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbe', {
      recordings: RECORDINGS,
      from: '2026-05-16',
      to: '2026-05-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 19 currencies x 3 days (Monday to Wednesday; the weekend is not requested)
    await assertIngested(run, { stored: 57, symbols: 19 });
    assert.deepEqual(run.replay.requests, [
      '/api/filter-exchange-rates?date=2026-05-18',
      '/api/filter-exchange-rates?date=2026-05-19',
      '/api/filter-exchange-rates?date=2026-05-20',
    ]);
    await assertSpots(run, [
      // 2026-05-20 USD weighted average 157.5889 ETB; no documented time: 00:00 Addis Ababa
      // (UTC+3 all year) is 21:00Z the day before
      {
        date: '2026-05-20',
        base: 'USD',
        symbol: 'ETB',
        rate: '157.5889',
        decimals: 12,
        observationTime: '2026-05-19T21:00:00.000Z',
      },
      // 2026-05-18 JPY weighted average 0.9965 ETB, observed at 21:00Z on the 17th: the UTC
      // date 2026-05-18 already holds the next day's figure
      {
        date: '2026-05-17',
        base: 'JPY',
        symbol: 'ETB',
        rate: '0.9965',
        decimals: 12,
        observationTime: '2026-05-17T21:00:00.000Z',
      },
      // EUR 184.0339 and USD 157.5889 ETB: USD per EUR is their ratio
      {
        date: '2026-05-20',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.167810042459',
        decimals: 12,
        observationTime: '2026-05-19T21:00:00.000Z',
      },
    ]);
  });
});

describe('nbe parser on inline samples', () => {
  const row = (code: string, fields: Record<string, unknown>) => ({
    date: '2026-01-05',
    currency: { code, name: code },
    ...fields,
  });

  test('the weighted average, else the buying/selling midpoint; bad codes dropped', () => {
    const extraction = parseNbeJson(
      JSON.stringify({
        success: true,
        data: [
          row('USD', { buying: '155.1', selling: '156.7', weighted_average: '155.4' }),
          row('GBP', { buying: '209.99', selling: '212.09', weighted_average: null }),
          row('XYZ', { weighted_average: '1.5' }),
          row('EUR', { weighted_average: '0' }),
        ],
      }),
      nbe,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2026-01-04T21:00:00.000Z', 1 / 155.4],
      ['GBP', '2026-01-04T21:00:00.000Z', 1 / 211.04],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('a day without rates is empty; a failure or a cut-short body is refused', () => {
    assert.equal(parseNbeJson('{"success":true,"data":[]}', nbe).observations.length, 0);
    assert.throws(
      () => parseNbeJson('{"success":false,"message":"Not Found","data":null}', nbe),
      /without success: Not Found/,
    );
    assert.throws(() => parseNbeJson('{"success":true,"data":[{"date"', nbe), /cut short/);
  });
});
