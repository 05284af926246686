import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { idleReason } from '../../src/sources/publisher.js';
import { publisher as tcmb, parseTcmbJson } from '../../src/sources/tcmb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['tcmb.yml'];

describe('tcmb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('tcmb', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-22',
      env: { TCMB_API_KEY: 'test-key' },
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 21 currencies on the 14 days with figures; weekends and the 20 March holiday are rows of
    // nulls, which are no publication
    await assertIngested(run, { stored: 294, symbols: 21 });
    // 15:30 Istanbul (UTC+3 all year) is 12:30Z
    await assertSpots(run, [
      // 02-03-2026 USD buying 43.80000000 selling 43.87890000: midpoint 43.839450
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'TRY',
        rate: '43.83945',
        decimals: 12,
        observationTime: '2026-03-02T12:30:00.000Z',
      },
      // 13-03-2026 JPY per 100: 27.66220000 / 27.84540000, midpoint 27.7538 per 100 yen
      {
        date: '2026-03-13',
        base: 'JPY',
        symbol: 'TRY',
        rate: '0.277538',
        decimals: 12,
        observationTime: '2026-03-13T12:30:00.000Z',
      },
      // 13-03-2026 EUR 50.87130000 / 50.96290000 and USD 44.03100000 / 44.11040000
      {
        date: '2026-03-13',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('50.9171', '44.0707', 9),
        decimals: 9,
        observationTime: '2026-03-13T12:30:00.000Z',
      },
    ]);
  });
});

describe('tcmb parser on inline samples', () => {
  test('midpoint of buying and selling; the yen per 100; empty days skipped', () => {
    const result = parseTcmbJson(
      JSON.stringify({
        items: [
          { Tarih: '01-07-2026', TP_DK_USD_A_YTL: '40.1', TP_DK_USD_S_YTL: '40.2' },
          { Tarih: '02-07-2026', TP_DK_JPY_A_YTL: '28.0', TP_DK_JPY_S_YTL: '28.2' },
          { Tarih: '04-07-2026', TP_DK_USD_A_YTL: null, TP_DK_USD_S_YTL: null },
        ],
      }),
      tcmb,
    );
    assert.deepEqual(observationRows(result), [
      ['USD', '2026-07-01T12:30:00.000Z', 1 / 40.15],
      ['JPY', '2026-07-02T12:30:00.000Z', 1 / 0.281],
    ]);
    assert.equal(result.dropped, 0);
  });

  test('one side missing on a published day is dropped and counted', () => {
    const result = parseTcmbJson(
      JSON.stringify({
        items: [
          {
            Tarih: '01-07-2026',
            TP_DK_USD_A_YTL: '40.1',
            TP_DK_USD_S_YTL: '40.2',
            TP_DK_EUR_A_YTL: '47.1',
            TP_DK_EUR_S_YTL: null,
          },
        ],
      }),
      tcmb,
    );
    assert.equal(result.observations.length, 1);
    assert.equal(result.dropped, 1);
  });

  test('an error answer or a cut-short body is refused', () => {
    assert.throws(() => parseTcmbJson('{"error":"invalid key"}', tcmb), /items/);
    assert.throws(() => parseTcmbJson('{"totalCount":22,"items":[{"Tarih"', tcmb), /cut short/);
  });

  test('without TCMB_API_KEY the publisher is idle, and says which variable to set', () => {
    assert.equal(
      idleReason(tcmb, { TCMB_API_KEY: '' }),
      'idle: set TCMB_API_KEY to a TCMB API key to ingest this source',
    );
  });
});
