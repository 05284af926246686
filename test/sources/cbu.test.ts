import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as cbu, parseCbuJson } from '../../src/sources/cbu.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbu.yml'];

describe('cbu on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbu', {
      recordings: RECORDINGS,
      from: '2026-04-01',
      to: '2026-04-03',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // Three dates of 75 currencies each (XDR among them); nothing dropped.
    await assertIngested(run, { stored: 225, symbols: 75 });
    assert.deepEqual(run.replay.requests, [
      '/en/arkhiv-kursov-valyut/json/all/2026-04-01/',
      '/en/arkhiv-kursov-valyut/json/all/2026-04-02/',
      '/en/arkhiv-kursov-valyut/json/all/2026-04-03/',
    ]);
    await assertSpots(run, [
      // "Ccy":"USD","Nominal":"1","Rate":"12194.21","Date":"01.04.2026"; Tashkent has no DST,
      // the rate is in force from midnight, 19:00Z the day before, so that UTC date shows it
      {
        date: '2026-03-31',
        base: 'USD',
        symbol: 'UZS',
        rate: '12194.21',
        decimals: 10,
        observationTime: '2026-03-31T19:00:00.000Z',
      },
      // "Ccy":"IDR","Nominal":"10","Rate":"7.18": UZS per 10 rupiah
      {
        date: '2026-03-31',
        base: 'IDR',
        symbol: 'UZS',
        rate: '0.718',
        decimals: 10,
        observationTime: '2026-03-31T19:00:00.000Z',
      },
      // "Ccy":"EUR","Rate":"13984.32" against USD 12194.21
      {
        date: '2026-03-31',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('13984.32', '12194.21', 10),
        decimals: 10,
        observationTime: '2026-03-31T19:00:00.000Z',
      },
      // 03.04.2026: IDR Nominal 10, Rate 7.15
      {
        date: '2026-04-02',
        base: 'IDR',
        symbol: 'UZS',
        rate: '0.715',
        decimals: 10,
        observationTime: '2026-04-02T19:00:00.000Z',
      },
    ]);
  });
});

describe('cbu parser on inline samples', () => {
  test('Nominal applied, dotted dates, bad values dropped, cut-short bodies refused', () => {
    const text = JSON.stringify([
      { Ccy: 'VND', Nominal: '10', Rate: '4.63', Date: '02.01.2024' },
      { Ccy: 'USD', Nominal: '1', Rate: '12345.6', Date: '02.01.2024' },
      { Ccy: 'XYZ', Nominal: '1', Rate: '1.5', Date: '02.01.2024' },
      { Ccy: 'EUR', Nominal: '1', Rate: '0', Date: '02.01.2024' },
    ]);
    const result = parseCbuJson(text, cbu);
    assert.deepEqual(observationRows(result), [
      ['VND', '2024-01-01T19:00:00.000Z', 1 / 0.463],
      ['USD', '2024-01-01T19:00:00.000Z', 1 / 12345.6],
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /'XYZ' is not a currency code.*EUR/);
    assert.throws(() => parseCbuJson(text.slice(0, -10), cbu), /not valid JSON/);
    assert.throws(() => parseCbuJson('{"error":"not found"}', cbu), /JSON array/);
  });
});
