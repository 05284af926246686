import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bcn, bcnMonthRequest, parseBcnSoap } from '../../src/sources/bcn.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcn.yml'];

describe('bcn on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bcn', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // One month requested; the recorded answer holds 2026-03-16 to 2026-03-20, USD only.
    await assertIngested(run, { stored: 5, symbols: 1 });
    await assertSpots(run, [
      // <Fecha>2026-03-16</Fecha><Valor>36.6243</Valor>; Managua 00:00 is 06:00Z all year
      {
        date: '2026-03-16',
        base: 'USD',
        symbol: 'NIO',
        rate: '36.6243',
        decimals: 10,
        observationTime: '2026-03-16T06:00:00.000Z',
      },
      {
        date: '2026-03-20',
        base: 'NIO',
        symbol: 'USD',
        rate: divideDecimals('1', '36.6243', 12),
        decimals: 12,
        observationTime: '2026-03-20T06:00:00.000Z',
      },
      {
        date: '2026-03-18',
        base: 'USD',
        symbol: 'NIO',
        rate: '36.6243',
        decimals: 10,
        observationTime: '2026-03-18T06:00:00.000Z',
      },
    ]);
  });
});

describe('bcn parser on inline samples', () => {
  const envelope = (inner: string) =>
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    `<soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const month = (rows: string) =>
    envelope(
      '<RecuperaTC_MesResponse xmlns="http://servicios.bcn.gob.ni/"><RecuperaTC_MesResult>' +
        `<Detalle_TC xmlns="">${rows}</Detalle_TC></RecuperaTC_MesResult></RecuperaTC_MesResponse>`,
    );

  test('córdobas per dollar, inverted; an empty value is dropped', () => {
    const extraction = parseBcnSoap(
      month(
        '<Tc><Fecha>2024-07-01</Fecha><Valor>36.6243</Valor></Tc>' +
          '<Tc><Fecha>2024-07-02</Fecha><Valor></Valor></Tc>',
      ),
      bcn,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2024-07-01T06:00:00.000Z', 1 / 36.6243],
    ]);
    assert.equal(extraction.dropped, 1);
  });

  test('the request names the year and month', () => {
    assert.match(bcnMonthRequest(2024, 7), /<tns:Ano>2024<\/tns:Ano>\s*<tns:Mes>7<\/tns:Mes>/);
  });

  test('a cut-short body, a SOAP fault or another answer is refused', () => {
    assert.throws(
      () => parseBcnSoap(month('<Tc><Fecha>2024-07-01').slice(0, -20), bcn),
      /cut short/,
    );
    assert.throws(
      () =>
        parseBcnSoap(
          envelope('<soap:Fault><faultstring>Server was unable</faultstring></soap:Fault>'),
          bcn,
        ),
      /SOAP fault: Server was unable/,
    );
    assert.throws(() => parseBcnSoap(envelope('<Other/>'), bcn), /RecuperaTC_MesResponse/);
  });
});
