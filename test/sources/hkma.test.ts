import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as hkma, parseHkmaJson } from '../../src/sources/hkma.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['hkma.yml'];

describe('hkma on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('hkma', {
      recordings: RECORDINGS,
      from: '2026-02-25',
      to: '2026-02-28',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 4 dates x 17 currencies, plus the SDR on the 3 dates it is not null: 71. The three
    // neeri_2020_* effective exchange rate indices of each date are dropped: 12.
    await assertIngested(run, { stored: 71, symbols: 18, dropped: 12 });
    assert.match(run.report.dropReasons[0]!, /neeri_2020_trade_wgt is an index/);
    // Hong Kong has no DST: midnight is 16:00Z the day before.
    await assertSpots(run, [
      // 2026-02-27 "usd":7.825
      {
        date: '2026-02-26',
        base: 'USD',
        symbol: 'HKD',
        rate: '7.825',
        decimals: 10,
        observationTime: '2026-02-26T16:00:00.000Z',
      },
      // 2026-02-27 "special_drawing_rights":10.75757525
      {
        date: '2026-02-26',
        base: 'XDR',
        symbol: 'HKD',
        rate: '10.75757525',
        decimals: 10,
        observationTime: '2026-02-26T16:00:00.000Z',
      },
      // 2026-02-27 "jpy":0.05015 against "eur":9.236
      {
        date: '2026-02-26',
        base: 'EUR',
        symbol: 'JPY',
        rate: divideDecimals('9.236', '0.05015', 10),
        decimals: 10,
        observationTime: '2026-02-26T16:00:00.000Z',
      },
      // 2026-02-28 "usd":7.8245000000000005 as printed: the figure 7.8245
      {
        date: '2026-02-27',
        base: 'USD',
        symbol: 'HKD',
        rate: '7.8245',
        decimals: 10,
        observationTime: '2026-02-27T16:00:00.000Z',
      },
    ]);
  });
});

describe('hkma parser on inline samples', () => {
  test('HKD per unit; nulls skipped; indices dropped; refusals and cut-off bodies fail', () => {
    const text = JSON.stringify({
      header: { success: true },
      result: {
        records: [
          {
            end_of_day: '2024-01-02',
            usd: 7.8101,
            dem: null,
            special_drawing_rights: 10.45,
            neeri_2020_trade_wgt: 101.2,
            xyz: 1.5,
          },
        ],
      },
    });
    const result = parseHkmaJson(text, hkma);
    assert.deepEqual(observationRows(result), [
      ['USD', '2024-01-01T16:00:00.000Z', 1 / 7.8101],
      ['XDR', '2024-01-01T16:00:00.000Z', 1 / 10.45],
    ]);
    assert.equal(result.records, 1);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /neeri_2020_trade_wgt is an index.*'XYZ'/);
    assert.throws(() => parseHkmaJson(text.slice(0, -4), hkma), /cut short/);
    assert.throws(
      () => parseHkmaJson('{"header":{"success":false,"err_msg":"Invalid parameter"}}', hkma),
      /refused the request: Invalid parameter/,
    );
  });
});
