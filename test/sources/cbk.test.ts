import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as cbk, parseCbkJson } from '../../src/sources/cbk.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbk.yml'];

describe('cbk on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbk', {
      recordings: RECORDINGS,
      from: '2024-01-05',
      to: '2026-03-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.equal(run.report.requests, 1);
    // 11,550 rows: 21 currencies on 549 days, and 28/11/2025 listed twice with the same
    // figures (the repeat is the same observation, not a new one)
    await assertIngested(run, { stored: 11529, symbols: 21 });
    await assertSpots(run, [
      // 05/01/2024 "US DOLLAR" 157.9012; 00:00 in Nairobi is 21:00Z the day before
      {
        date: '2024-01-05',
        base: 'USD',
        symbol: 'KES',
        rate: '157.9012',
        decimals: 12,
        observationTime: '2024-01-04T21:00:00.000Z',
      },
      // 02/07/2025 "JPY (100)" 89.9363 shillings per 100 yen; its observation time lies on
      // 1 July in UTC, so that is the date that answers with it
      {
        date: '2025-07-01',
        base: 'JPY',
        symbol: 'KES',
        rate: '0.899363',
        decimals: 12,
        observationTime: '2025-07-01T21:00:00.000Z',
      },
      // 02/07/2025 "KES / USHS" 27.8168 shillings of Uganda per Kenyan shilling
      {
        date: '2025-07-01',
        base: 'KES',
        symbol: 'UGX',
        rate: '27.8168',
        observationTime: '2025-07-01T21:00:00.000Z',
      },
      // 05/01/2024 "EURO" 172.7439 against "US DOLLAR" 157.9012
      {
        date: '2024-01-05',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('172.7439', '157.9012', 10),
        decimals: 10,
        observationTime: '2024-01-04T21:00:00.000Z',
      },
    ]);
  });
});

describe('cbk parser on inline samples', () => {
  const sample = (rows: unknown[]) =>
    JSON.stringify({ draw: 1, recordsTotal: String(rows.length), data: rows });

  test('shillings per unit, per 100 yen, and the KES / X rows the other way round', () => {
    assert.deepEqual(
      observationRows(
        parseCbkJson(
          sample([
            ['05/01/2024', 'US DOLLAR', '157.9012'],
            ['05/01/2024', 'JPY (100)', '109.3764'],
            ['05/01/2024', 'KES / TSHS', '15.8960'],
          ]),
          cbk,
        ),
      ),
      [
        ['USD', '2024-01-04T21:00:00.000Z', 1 / 157.9012],
        ['JPY', '2024-01-04T21:00:00.000Z', 1 / 1.093764],
        ['TZS', '2024-01-04T21:00:00.000Z', 15.896],
      ],
    );
  });

  test('unknown names, missing figures and conflicting repeats are dropped and counted', () => {
    const result = parseCbkJson(
      sample([
        ['05/01/2024', 'GOLD', '100'],
        ['05/01/2024', 'EURO', ''],
        ['06/01/2024', 'EURO', '172.1'],
        ['06/01/2024', 'EURO', '172.1'],
        ['06/01/2024', 'EURO', '173'],
        ['06/01/2024'],
      ]),
      cbk,
    );
    assert.equal(result.observations.length, 1);
    assert.equal(result.dropped, 4);
    assert.match(result.dropReasons.join('; '), /'GOLD' is not a known currency name/);
    assert.match(result.dropReasons.join('; '), /published twice, 172.1 and 173/);
  });

  test('a body cut short or of another shape is refused', () => {
    const text = sample([['05/01/2024', 'US DOLLAR', '157.9012']]);
    assert.throws(() => parseCbkJson(text.slice(0, -10), cbk), /not valid JSON/);
    assert.throws(() => parseCbkJson('{"error":"Invalid nonce"}', cbk), /data\[\]/);
  });
});
