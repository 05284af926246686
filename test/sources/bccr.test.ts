import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bccr, parseBccrTable, readBccrToken } from '../../src/sources/bccr.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bccr.yml'];

describe('bccr on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bccr', {
      recordings: RECORDINGS,
      from: '2026-03-21',
      to: '2026-03-24',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // the table answers 100 calendar days up to FechaFin, 15 Dec 2025 to 24 Mar 2026
    await assertIngested(run, { stored: 100, symbols: 1 });
    assert.equal(run.report.requests, 1);
    assert.equal(run.replay.requests.length, 2); // the token, then the table
    await assertSpots(run, [
      // 15 dec 2025: buy 494.34, sell 500.49, midpoint 497.415; 00:00 in Costa Rica is 06:00Z
      {
        date: '2025-12-15',
        base: 'USD',
        symbol: 'CRC',
        rate: '497.415',
        decimals: 10,
        observationTime: '2025-12-15T06:00:00.000Z',
      },
      // 24 mar 2026: buy 463.50, sell 468.29, midpoint 465.895
      {
        date: '2026-03-24',
        base: 'USD',
        symbol: 'CRC',
        rate: '465.895',
        decimals: 10,
        observationTime: '2026-03-24T06:00:00.000Z',
      },
      // 03 jan 2026, a Saturday: buy 496.08, sell 502.64, midpoint 499.36, as USD per CRC
      {
        date: '2026-01-03',
        base: 'CRC',
        symbol: 'USD',
        rate: '0.00200256',
        decimals: 8,
        observationTime: '2026-01-03T06:00:00.000Z',
      },
    ]);
  });
});

const table = (buy: string, sell: string, title = '02 jan 2024') =>
  JSON.stringify({
    columnas: [
      { field: 'nombre', tituloIngles: 'Indicators' },
      { field: 'serie1', tituloIngles: title },
    ],
    indicadoresRaiz: [
      { idIndicador: 317, nombreIngles: 'Buy', series: { serie1: buy, serie1Ingles: buy } },
      { idIndicador: 318, nombreIngles: 'Sell', series: { serie1: sell, serie1Ingles: sell } },
    ],
  });

describe('bccr parser on inline samples', () => {
  test('CRC per USD, the midpoint of buy and sell, on English day titles', () => {
    assert.deepEqual(observationRows(parseBccrTable(table('519.16', '526.88'), bccr)), [
      ['USD', '2024-01-02T06:00:00.000Z', 1 / 523.02],
    ]);
  });

  test('a missing figure or an unreadable day is dropped', () => {
    assert.equal(parseBccrTable(table('', '526.88'), bccr).dropped, 1);
    assert.equal(parseBccrTable(table('519.16', '526.88', '2 enero 2024'), bccr).dropped, 1);
  });

  test('another table, a cut-short body or a bad token fails', () => {
    assert.throws(() => parseBccrTable('{"columnas":[]}', bccr), /indicadoresRaiz/);
    assert.throws(() => parseBccrTable(table('1', '2').slice(0, -10), bccr), /cut short/);
    assert.throws(() => readBccrToken('<html><body>Error</body></html>'), /expected a token/);
    assert.equal(readBccrToken(' aa.bb-c.d_d\n'), 'aa.bb-c.d_d');
  });
});
