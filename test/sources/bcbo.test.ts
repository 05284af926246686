import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { publisher as bcbo, parseBcboDay, parseBcboYear } from '../../src/sources/bcbo.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcbo.yml'];

describe('bcbo on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    // A long window reads the yearly sheet of 2007
    run = await replayPublisher('bcbo', {
      recordings: RECORDINGS,
      from: '2007-01-01',
      to: '2007-12-31',
    });
  });
  after(() => run?.close());

  test('a year: every day with a buying and selling rate stored as their midpoint', async () => {
    await assertIngested(run, { stored: 251, symbols: 1 }); // 251 days with VENTA and COMPRA
    await assertSpots(run, [
      // 2 January 2007: VENTA 8.03, COMPRA 7.93; 00:00 in La Paz (UTC-4) is 04:00Z
      {
        date: '2007-01-02',
        base: 'USD',
        symbol: 'BOB',
        rate: '7.98',
        decimals: 12,
        observationTime: '2007-01-02T04:00:00.000Z',
      },
      // 31 December 2007: VENTA 7.67, COMPRA 7.57
      {
        date: '2007-12-31',
        base: 'USD',
        symbol: 'BOB',
        rate: '7.62',
        decimals: 12,
        observationTime: '2007-12-31T04:00:00.000Z',
      },
    ]);
  });

  test('a short window: the daily tables with every currency', async () => {
    const report = await run.ingest({ from: '2026-07-13', to: '2026-07-14' });
    // USD and 21 currencies x 2 days; each day's CNH (no ISO code), UFV (an index), gold,
    // silver and SDR (quoted in USD) rows are dropped
    assert.deepEqual(
      [report.error, report.requests, report.stored, report.dropped],
      [null, 2, 44, 10],
    );
    await assertSpots(run, [
      // 13 July 2026: JPY 0.06432 BOB per yen
      {
        date: '2026-07-13',
        base: 'JPY',
        symbol: 'BOB',
        rate: '0.06432',
        decimals: 12,
        observationTime: '2026-07-13T04:00:00.000Z',
      },
      // 14 July 2026: official rate (TCO) 10.50 BOB per USD
      {
        date: '2026-07-14',
        base: 'USD',
        symbol: 'BOB',
        rate: '10.5',
        decimals: 12,
        observationTime: '2026-07-14T04:00:00.000Z',
      },
      // 13 July 2026: EUR 11.87160 and TCO 10.40: 11.8716 / 10.40 USD per EUR
      {
        date: '2026-07-13',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.1415',
        decimals: 10,
        observationTime: '2026-07-13T04:00:00.000Z',
      },
    ]);
  });
});

const xls = (rows: (string | number)[][]): Uint8Array => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'TABLA');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
};

describe('bcbo parsers on inline samples', () => {
  test('yearly sheet: midpoint of VENTA and COMPRA by month column; PROM is no day', () => {
    const bytes = xls([
      ['AÑO 2024'],
      ['DIAS', 'ENERO', '', 'FEBRERO', ''],
      ['', 'VENTA', 'COMPRA', 'VENTA', 'COMPRA'],
      ['2', 6.96, 6.86, '', ''],
      ['3', '', '', 6.97, 6.87],
      ['PROM', '6,96', '6,86', '6,97', '6,87'],
    ]);
    assert.deepEqual(observationRows(parseBcboYear(bytes, 2024, bcbo)), [
      ['USD', '2024-01-02T04:00:00.000Z', 1 / 6.91],
      ['USD', '2024-02-03T04:00:00.000Z', 1 / 6.92],
    ]);
    assert.throws(() => parseBcboYear(bytes, 2025, bcbo), /not the sheet of 2025/);
  });

  test('daily table: BOB per unit by ISO code; index, metal and non-ISO rows dropped', () => {
    const bytes = xls([
      ['TABLA DE COTIZACIONES DEL 2 DE ENERO      DE 2024'],
      ['Pais / Concepto', 'Moneda', 'Codigo', 'Tipo de Cambio Oficial (TCO) (Bs/USD)'],
      ['ESTADOS UNIDOS', 'DOLAR', 'USD', 6.96],
      ['ARGENTINA', 'PESO', 'ARS', 0.00862, 808.45],
      ['REP. POPULAR CHINA OFFSHORE', 'YUAN RENMINBI OFFSHORE', 'CNH', 0.97],
      ['BOLIVIA (UFV)', 'UNIDAD DE FOMENTO DE VIVIENDA', 'Bs/UFV', 2.47],
      ['ORO', 'ONZA TROY ORO', '', 2063.7],
      ['SOFR (Secured Overnight Financing Rate)*', '', '', '', '5.31%'],
    ]);
    const extraction = parseBcboDay(bytes, bcbo);
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2024-01-02T04:00:00.000Z', 1 / 6.96],
      ['ARS', '2024-01-02T04:00:00.000Z', 1 / 0.00862],
    ]);
    assert.equal(extraction.dropped, 3);
  });

  test('a sheet without its title or rates, or bytes that are no spreadsheet, fail', () => {
    assert.throws(() => parseBcboDay(xls([['ARGENTINA', 'PESO', 'ARS', 0.1]]), bcbo), /title/);
    assert.throws(
      () => parseBcboDay(xls([['TABLA DE COTIZACIONES DEL 2 DE ENERO DE 2024']]), bcbo),
      /quotes no currency/,
    );
    assert.throws(() => parseBcboYear(xls([['AÑO 2024'], ['nada']]), 2024, bcbo), /DIAS/);
    const table = xls([['TABLA DE COTIZACIONES DEL 2 DE ENERO DE 2024'], ['', '', 'USD', 6.96]]);
    assert.equal(parseBcboDay(table, bcbo).observations.length, 1);
    assert.throws(
      () => parseBcboDay(table.subarray(0, table.length - 600), bcbo),
      /not a readable spreadsheet/,
    );
  });
});
