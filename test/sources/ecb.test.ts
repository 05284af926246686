import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as ecb, parseEcbCsv } from '../../src/sources/ecb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['ecb_recent.yml', 'ecb_historical.yml'];
const HISTORICAL_TARGET = '/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2025-01-01';

describe('ecb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('ecb', {
      recordings: RECORDINGS,
      from: '2026-02-17',
      to: '2026-03-18',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 638, symbols: 29 }); // 29 currencies x 22 days
    await assertSpots(run, [
      // D,JPY,2026-03-18,183.49 -- 16:00 Berlin in winter is 15:00Z
      {
        date: '2026-03-18',
        base: 'EUR',
        symbol: 'JPY',
        rate: '183.49',
        observationTime: '2026-03-18T15:00:00.000Z',
      },
      // D,USD,2026-03-18,1.15
      {
        date: '2026-03-18',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.15',
        observationTime: '2026-03-18T15:00:00.000Z',
      },
      // Against another base: the exact quotient of the two published figures.
      {
        date: '2026-03-18',
        base: 'USD',
        symbol: 'EUR',
        rate: divideDecimals('1', '1.15', 10),
        decimals: 10,
        observationTime: '2026-03-18T15:00:00.000Z',
      },
      {
        date: '2026-03-18',
        base: 'USD',
        symbol: 'JPY',
        rate: divideDecimals('183.49', '1.15', 10),
        decimals: 10,
        observationTime: '2026-03-18T15:00:00.000Z',
      },
    ]);
  });

  test('the longer recording, cut short by its recorder, keeps every complete row', async () => {
    const report = await run.ingest({ from: '2025-01-01', to: '2026-03-18' });
    assert.equal(report.error, null);
    // 8,067 rate rows; the closing ",,," line is dropped and counted. Rows for dates the first
    // recording also holds are the same figures, so only the rest is new.
    assert.equal(report.dropped, 1);
    const lines = run.replay.recorded(HISTORICAL_TARGET).body.toString().split('\n');
    const rateRows = lines.filter((line) => /^D,[A-Z]{3},/.test(line));
    assert.equal(rateRows.length, 8067);
    const since = rateRows.filter((line) => line.split(',')[2]! >= '2026-02-17').length;
    const sql =
      "SELECT count(*) AS n FROM observations WHERE source = 'ecb' AND observation_time < '2026-02-17'";
    const count = await run.get(`/v1/exchangerate/query?q=${encodeURIComponent(sql)}`);
    assert.equal(Number(count.body.rows[0].n), 8067 - since);
    // D,JPY,2025-07-01,169.71 -- in summer 16:00 Berlin is 14:00Z.
    const prefix = 'D,JPY,2025-07-01,';
    await assertSpots(run, [
      {
        date: '2025-07-01',
        base: 'EUR',
        symbol: 'JPY',
        rate: lines.find((line) => line.startsWith(prefix))!.slice(prefix.length),
        observationTime: '2025-07-01T14:00:00.000Z',
      },
    ]);
  });
});

describe('ecb parser on inline samples', () => {
  test('bad values and non-currency codes are dropped and counted; a cut-off body fails', () => {
    const text =
      'KEY,FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\n' +
      'EXR.D.USD.EUR.SP00.A,D,USD,2024-07-01,1.0746\n' +
      'EXR.D.JPY.EUR.SP00.A,D,JPY,2024-01-02,NaN\n' +
      'EXR.D.ZZZ.EUR.SP00.A,D,ZZZ,2024-01-02,1.5\n' +
      'EXR.D.CHF.EUR.SP00.A,D,CHF,2024-01-02,-0.9\n' +
      'EXR.D.GBP.EUR.SP00.A,D,GBP,2024-01-02,0.86\n';
    const result = parseEcbCsv(text, ecb);
    assert.deepEqual(observationRows(result), [
      ['USD', '2024-07-01T14:00:00.000Z', 1.0746], // summer: 16:00 CEST
      ['GBP', '2024-01-02T15:00:00.000Z', 0.86], // winter: 16:00 CET
    ]);
    assert.equal(result.dropped, 3);
    assert.match(
      result.dropReasons.join(' | '),
      /NaN is not a positive number.*'ZZZ' is not a currency code.*-0.9/,
    );
    assert.throws(() => parseEcbCsv(text.slice(0, -8), ecb), /cut short/);
    assert.throws(() => parseEcbCsv('A,B\n1,2\n', ecb), /header lacks CURRENCY/);
  });
});
