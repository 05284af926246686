import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bnm, parseBnmLatest, parseBnmMonth } from '../../src/sources/bnm.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bnm.yml'];

describe('bnm on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bnm', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The latest rates (27 currencies on 2026-03-19), then March 2026 for each of the 27: 14
    // business days each; the latest day is stored once. Nothing dropped (SDR is XDR).
    await assertIngested(run, { stored: 378, symbols: 27 });
    assert.equal(run.report.requests, 28);
    await assertSpots(run, [
      // USD unit 1, middle 3.913 on 2026-03-02; 09:00 Kuala Lumpur is 01:00Z
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'MYR',
        rate: '3.913',
        decimals: 12,
        observationTime: '2026-03-02T01:00:00.000Z',
      },
      // JPY unit 100, middle 2.5019: MYR per 100 yen
      {
        date: '2026-03-02',
        base: 'JPY',
        symbol: 'MYR',
        rate: '0.025019',
        decimals: 12,
        observationTime: '2026-03-02T01:00:00.000Z',
      },
      // SDR (XDR) middle 5.3538 in the latest rates of 2026-03-19
      {
        date: '2026-03-19',
        base: 'XDR',
        symbol: 'MYR',
        rate: '5.3538',
        decimals: 12,
        observationTime: '2026-03-19T01:00:00.000Z',
      },
    ]);
  });
});

describe('bnm parser on inline samples', () => {
  test('MYR per `unit` units; SDR is XDR; the codes of the latest rates are kept', () => {
    const latest = parseBnmLatest(
      JSON.stringify({
        data: [
          {
            currency_code: 'KRW',
            unit: 100,
            rate: { date: '2024-01-02', buying_rate: 0.35, selling_rate: 0.36, middle_rate: 0.355 },
          },
          {
            currency_code: 'SDR',
            unit: 1,
            rate: { date: '2024-01-02', buying_rate: null, selling_rate: null, middle_rate: 6.1 },
          },
        ],
      }),
      bnm,
    );
    assert.deepEqual(latest.codes, ['KRW', 'SDR']);
    assert.deepEqual(observationRows(latest), [
      ['KRW', '2024-01-02T01:00:00.000Z', 1 / 0.00355],
      ['XDR', '2024-01-02T01:00:00.000Z', 1 / 6.1],
    ]);
  });

  test('no middle rate: the midpoint of buying and selling; none at all is dropped', () => {
    const month = parseBnmMonth(
      JSON.stringify({
        data: {
          currency_code: 'USD',
          unit: 1,
          rate: [
            { date: '2024-01-02', buying_rate: 4.61, selling_rate: 4.62, middle_rate: null },
            { date: '2024-01-03', buying_rate: null, selling_rate: null, middle_rate: null },
          ],
        },
      }),
      bnm,
    );
    assert.deepEqual(observationRows(month), [['USD', '2024-01-02T01:00:00.000Z', 1 / 4.615]]);
    assert.equal(month.dropped, 1);
  });

  test('error answers and cut-short bodies are refused', () => {
    assert.throws(
      () => parseBnmMonth(JSON.stringify({ message: 'Resource not found' }), bnm),
      /Resource not found/,
    );
    assert.throws(() => parseBnmLatest('{"data":[{"currency_code":"USD"', bnm), /not valid JSON/);
  });
});
