import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as mnb, mnbRequestBody, parseMnbSoap } from '../../src/sources/mnb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['mnb.yml'];

describe('mnb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('mnb', {
      recordings: RECORDINGS,
      from: '2025-03-24',
      to: '2025-03-28',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 32 currencies x 5 business days, one SOAP call for the window
    await assertIngested(run, { stored: 160, symbols: 32 });
    assert.equal(run.replay.requests.length, 1);
    await assertSpots(run, [
      // 2025-03-28 USD unit 1: 373,72 HUF; 11:00 Budapest in winter (CET) is 10:00Z
      {
        date: '2025-03-28',
        base: 'USD',
        symbol: 'HUF',
        rate: '373.72',
        decimals: 12,
        observationTime: '2025-03-28T10:00:00.000Z',
      },
      // JPY unit 100: 248,17 HUF, so 2.4817 HUF per yen
      {
        date: '2025-03-28',
        base: 'JPY',
        symbol: 'HUF',
        rate: '2.4817',
        decimals: 12,
        observationTime: '2025-03-28T10:00:00.000Z',
      },
      // 2025-03-24 EUR 398,44 and USD 367,60 HUF: USD per EUR is their ratio
      {
        date: '2025-03-24',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.083895538629',
        decimals: 12,
        observationTime: '2025-03-24T10:00:00.000Z',
      },
    ]);
  });
});

describe('mnb parser on inline samples', () => {
  const envelope = (inner: string) =>
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>' +
    '<GetExchangeRatesResponse xmlns="http://www.mnb.hu/webservices/"><GetExchangeRatesResult>' +
    inner.replaceAll('<', '&lt;').replaceAll('>', '&gt;') +
    '</GetExchangeRatesResult></GetExchangeRatesResponse></s:Body></s:Envelope>';

  test('escaped XML, decimal commas, HUF per 100 units by moving the decimal point', () => {
    const text = envelope(
      '<MNBExchangeRates><Day date="2025-07-01"><Rate unit="100" curr="JPY">236,50</Rate>' +
        '<Rate unit="1" curr="EUR">399,10</Rate><Rate unit="1" curr="XYZ">1,00</Rate>' +
        '<Rate unit="1" curr="GBP"></Rate></Day></MNBExchangeRates>',
    );
    const extraction = parseMnbSoap(text, mnb);
    assert.deepEqual(observationRows(extraction), [
      // summer: 11:00 Budapest (CEST) is 09:00Z
      ['JPY', '2025-07-01T09:00:00.000Z', 1 / 2.365],
      ['EUR', '2025-07-01T09:00:00.000Z', 1 / 399.1],
    ]);
    // XYZ is no currency; GBP has no figure
    assert.equal(extraction.dropped, 2);
  });

  test('an empty result (no business day in the window) is no error', () => {
    assert.equal(parseMnbSoap(envelope('<MNBExchangeRates />'), mnb).observations.length, 0);
  });

  test('a body cut short or a fault is refused', () => {
    const text = envelope('<MNBExchangeRates><Day date="2025-07-01"></Day></MNBExchangeRates>');
    assert.throws(() => parseMnbSoap(text.slice(0, -40), mnb), /cut short/);
    assert.throws(
      () =>
        parseMnbSoap(
          '<s:Envelope><s:Body><s:Fault><faultstring>bad date</faultstring></s:Fault></s:Body></s:Envelope>',
          mnb,
        ),
      /no GetExchangeRatesResult/,
    );
  });

  test('the request names the window and the currencies', () => {
    const body = mnbRequestBody({ from: '2025-01-01', to: '2025-12-31' });
    assert.match(body, /<web:startDate>2025-01-01<\/web:startDate>/);
    assert.match(body, /<web:endDate>2025-12-31<\/web:endDate>/);
    assert.match(body, /<web:currencyNames>AUD,BRL,.*,ZAR<\/web:currencyNames>/);
  });
});
