import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bcc, parseBccJson } from '../../src/sources/bcc.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcc.yml'];

describe('bcc on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bcc', {
      recordings: RECORDINGS,
      from: '2026-05-19',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 52, symbols: 13 }); // 13 currencies x 4 days
    assert.equal(run.report.requests, 13);
    await assertSpots(run, [
      // USD 2026-05-20 tasaEspecial 507 CUP; 00:00 in Havana in summer (UTC-4) is 04:00Z
      {
        date: '2026-05-20',
        base: 'USD',
        symbol: 'CUP',
        rate: '507',
        decimals: 10,
        observationTime: '2026-05-20T04:00:00.000Z',
      },
      // JPY 2026-05-19 tasaEspecial 0.31668: yen per peso, the other way round
      {
        date: '2026-05-19',
        base: 'CUP',
        symbol: 'JPY',
        rate: '0.31668',
        decimals: 12,
        observationTime: '2026-05-19T04:00:00.000Z',
      },
      // 2026-05-22 EUR 589.134 and USD 507: 589.134 / 507 = 1.162 USD per EUR
      {
        date: '2026-05-22',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.162',
        decimals: 12,
        observationTime: '2026-05-22T04:00:00.000Z',
      },
    ]);
  });
});

describe('bcc parser on inline samples', () => {
  const body = JSON.stringify([
    { fecha: '2026-01-05', tasaOficial: 24, tasaPublica: 120, tasaEspecial: 410.5 },
    { fecha: '2026-01-06', tasaOficial: 24, tasaPublica: 120, tasaEspecial: null },
  ]);

  test('the special rate in CUP per unit; a missing one is dropped; winter is UTC-5', () => {
    const extraction = parseBccJson(body, 'USD', bcc);
    assert.deepEqual(observationRows(extraction), [['USD', '2026-01-05T05:00:00.000Z', 1 / 410.5]]);
    assert.equal(extraction.dropped, 1);
  });

  test('the yen is quoted per peso and stored as it is', () => {
    assert.deepEqual(observationRows(parseBccJson(body, 'JPY', bcc)), [
      ['JPY', '2026-01-05T05:00:00.000Z', 410.5],
    ]);
  });

  test('an error object or a cut-short body fails', () => {
    assert.throws(() => parseBccJson('{"message":"Not Found"}', 'USD', bcc), /JSON array/);
    assert.throws(() => parseBccJson(body.slice(0, -4), 'USD', bcc), /cut short/);
  });
});
