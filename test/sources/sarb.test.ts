import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as sarb, parseSarbJson } from '../../src/sources/sarb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['sarb.yml'];

describe('sarb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('sarb', {
      recordings: RECORDINGS,
      from: '2026-03-23',
      to: '2026-03-27',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 23 series x 4 days (2026-03-23 was a holiday)
    await assertIngested(run, { stored: 92, symbols: 23 });
    assert.equal(run.replay.requests.length, 23);
    // 10:30 Johannesburg (UTC+2, no daylight saving) is 08:30Z
    await assertSpots(run, [
      // EXCX135D "Rand per US Dollar" 2026-03-27 17.1302
      {
        date: '2026-03-27',
        base: 'USD',
        symbol: 'ZAR',
        rate: '17.1302',
        decimals: 12,
        observationTime: '2026-03-27T08:30:00.000Z',
      },
      // EXCB120D "Japan: Yen per Rand" 2026-03-24 9.3617
      {
        date: '2026-03-24',
        base: 'ZAR',
        symbol: 'JPY',
        rate: '9.3617',
        observationTime: '2026-03-24T08:30:00.000Z',
      },
      // 2026-03-25: EXCB063D 102.8211 MWK per rand, EXCZ002D 19.5863 rand per euro
      {
        date: '2026-03-25',
        base: 'EUR',
        symbol: 'MWK',
        rate: divideDecimals('102.8211', divideDecimals('1', '19.5863', 30), 8),
        decimals: 8,
        observationTime: '2026-03-25T08:30:00.000Z',
      },
    ]);
  });
});

describe('sarb parser on inline samples', () => {
  const row = (name: string, value: unknown) =>
    JSON.stringify([{ Period: '2026-07-01T00:00:00', Timeseries: name, Value: value }]);

  test('rand per unit is inverted; units per rand are stored as printed', () => {
    assert.deepEqual(observationRows(parseSarbJson(row('Rand per Euro', 19.5), 'EUR', sarb)), [
      ['EUR', '2026-07-01T08:30:00.000Z', 1 / 19.5],
    ]);
    assert.deepEqual(
      observationRows(parseSarbJson(row('Kenya: Schilling per Rand', 7.589), 'KES', sarb)),
      [['KES', '2026-07-01T08:30:00.000Z', 7.589]],
    );
  });

  test('an unexpected series name or a missing value is dropped and counted', () => {
    assert.equal(parseSarbJson(row('Gold price in rand', 1), 'XAU', sarb).dropped, 1);
    assert.equal(parseSarbJson(row('Rand per Euro', null), 'EUR', sarb).dropped, 1);
  });

  test('an error page or a cut-short body is refused', () => {
    assert.throws(
      () => parseSarbJson('{"Message":"An error has occurred."}', 'USD', sarb),
      /array/,
    );
    assert.throws(
      () => parseSarbJson(row('Rand per Euro', 19.5).slice(0, 40), 'EUR', sarb),
      /cut short/,
    );
  });
});
