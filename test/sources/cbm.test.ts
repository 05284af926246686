import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as cbm, parseCbmJson } from '../../src/sources/cbm.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbm.yml'];

describe('cbm on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbm', {
      recordings: RECORDINGS,
      from: '2026-04-09',
      to: '2026-04-09',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.equal(run.report.requests, 1);
    // 38 currencies on timestamp 1775721600 (2026-04-09 in Yangon); none dropped
    await assertIngested(run, { stored: 38, symbols: 38 });
    // Myanmar keeps no daylight-saving time: 00:00 in Yangon is 17:30Z the day before.
    const observationTime = '2026-04-08T17:30:00.000Z';
    await assertSpots(run, [
      // "USD":"2100.00"
      {
        date: '2026-04-09',
        base: 'USD',
        symbol: 'MMK',
        rate: '2100',
        decimals: 12,
        observationTime,
      },
      // "JPY":"1321.88" is kyat per 100 yen
      {
        date: '2026-04-09',
        base: 'JPY',
        symbol: 'MMK',
        rate: '13.2188',
        decimals: 12,
        observationTime,
      },
      // "EUR":"2449.65" against "USD":"2100.00"
      {
        date: '2026-04-09',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('2449.65', '2100', 10),
        decimals: 10,
        observationTime,
      },
    ]);
  });
});

describe('cbm parser on inline samples', () => {
  const sample = (rates: Record<string, unknown>, timestamp: unknown = '1775721600') =>
    JSON.stringify({ info: 'Central Bank of Myanmar', timestamp, rates });

  test('kyat per unit, per 100 units for the yen, won, dong, rupiah, riel and kip', () => {
    assert.deepEqual(
      observationRows(parseCbmJson(sample({ USD: '2100.00', KRW: '141.81', LAK: '9.52' }), cbm)),
      [
        ['USD', '2026-04-08T17:30:00.000Z', 1 / 2100],
        ['KRW', '2026-04-08T17:30:00.000Z', 1 / 1.4181],
        ['LAK', '2026-04-08T17:30:00.000Z', 1 / 0.0952],
      ],
    );
  });

  test("the date is the timestamp's day in Yangon, not in UTC", () => {
    // 2026-04-09T20:00Z is 02:30 on the 10th in Yangon
    const rows = observationRows(parseCbmJson(sample({ USD: '2100' }, 1775764800), cbm));
    assert.equal(rows[0]?.[1], '2026-04-09T17:30:00.000Z');
  });

  test('missing values and unknown codes are dropped and counted', () => {
    const result = parseCbmJson(sample({ USD: '', EUR: '0.00', XYZ: '5', GBP: '2812.53' }), cbm);
    assert.equal(result.observations.length, 1);
    assert.equal(result.dropped, 3);
  });

  test('a body cut short or without a timestamp is refused', () => {
    assert.throws(() => parseCbmJson(sample({ USD: '2100' }).slice(0, 60), cbm), /not valid JSON/);
    assert.throws(() => parseCbmJson(sample({ USD: '2100' }, null), cbm), /Unix timestamp/);
    assert.throws(() => parseCbmJson('{"timestamp":"1"}', cbm), /rates object/);
  });
});
