import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as hnb, parseHnbJson } from '../../src/sources/hnb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['hnb.yml'];

describe('hnb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('hnb', {
      recordings: RECORDINGS,
      from: '2023-01-02',
      to: '2023-01-06',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 13 currencies x 5 dates of application. The recording's kuna list of 2022-12-31
    // (`tecajn/v2`, HRK per unit) lies before the euro list and is not requested.
    await assertIngested(run, { stored: 65, symbols: 13 });
    assert.deepEqual(run.replay.requests, [
      '/tecajn-eur/v3?datum-primjene-do=2023-01-06&datum-primjene-od=2023-01-02',
    ]);
    await assertSpots(run, [
      // "datum_primjene":"2023-01-03", USD "srednji_tecaj":"1,068300"; in force from 00:00
      // Zagreb, which in winter is 23:00Z the day before
      {
        date: '2023-01-02',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.0683',
        observationTime: '2023-01-02T23:00:00.000Z',
      },
      // JPY "139,620000" on the same list
      {
        date: '2023-01-02',
        base: 'EUR',
        symbol: 'JPY',
        rate: '139.62',
        observationTime: '2023-01-02T23:00:00.000Z',
      },
      // HUF "401,030000" against USD "1,068300"
      {
        date: '2023-01-02',
        base: 'USD',
        symbol: 'HUF',
        rate: divideDecimals('401.03', '1.0683', 10),
        decimals: 10,
        observationTime: '2023-01-02T23:00:00.000Z',
      },
    ]);
  });
});

describe('hnb parser on inline samples', () => {
  test('middle rates with decimal commas; summer and winter times; bad values dropped', () => {
    const text = JSON.stringify([
      { datum_primjene: '2024-07-01', valuta: 'USD', srednji_tecaj: '1,071500' },
      { datum_primjene: '2024-01-02', valuta: 'HUF', srednji_tecaj: '378,100000' },
      { datum_primjene: '2024-01-02', valuta: 'GBP', srednji_tecaj: '' },
      { datum_primjene: '2024-01-02', valuta: 'XXY', srednji_tecaj: '1,5' },
    ]);
    const result = parseHnbJson(text, hnb);
    assert.deepEqual(observationRows(result), [
      ['USD', '2024-06-30T22:00:00.000Z', 1.0715], // summer: 00:00 CEST
      ['HUF', '2024-01-01T23:00:00.000Z', 378.1], // winter: 00:00 CET
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /GBP.*not a positive number.*'XXY'/);
    assert.throws(() => parseHnbJson(text.slice(0, -5), hnb), /cut short/);
    assert.throws(() => parseHnbJson('{"status":500}', hnb), /JSON array/);
  });
});
