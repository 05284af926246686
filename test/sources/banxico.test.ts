import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as banxico, parseBanxicoJson } from '../../src/sources/banxico.js';
import { idleReason } from '../../src/sources/publisher.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['banxico.yml'];

describe('banxico on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('banxico', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-15',
      env: { BANXICO_API_KEY: 'test-token' },
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 50, symbols: 5 }); // 5 series x 10 business days
    await assertSpots(run, [
      // SF43718 (FIX) 02/03/2026 17.3485; 12:00 in Mexico City (UTC-6) is 18:00Z
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'MXN',
        rate: '17.3485',
        decimals: 12,
        observationTime: '2026-03-02T18:00:00.000Z',
      },
      // SF46406 (yen) 13/03/2026 0.1125 MXN per JPY
      {
        date: '2026-03-13',
        base: 'JPY',
        symbol: 'MXN',
        rate: '0.1125',
        decimals: 12,
        observationTime: '2026-03-13T18:00:00.000Z',
      },
      // 13/03/2026 SF46410 (euro) 20.5536 and FIX 17.9218: 20.5536 / 17.9218 USD per EUR
      {
        date: '2026-03-13',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.1468490888',
        decimals: 10,
        observationTime: '2026-03-13T18:00:00.000Z',
      },
    ]);
  });
});

describe('banxico parser on inline samples', () => {
  const body = (idSerie: string, datos: object[]) =>
    JSON.stringify({ bmx: { series: [{ idSerie, titulo: '', datos }] } });

  test('without BANXICO_API_KEY the publisher is idle, and says which variable to set', () => {
    assert.match(idleReason(banxico, {}) ?? '', /set BANXICO_API_KEY/);
  });

  test('MXN per unit on dd/mm/yyyy dates; N/E is no figure; unknown series dropped', () => {
    const extraction = parseBanxicoJson(
      body('SF60632', [
        { fecha: '02/01/2024', dato: '12.7516' },
        { fecha: '03/01/2024', dato: 'N/E' },
      ]),
      banxico,
    );
    assert.deepEqual(observationRows(extraction), [
      ['CAD', '2024-01-02T18:00:00.000Z', 1 / 12.7516],
    ]);
    assert.equal(extraction.dropped, 0);
    assert.equal(
      parseBanxicoJson(body('SP1', [{ fecha: '02/01/2024', dato: '4.5' }]), banxico).dropped,
      1,
    );
  });

  test('an error answer or a cut-short body fails', () => {
    assert.throws(
      () => parseBanxicoJson('{"error":{"mensaje":"Token invalido"}}', banxico),
      /bmx\.series/,
    );
    assert.throws(() => parseBanxicoJson(body('SF43718', []).slice(0, -5), banxico), /cut short/);
  });
});
