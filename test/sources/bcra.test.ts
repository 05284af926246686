import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bcra, parseBcraJson } from '../../src/sources/bcra.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcra.yml'];

describe('bcra on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bcra', {
      recordings: RECORDINGS,
      from: '2026-03-19',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 39 rows a day: 34 stored (MXP read as MXN, VEB as VES); dropped each day are ARS itself,
    // XAU and XAG (quoted in USD only, tipoCotizacion 0), REF (the A 3500 reference dollar) and
    // CNH (offshore yuan, no ISO code): 5 x 2 days.
    await assertIngested(run, { stored: 68, symbols: 34, dropped: 10 });
    assert.equal(run.replay.requests.length, 2);
    await assertSpots(run, [
      // 2026-03-20 USD tipoCotizacion 1390.5; Buenos Aires has no DST: 00:00 is 03:00Z
      {
        date: '2026-03-20',
        base: 'USD',
        symbol: 'ARS',
        rate: '1390.5',
        decimals: 10,
        observationTime: '2026-03-20T03:00:00.000Z',
      },
      // VND "C/1.000 UNIDADES" 52.868712 ARS per 1000 dong
      {
        date: '2026-03-20',
        base: 'VND',
        symbol: 'ARS',
        rate: '0.052868712',
        decimals: 12,
        observationTime: '2026-03-20T03:00:00.000Z',
      },
      // MXP (printed code) 78.438321 on 2026-03-19, stored as MXN
      {
        date: '2026-03-19',
        base: 'MXN',
        symbol: 'ARS',
        rate: '78.438321',
        decimals: 10,
        observationTime: '2026-03-19T03:00:00.000Z',
      },
      // EUR 1607.418 and USD 1390.5 on 2026-03-20: dollars per euro
      {
        date: '2026-03-20',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('1607.418', '1390.5', 10),
        decimals: 10,
        observationTime: '2026-03-20T03:00:00.000Z',
      },
    ]);
  });
});

describe('bcra parser on inline samples', () => {
  const sample = (detalle: unknown[]) =>
    JSON.stringify({ status: 200, results: { fecha: '2024-07-01', detalle } });

  test('ARS per unit or per the units the description names; renamed codes mapped', () => {
    const extraction = parseBcraJson(
      sample([
        {
          codigoMoneda: 'VND',
          descripcion: 'DONG VIETNAM (C/1.000 UNIDADES)',
          tipoCotizacion: 36.5,
        },
        { codigoMoneda: 'MXP', descripcion: 'PESO MEXICANO', tipoCotizacion: 50 },
        { codigoMoneda: 'VEB', descripcion: 'BOLIVARES', tipoCotizacion: 25 },
      ]),
      bcra,
    );
    assert.deepEqual(observationRows(extraction), [
      ['VND', '2024-07-01T03:00:00.000Z', 1 / 0.0365],
      ['MXN', '2024-07-01T03:00:00.000Z', 1 / 50],
      ['VES', '2024-07-01T03:00:00.000Z', 1 / 25],
    ]);
  });

  test('the peso itself, metals without a peso quote and non-currencies are dropped', () => {
    const extraction = parseBcraJson(
      sample([
        { codigoMoneda: 'ARS', descripcion: 'PESO', tipoPase: 0.0007, tipoCotizacion: 0 },
        {
          codigoMoneda: 'XAU',
          descripcion: 'ORO FINO (1 ONZA)',
          tipoPase: 4600,
          tipoCotizacion: 0,
        },
        { codigoMoneda: 'REF', descripcion: 'DOLAR REFERENCIA COM 3500', tipoCotizacion: 900 },
        { codigoMoneda: 'USD', descripcion: 'DOLAR E.E.U.U.', tipoCotizacion: null },
      ]),
      bcra,
    );
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 4);
  });

  test('a body cut short or of another shape is refused', () => {
    assert.throws(() => parseBcraJson(sample([]).slice(0, 40), bcra), /not valid JSON/);
    assert.throws(() => parseBcraJson('{"status":404,"errorMessages":["x"]}', bcra), /results/);
  });
});
