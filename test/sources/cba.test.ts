import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals, multiplyDecimals } from '../../src/exact-decimal.js';
import { publisher as cba, cbaRangeEnvelope, parseCbaRange } from '../../src/sources/cba.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cba.yml'];

describe('cba on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cba', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // One range request; 30 codes (28 currencies, gold, silver) on 13 business days
    assert.deepEqual(run.replay.requests, ['/exchangerates.asmx']);
    await assertIngested(run, { stored: 390, symbols: 30 });
    await assertSpots(run, [
      // 2026-03-18: USD Amount 1 Rate 377.39. Armenia keeps +04 all year: 00:00 is 20:00Z
      // the day before
      {
        date: '2026-03-18',
        base: 'USD',
        symbol: 'AMD',
        rate: '377.39',
        decimals: 12,
        observationTime: '2026-03-17T20:00:00.000Z',
      },
      // 2026-03-18: JPY Amount 10 Rate 23.735
      {
        date: '2026-03-18',
        base: 'JPY',
        symbol: 'AMD',
        rate: '2.3735',
        decimals: 12,
        observationTime: '2026-03-17T20:00:00.000Z',
      },
      // 2026-03-18: XAU Rate 60871 drams per gram, stored per troy ounce
      {
        date: '2026-03-18',
        base: 'XAU',
        symbol: 'AMD',
        rate: multiplyDecimals('60871', '31.1034768'),
        decimals: 8,
        observationTime: '2026-03-17T20:00:00.000Z',
      },
      // 2026-03-02: EUR 442.38 against USD 376.88; its time is 1 March 20:00Z, so the UTC
      // date 1 March answers with it
      {
        date: '2026-03-01',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('442.38', '376.88', 10),
        decimals: 10,
        observationTime: '2026-03-01T20:00:00.000Z',
      },
    ]);
  });
});

describe('cba parser on inline samples', () => {
  const envelope = (rows: string) =>
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
    '<ExchangeRatesByDateRangeByISOResponse xmlns="http://www.cba.am/"><ExchangeRatesByDateRangeByISOResult>' +
    `<diffgr:diffgram><DocumentElement xmlns="">${rows}</DocumentElement></diffgr:diffgram>` +
    '</ExchangeRatesByDateRangeByISOResult></ExchangeRatesByDateRangeByISOResponse></soap:Body></soap:Envelope>';
  const row = (iso: string, amount: string, rate: string, date = '2024-07-01') =>
    `<ExchangeRatesByRange diffgr:id="x"><Rate>${rate}</Rate><Amount>${amount}</Amount><ISO>${iso}</ISO>` +
    `<Diff>0</Diff><RateDate>${date}T00:00:00+04:00</RateDate></ExchangeRatesByRange>`;

  test('drams per Amount units; metals per gram become per troy ounce', () => {
    assert.deepEqual(
      observationRows(
        parseCbaRange(envelope(row('IRR', '100', '0.028685') + row('XAG', '1', '973.28')), cba),
      ),
      [
        ['IRR', '2024-06-30T20:00:00.000Z', 1 / 0.00028685],
        ['XAG', '2024-06-30T20:00:00.000Z', 1 / Number(multiplyDecimals('973.28', '31.1034768'))],
      ],
    );
  });

  test('missing figures and codes that are no currency are dropped and counted', () => {
    const result = parseCbaRange(envelope(row('USD', '1', '') + row('ABC', '1', '5')), cba);
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
  });

  test('a cut-short body, a SOAP fault or another operation is refused', () => {
    const text = envelope(row('USD', '1', '376.88'));
    assert.throws(() => parseCbaRange(text.slice(0, -20), cba), /cut short/);
    const fault =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>' +
      '<faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring>' +
      '</soap:Fault></soap:Body></soap:Envelope>';
    assert.throws(() => parseCbaRange(fault, cba), /fault: Server was unable to process request/);
    assert.throws(
      () =>
        parseCbaRange(
          '<soap:Envelope><soap:Body><ExchangeRatesLatestResponse/></soap:Body></soap:Envelope>',
          cba,
        ),
      /expected an ExchangeRatesByDateRangeByISO response/,
    );
  });

  test('the request names every code and both dates', () => {
    const body = cbaRangeEnvelope({ from: '2025-01-01', to: '2025-12-31' });
    assert.match(body, /<ISOCodes>USD,GBP,AUD,EUR,XDR,IRR,[A-Z,]*,XAU,XAG,NZD<\/ISOCodes>/);
    assert.match(body, /<DateFrom>2025-01-01<\/DateFrom>\s*<DateTo>2025-12-31<\/DateTo>/);
  });
});
