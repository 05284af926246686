import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  banguatRangeEnvelope,
  publisher as banguat,
  parseBanguatRange,
} from '../../src/sources/banguat.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['banguat.yml'];

describe('banguat on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('banguat', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // USD on every calendar day from 1 to 20 March, weekends included
    await assertIngested(run, { stored: 20, symbols: 1 });
    assert.equal(run.report.requests, 1);
    await assertSpots(run, [
      // 01/03/2026 venta = compra 7.66476; 00:00 in Guatemala (UTC-6) is 06:00Z
      {
        date: '2026-03-01',
        base: 'USD',
        symbol: 'GTQ',
        rate: '7.66476',
        decimals: 12,
        observationTime: '2026-03-01T06:00:00.000Z',
      },
      // 20/03/2026 7.65366
      {
        date: '2026-03-20',
        base: 'USD',
        symbol: 'GTQ',
        rate: '7.65366',
        decimals: 12,
        observationTime: '2026-03-20T06:00:00.000Z',
      },
      // 14/03/2026, a Saturday: 7.65814 as published for that day
      {
        date: '2026-03-14',
        base: 'USD',
        symbol: 'GTQ',
        rate: '7.65814',
        decimals: 12,
        observationTime: '2026-03-14T06:00:00.000Z',
      },
    ]);
  });
});

const envelope = (vars: string, total: number) =>
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
  '<soap:Body><TipoCambioRangoResponse xmlns="http://www.banguat.gob.gt/variables/ws/">' +
  `<TipoCambioRangoResult><Vars>${vars}</Vars><TotalItems>${total}</TotalItems>` +
  '</TipoCambioRangoResult></TipoCambioRangoResponse></soap:Body></soap:Envelope>';
const rate = (moneda: string, fecha: string, venta: string, compra: string) =>
  `<Var><moneda>${moneda}</moneda><fecha>${fecha}</fecha><venta>${venta}</venta><compra>${compra}</compra></Var>`;

describe('banguat parser on inline samples', () => {
  test('the request names the window as dd/mm/yyyy', () => {
    const body = banguatRangeEnvelope({ from: '2024-01-02', to: '2024-12-31' });
    assert.match(body, /<fechainit>02\/01\/2024<\/fechainit>\s*<fechafin>31\/12\/2024<\/fechafin>/);
  });

  test('GTQ per USD, the midpoint of venta and compra; unknown currency numbers dropped', () => {
    const extraction = parseBanguatRange(
      envelope(rate('2', '02/01/2024', '7.83', '7.81') + rate('24', '02/01/2024', '1', '1'), 2),
      banguat,
    );
    assert.deepEqual(observationRows(extraction), [['USD', '2024-01-02T06:00:00.000Z', 1 / 7.82]]);
    assert.equal(extraction.dropped, 1);
  });

  test('a missing figure is dropped; a fault, a short count or a cut-short body fails', () => {
    const missing = parseBanguatRange(envelope(rate('2', '02/01/2024', '', ''), 1), banguat);
    assert.equal(missing.observations.length, 0);
    assert.equal(missing.dropped, 1);
    const one = envelope(rate('2', '02/01/2024', '7.83', '7.81'), 2);
    assert.throws(() => parseBanguatRange(one, banguat), /TotalItems says 2/);
    assert.throws(() => parseBanguatRange(one.slice(0, -30), banguat), /cut short/);
    const fault =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>' +
      '<faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring>' +
      '</soap:Fault></soap:Body></soap:Envelope>';
    assert.throws(() => parseBanguatRange(fault, banguat), /SOAP fault: Server was unable/);
  });
});
