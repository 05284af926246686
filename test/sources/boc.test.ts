import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as boc, parseBocJson } from '../../src/sources/boc.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['boc.yml'];

describe('boc on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('boc', {
      recordings: RECORDINGS,
      from: '2026-03-12',
      to: '2026-03-18',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 115, symbols: 23 }); // 5 days x 23 series with values
    await assertSpots(run, [
      // 2026-03-12 FXUSDCAD 1.3617; 16:30 Toronto in summer time (from 8 March) is 20:30Z
      {
        date: '2026-03-12',
        base: 'USD',
        symbol: 'CAD',
        rate: '1.3617',
        decimals: 12,
        observationTime: '2026-03-12T20:30:00.000Z',
      },
      // FXJPYCAD "0.008550"
      {
        date: '2026-03-12',
        base: 'JPY',
        symbol: 'CAD',
        rate: '0.00855',
        decimals: 12,
        observationTime: '2026-03-12T20:30:00.000Z',
      },
    ]);
  });
});

describe('boc parser on inline samples', () => {
  test('CAD per unit, inverted; empty series skipped; winter time', () => {
    assert.deepEqual(
      observationRows(
        parseBocJson(
          JSON.stringify({
            observations: [{ d: '2024-01-02', FXUSDCAD: { v: '1.3316' }, FXVNDCAD: {} }],
          }),
          boc,
        ),
      ),
      [['USD', '2024-01-02T21:30:00.000Z', 1 / 1.3316]], // 16:30 EST
    );
  });
});
