import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as boj, bojUrl, parseBojJson } from '../../src/sources/boj.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['boj.yml'];

describe('boj on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('boj', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // March 2026: 19 fixings in each of the two series (nulls are weekends, holidays and the
    // last two days, not yet published when recorded); nothing dropped.
    await assertIngested(run, { stored: 38, symbols: 2 });
    assert.equal(run.report.requests, 1);
    await assertSpots(run, [
      // FXERD04 2026-03-02 156.99 yen per dollar; 17:00 Tokyo is 08:00Z all year
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'JPY',
        rate: '156.99',
        observationTime: '2026-03-02T08:00:00.000Z',
      },
      // FXERD34 2026-03-27 1.1518 dollars per euro, printed the other way round
      {
        date: '2026-03-27',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.1518',
        decimals: 12,
        observationTime: '2026-03-27T08:00:00.000Z',
      },
      // FXERD04 2026-03-27 159.95
      {
        date: '2026-03-27',
        base: 'USD',
        symbol: 'JPY',
        rate: '159.95',
        observationTime: '2026-03-27T08:00:00.000Z',
      },
    ]);
  });
});

describe('boj parser on inline samples', () => {
  const body = (series: object[], extra: object = {}) =>
    JSON.stringify({ STATUS: 200, MESSAGE: 'ok', NEXTPOSITION: null, RESULTSET: series, ...extra });
  const series = (code: string, values: unknown[]) => ({
    SERIES_CODE: code,
    VALUES: { SURVEY_DATES: [20240102, 20240103].slice(0, values.length), VALUES: values },
  });

  test('months of the window in the URL, as the API takes them', () => {
    assert.equal(
      bojUrl({ from: '2025-01-01', to: '2025-12-31' }),
      'https://www.stat-search.boj.or.jp/api/v1/getDataCode?code=FXERD04,FXERD34&db=FM08&endDate=202512&format=json&lang=en&startDate=202501',
    );
  });

  test('yen per dollar as is, dollars per euro inverted; null is a day without a fixing', () => {
    assert.deepEqual(
      observationRows(
        parseBojJson(body([series('FXERD04', [141.8, null]), series('FXERD34', [1.0956])]), boj),
      ),
      [
        ['JPY', '2024-01-02T08:00:00.000Z', 141.8],
        ['EUR', '2024-01-02T08:00:00.000Z', 1 / 1.0956],
      ],
    );
  });

  test('an unknown series is dropped; errors, pages and cut-short bodies are refused', () => {
    const extraction = parseBojJson(body([series('FXERD99', [1])]), boj);
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 1);
    assert.throws(
      () => parseBojJson(JSON.stringify({ STATUS: 400, MESSAGE: 'Invalid code' }), boj),
      /400: Invalid code/,
    );
    assert.throws(() => parseBojJson(body([], { NEXTPOSITION: 255 }), boj), /several pages/);
    assert.throws(() => parseBojJson(body([series('FXERD04', [141.8])]).slice(0, 60), boj), /JSON/);
    assert.throws(
      () =>
        parseBojJson(
          body([{ SERIES_CODE: 'FXERD04', VALUES: { SURVEY_DATES: [20240102], VALUES: [] } }]),
          boj,
        ),
      /no matching dates/,
    );
  });
});
