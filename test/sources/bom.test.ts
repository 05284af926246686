import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bom, bomRequestBody, parseBomJson } from '../../src/sources/bom.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bom.yml'];

describe('bom on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  const window = { from: '2026-05-19', to: '2026-05-22' };
  before(async () => {
    run = await replayPublisher('bom', { recordings: RECORDINGS, ...window });
  });
  after(() => run?.close());

  test('the request posts the recorded body for the window', () => {
    // POSTs are matched on their body: one request, answered by the recorded exchange.
    assert.deepEqual(run.replay.requests, ['/en/currency-rate-movement/data']);
    const recorded = run.replay.recorded('/en/currency-rate-movement/data', {
      method: 'POST',
      body: bomRequestBody(window),
    });
    assert.equal(recorded.status, 200);
  });

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 38 codes (36 currencies, XAU and XAG; SDR stored as XDR) x 4 days; nothing dropped
    await assertIngested(run, { stored: 152, symbols: 38 });
    // No fixing time is documented: figures are dated 00:00 Ulaanbaatar, 16:00Z the day before.
    await assertSpots(run, [
      // USD "3,576.42" MNT on 2026-05-22
      {
        date: '2026-05-22',
        base: 'USD',
        symbol: 'MNT',
        rate: '3576.42',
        decimals: 10,
        observationTime: '2026-05-21T16:00:00.000Z',
      },
      // XAU "16,172,267.24" MNT per troy ounce
      {
        date: '2026-05-22',
        base: 'XAU',
        symbol: 'MNT',
        rate: '16172267.24',
        decimals: 6,
        observationTime: '2026-05-21T16:00:00.000Z',
      },
      // SDR "4,886.31" dated 2026-05-21, as XDR: the date endpoint's answer for 2026-05-20 (UTC)
      {
        date: '2026-05-20',
        base: 'XDR',
        symbol: 'MNT',
        rate: '4886.31',
        decimals: 10,
        observationTime: '2026-05-20T16:00:00.000Z',
      },
    ]);
  });
});

describe('bom parser on inline samples', () => {
  test('the posted body names the range', () => {
    assert.equal(
      bomRequestBody({ from: '2025-01-01', to: '2025-12-31' }),
      '{"startDate":"2025-01-01","endDate":"2025-12-31"}',
    );
  });

  test('MNT per unit with thousands separators; blanks skipped; unknown codes dropped', () => {
    const extraction = parseBomJson(
      JSON.stringify({
        success: true,
        data: [{ RATE_DATE: '2024-01-02', USD: '3,412.50', EUR: '', ABC: '1.00' }],
      }),
      bom,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2024-01-01T16:00:00.000Z', 1 / 3412.5],
    ]);
    assert.equal(extraction.dropped, 1);
  });

  test('a failed answer or a cut-short body is refused', () => {
    assert.throws(() => parseBomJson('{"success":false}', bom), /success: true/);
    assert.throws(() => parseBomJson('{"success":true,"data":[{"RATE_DATE"', bom), /JSON/);
  });
});
