import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as cbg, parseCbgSeries } from '../../src/sources/cbg.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbg.yml'];

describe('cbg on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbg', {
      recordings: RECORDINGS,
      from: '2026-05-01',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.equal(run.report.requests, 32);
    // 32 series, 28,143 distinct days in all. Dropped: 195 points on 97 days that a series
    // lists twice with different figures, 329 DKK days printed as 1 (per 100 kronor) since
    // August 2024, and 75 figures of 0 (old leones and lira that round to nothing, gaps).
    // SLL turns into SLE from July 2022: 33 symbols.
    await assertIngested(run, { stored: 27645, symbols: 33, dropped: 599 });
    // The Gambia keeps UTC all year; the feed's times are the days at 00:00Z.
    const observationTime = '2026-05-22T00:00:00.000Z';
    await assertSpots(run, [
      // USD [1779408000000, 72.39]
      {
        date: '2026-05-22',
        base: 'USD',
        symbol: 'GMD',
        rate: '72.39',
        decimals: 12,
        observationTime,
      },
      // JPY [1779408000000, 45.47] dalasi per 100 yen
      {
        date: '2026-05-22',
        base: 'JPY',
        symbol: 'GMD',
        rate: '0.4547',
        decimals: 12,
        observationTime,
      },
      // XOF [1779408000000, 646.22] dalasi per 5,000 CFA francs
      {
        date: '2026-05-22',
        base: 'XOF',
        symbol: 'GMD',
        rate: '0.129244',
        decimals: 12,
        observationTime,
      },
      // EUR [1779408000000, 86.28] against USD 72.39
      {
        date: '2026-05-22',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('86.28', '72.39', 10),
        decimals: 10,
        observationTime,
      },
    ]);
  });
});

describe('cbg parser on inline samples', () => {
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`);

  test('dalasi per unit, per 100 kronor and yen, per 5,000 CFA francs', () => {
    assert.deepEqual(
      observationRows(parseCbgSeries(JSON.stringify([[day('2024-01-02'), 771.61]]), 'SEK', cbg)),
      [['SEK', '2024-01-02T00:00:00.000Z', 1 / 7.7161]],
    );
    assert.deepEqual(
      observationRows(parseCbgSeries(JSON.stringify([[day('2024-01-02'), 646.22]]), 'XOF', cbg)),
      [['XOF', '2024-01-02T00:00:00.000Z', 1 / 0.129244]],
    );
  });

  test('the leone series is SLE from the redenomination on', () => {
    const text = JSON.stringify([
      [day('2022-07-12'), 4.11],
      [day('2019-11-18'), 0.01],
    ]);
    assert.deepEqual(
      observationRows(parseCbgSeries(text, 'SLL', cbg)).map(([symbol]) => symbol),
      ['SLE', 'SLL'],
    );
  });

  test('repeats: same figure kept once, different figures dropped; placeholders and zeros dropped', () => {
    const text = JSON.stringify([
      [day('2024-01-02'), 72.1],
      [day('2024-01-02'), 72.1],
      [day('2024-01-03'), 72.2],
      [day('2024-01-03'), 14.5],
      [day('2024-01-04'), 0],
      ['2024-01-05', 72],
    ]);
    const result = parseCbgSeries(text, 'USD', cbg);
    assert.deepEqual(observationRows(result), [['USD', '2024-01-02T00:00:00.000Z', 1 / 72.1]]);
    assert.equal(result.dropped, 4);
    const dkk = parseCbgSeries(JSON.stringify([[day('2025-05-21'), 1]]), 'DKK', cbg);
    assert.equal(dkk.observations.length, 0);
    assert.match(dkk.dropReasons[0] ?? '', /placeholder/);
  });

  test('a body cut short or of another shape is refused', () => {
    const text = JSON.stringify([[day('2024-01-02'), 72.1]]);
    assert.throws(() => parseCbgSeries(text.slice(0, -3), 'USD', cbg), /not valid JSON/);
    assert.throws(() => parseCbgSeries('{"rates":[]}', 'USD', cbg), /JSON array/);
  });
});
