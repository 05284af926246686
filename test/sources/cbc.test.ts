import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as cbc, parseCbcJson } from '../../src/sources/cbc.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbc.yml'];

describe('cbc on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbc', {
      recordings: RECORDINGS,
      from: '2026-01-01',
      to: '2026-02-26',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.equal(run.report.requests, 1);
    // 8,241 days x 18 columns = 148,338 cells, of which 24,438 are "-" (no figure that day)
    await assertIngested(run, { stored: 123900, symbols: 18 });
    // 16:00 in Taipei (no daylight-saving time) is 08:00Z
    await assertSpots(run, [
      // 20250702 新台幣NTD/USD 29.019
      {
        date: '2025-07-02',
        base: 'USD',
        symbol: 'TWD',
        rate: '29.019',
        observationTime: '2025-07-02T08:00:00.000Z',
      },
      // 20260115 歐元USD/EUR 1.1629 dollars per euro
      {
        date: '2026-01-15',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.1629',
        decimals: 12,
        observationTime: '2026-01-15T08:00:00.000Z',
      },
      // 20260115 日圓JPY/USD 158.58 against 新台幣NTD/USD 31.593
      {
        date: '2026-01-15',
        base: 'TWD',
        symbol: 'JPY',
        rate: divideDecimals('158.58', '31.593', 10),
        decimals: 10,
        observationTime: '2026-01-15T08:00:00.000Z',
      },
      // 19930105 馬克DEM/USD 1.6255
      {
        date: '1993-01-05',
        base: 'USD',
        symbol: 'DEM',
        rate: '1.6255',
        observationTime: '1993-01-05T08:00:00.000Z',
      },
    ]);
  });
});

describe('cbc parser on inline samples', () => {
  const table = (rows: unknown[], labels = ['新台幣NTD/USD', '英鎊USD/GBP', '馬克DEM/USD']) =>
    JSON.stringify({
      meta: { filename: 'BP01D01.px' },
      data: { dataSets: rows, structure: { Table1: labels.map((data) => ({ data })) } },
    });

  test('XXX/USD columns are units per dollar, USD/XXX dollars per unit; "-" is no figure', () => {
    assert.deepEqual(
      observationRows(parseCbcJson(table([['20240102', '30.705', '1.2718', '-']]), cbc)),
      [
        ['TWD', '2024-01-02T08:00:00.000Z', 30.705],
        ['GBP', '2024-01-02T08:00:00.000Z', 1 / 1.2718],
      ],
    );
  });

  test('columns not against the dollar and figures that are no number are dropped', () => {
    const result = parseCbcJson(
      table([['20240102', 'n.a.', '1.27', '1.9']], ['新台幣NTD/USD', '指數', '英鎊GBP/EUR']),
      cbc,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 3);
  });

  test('a cut-short body or a row of the wrong width is refused', () => {
    const text = table([['20240102', '30.705', '1.2718', '-']]);
    assert.throws(() => parseCbcJson(text.slice(0, 80), cbc), /not valid JSON/);
    assert.throws(
      () => parseCbcJson(table([['20240102', '30.705']]), cbc),
      /does not have 4 fields/,
    );
    assert.throws(() => parseCbcJson('{"meta":{}}', cbc), /data.dataSets/);
  });
});
