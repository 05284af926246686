import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as rba, parseRbaCsv } from '../../src/sources/rba.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['rba.yml'];

describe('rba on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('rba', {
      recordings: RECORDINGS,
      from: '2023-01-03',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 17 full series x 808 days + PGK 52 + CAD 563 + CHF 545; AED and ZAR empty
    await assertIngested(run, { stored: 14896, symbols: 20 });
    await assertSpots(run, [
      // 03-Jan-2023,0.6828 (A$1=USD); 16:00 Sydney in summer (AEDT) is 05:00Z
      {
        date: '2023-01-03',
        base: 'AUD',
        symbol: 'USD',
        rate: '0.6828',
        observationTime: '2023-01-03T05:00:00.000Z',
      },
      // the SDR column, 0.5131
      {
        date: '2023-01-03',
        base: 'AUD',
        symbol: 'XDR',
        rate: '0.5131',
        observationTime: '2023-01-03T05:00:00.000Z',
      },
      // 01-Jul-2025,0.6579: in winter (AEST) 16:00 Sydney is 06:00Z
      {
        date: '2025-07-01',
        base: 'AUD',
        symbol: 'USD',
        rate: '0.6579',
        observationTime: '2025-07-01T06:00:00.000Z',
      },
    ]);
  });
});

describe('rba parser on inline samples', () => {
  test('preamble rows give the currencies; the index and empty cells are skipped; SDR is XDR', () => {
    const text =
      '\ufeffF11.1  EXCHANGE RATES\nTitle,A$1=USD,TWI,A$1=SDR\nUnits,USD,Index,SDR\n' +
      'Series ID,FXRUSD,FXRTWI,FXRSDR\n02-Jan-2024,0.6812,60.9,\n03-Jul-2024,0.6702,61.2,0.5071\n\n\n';
    assert.deepEqual(observationRows(parseRbaCsv(text, rba)), [
      ['USD', '2024-01-02T05:00:00.000Z', 0.6812], // 16:00 AEDT
      ['USD', '2024-07-03T06:00:00.000Z', 0.6702], // 16:00 AEST
      ['XDR', '2024-07-03T06:00:00.000Z', 0.5071],
    ]);
    assert.throws(() => parseRbaCsv('02-Jan-2024,0.6812\n', rba), /before the Units/);
  });
});
