import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as fbil, parseFbilJson } from '../../src/sources/fbil.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['fbil.yml'];

describe('fbil on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('fbil', {
      recordings: RECORDINGS,
      from: '2026-03-17',
      to: '2026-03-21',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 6 rates (USD, GBP, EUR, 100 JPY, AED, 10000 IDR) on 3 dates (none on 19 March).
    await assertIngested(run, { stored: 18, symbols: 6 });
    assert.deepEqual(run.replay.requests, [
      '/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=2026-03-17&toDate=2026-03-21',
    ]);
    // India has no DST: 13:00 IST is 07:30Z all year.
    await assertSpots(run, [
      // 2026-03-20 "INR / 1 USD" 93.348300
      {
        date: '2026-03-20',
        base: 'USD',
        symbol: 'INR',
        rate: '93.3483',
        decimals: 10,
        observationTime: '2026-03-20T07:30:00.000Z',
      },
      // "INR / 10000 IDR" 55.107900
      {
        date: '2026-03-20',
        base: 'IDR',
        symbol: 'INR',
        rate: '0.00551079',
        decimals: 12,
        observationTime: '2026-03-20T07:30:00.000Z',
      },
      // "INR / 100 JPY" 58.940000 against "INR / 1 EUR" 107.943600
      {
        date: '2026-03-20',
        base: 'EUR',
        symbol: 'JPY',
        rate: divideDecimals('107.9436', '0.5894', 10),
        decimals: 10,
        observationTime: '2026-03-20T07:30:00.000Z',
      },
      // 2026-03-17 "INR / 1 GBP" 122.826700
      {
        date: '2026-03-17',
        base: 'GBP',
        symbol: 'INR',
        rate: '122.8267',
        decimals: 10,
        observationTime: '2026-03-17T07:30:00.000Z',
      },
    ]);
  });
});

describe('fbil parser on inline samples', () => {
  test('units from the names; other names and bad values dropped; cut-off bodies fail', () => {
    const text = JSON.stringify([
      { processRunDate: '2024-01-02 00:00:00', subProdName: 'INR / 100 JPY', rate: 58.94 },
      { processRunDate: '2024-01-02 00:00:00', subProdName: 'INR / 1 USD', rate: 83.2 },
      { processRunDate: '2024-01-02 00:00:00', subProdName: 'MIBOR', rate: 6.75 },
      { processRunDate: '2024-01-02 00:00:00', subProdName: 'INR / 1 GBP', rate: null },
    ]);
    const result = parseFbilJson(text, fbil);
    assert.deepEqual(observationRows(result), [
      ['JPY', '2024-01-02T07:30:00.000Z', 1 / 0.5894],
      ['USD', '2024-01-02T07:30:00.000Z', 1 / 83.2],
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /'MIBOR' is not an INR rate.*GBP.*null/);
    assert.throws(() => parseFbilJson(text.slice(0, -3), fbil), /cut short/);
    assert.throws(() => parseFbilJson('{"message":"error"}', fbil), /JSON array/);
  });
});
