import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bcu, bcuRequest, parseBcuSoap } from '../../src/sources/bcu.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcu.yml'];

describe('bcu on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bcu', {
      recordings: RECORDINGS,
      from: '2026-03-27',
      to: '2026-03-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 27 requests, one per currency, each with 2026-03-27, 03-30 and 03-31.
    await assertIngested(run, { stored: 81, symbols: 27 });
    assert.equal(run.replay.requests.length, 27);
    await assertSpots(run, [
      // Moneda 2225 "DLS. USA BILLETE" (CodigoISO "DLS.") 2026-03-27 TCC = TCV 40.560000;
      // Montevideo has no DST: 00:00 is 03:00Z
      {
        date: '2026-03-27',
        base: 'USD',
        symbol: 'UYU',
        rate: '40.56',
        decimals: 10,
        observationTime: '2026-03-27T03:00:00.000Z',
      },
      // Moneda 3600 YEN 2026-03-31 0.254783
      {
        date: '2026-03-31',
        base: 'JPY',
        symbol: 'UYU',
        rate: '0.254783',
        decimals: 12,
        observationTime: '2026-03-31T03:00:00.000Z',
      },
      // Moneda 1111 (CodigoISO "EURO") 46.557396 and the dollar 40.626000 on 2026-03-30
      {
        date: '2026-03-30',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('46.557396', '40.626', 10),
        decimals: 10,
        observationTime: '2026-03-30T03:00:00.000Z',
      },
    ]);
  });
});

describe('bcu parser on inline samples', () => {
  const answer = (status: string, data: string) =>
    '<?xml version="1.0" encoding="utf-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/">' +
    '<SOAP-ENV:Body><wsbcucotizaciones.ExecuteResponse xmlns="Cotiza"><Salida xmlns="Cotiza">' +
    `<respuestastatus>${status}</respuestastatus><datoscotizaciones>${data}</datoscotizaciones>` +
    '</Salida></wsbcucotizaciones.ExecuteResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>';
  const ok = '<status>1</status><codigoerror>0</codigoerror><mensaje/>';
  const dato = (moneda: string, iso: string, buy: string, sell: string) =>
    `<datoscotizaciones.dato xmlns="Cotiza"><Fecha>2024-07-01</Fecha><Moneda>${moneda}</Moneda>` +
    `<Nombre>X</Nombre><CodigoISO>${iso}</CodigoISO><TCC>${buy}</TCC><TCV>${sell}</TCV>` +
    '<ArbAct>1.000000</ArbAct><FormaArbitrar>0</FormaArbitrar></datoscotizaciones.dato>';

  test('buy/sell midpoint in UYU per unit; BCU numbers for codes that are not ISO', () => {
    const extraction = parseBcuSoap(
      answer(
        ok,
        dato('2225', 'DLS.', '39.100000', '39.300000') + dato('1111', 'EURO', '42.5', '42.5'),
      ),
      bcu,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2024-07-01T03:00:00.000Z', 1 / 39.2],
      ['EUR', '2024-07-01T03:00:00.000Z', 1 / 42.5],
    ]);
  });

  test('an unknown code or a missing value is dropped and counted', () => {
    const extraction = parseBcuSoap(
      answer(ok, dato('9999', 'UI', '6.1', '6.1') + dato('4800', 'PYG', '', '0.006')),
      bcu,
    );
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 2);
  });

  test('a refusal, a cut-short body or another answer fails with the reason', () => {
    assert.throws(
      () =>
        parseBcuSoap(
          answer(
            '<status>0</status><codigoerror>100</codigoerror><mensaje>Fecha invalida</mensaje>',
            '',
          ),
          bcu,
        ),
      /Fecha invalida/,
    );
    assert.throws(
      () => parseBcuSoap(answer(ok, dato('2225', 'DLS.', '1', '1')).slice(0, -40), bcu),
      /cut short/,
    );
    assert.throws(
      () => parseBcuSoap('<SOAP-ENV:Envelope><SOAP-ENV:Body/></SOAP-ENV:Envelope>', bcu),
      /respuestastatus/,
    );
  });

  test('the request names the currency and the window', () => {
    assert.match(
      bcuRequest('0500', { from: '2024-01-01', to: '2024-12-31' }),
      /<cot:item>0500<\/cot:item>[\s\S]*<cot:FechaDesde>2024-01-01<[\s\S]*<cot:FechaHasta>2024-12-31</,
    );
  });
});
