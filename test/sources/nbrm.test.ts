import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { windowChunks } from '../../src/sources/publisher-fetch.js';
import { publisher as nbrm, nbrmUrl, parseNbrmJson } from '../../src/sources/nbrm.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbrm.yml'];

describe('nbrm on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    // A first run of the latest day; then the 90 days before it, as a backfill.
    run = await replayPublisher('nbrm', {
      recordings: RECORDINGS,
      from: '2026-05-30',
      to: '2026-05-30',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The latest day: 31 currencies
    await assertIngested(run, { stored: 31, symbols: 31 });
    const history = await run.ingest({ from: '2026-03-01', to: '2026-05-29' });
    assert.deepEqual(run.replay.requests, [
      '/KLServiceNOV/GetExchangeRate?EndDate=30.05.2026&StartDate=30.05.2026&format=json',
      '/KLServiceNOV/GetExchangeRate?EndDate=29.05.2026&StartDate=01.03.2026&format=json',
    ]);
    // Then 31 currencies x 90 calendar days
    assert.equal(history.error, null);
    assert.equal(history.stored, 2790);
    assert.equal(history.dropped, 0);
    const status = (await run.get('/v1/exchangerate/status')).body;
    assert.equal(status.sources.find((s: any) => s.source === 'nbrm').observations, 2821);
    const listed = (await run.get('/v1/exchangerate/sources?sources=nbrm')).body.currencies.nbrm;
    assert.equal(listed.num_symbols, 32);
    await assertSpots(run, [
      // 2026-05-30 USD 53.1075 MKD; 00:00 Skopje in summer (CEST) is 22:00Z the day before
      {
        date: '2026-05-30',
        base: 'USD',
        symbol: 'MKD',
        rate: '53.1075',
        decimals: 12,
        observationTime: '2026-05-29T22:00:00.000Z',
      },
      // JPY nomin 1 at 0.3331 MKD
      {
        date: '2026-05-30',
        base: 'JPY',
        symbol: 'MKD',
        rate: '0.3331',
        decimals: 12,
        observationTime: '2026-05-29T22:00:00.000Z',
      },
      // 2026-03-01 EUR 61.6948 and USD 52.2616 MKD: USD per EUR is their ratio; 00:00 Skopje in
      // winter (CET) is 23:00Z on 2026-02-28, the UTC date that shows it
      {
        date: '2026-02-28',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.180499640271',
        decimals: 12,
        observationTime: '2026-02-28T23:00:00.000Z',
      },
    ]);
  });

  test('a window longer than 90 days is asked for in 90-day parts', () => {
    assert.deepEqual([...windowChunks({ from: '2026-03-01', to: '2026-05-30' }, 90)].map(nbrmUrl), [
      'https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?EndDate=29.05.2026&StartDate=01.03.2026&format=json',
      'https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?EndDate=30.05.2026&StartDate=30.05.2026&format=json',
    ]);
  });
});

describe('nbrm parser on inline samples', () => {
  const row = (oznaka: string, nomin: unknown, sreden: unknown) => ({
    rBr: 1,
    datum: '2026-07-01T00:00:00',
    oznaka,
    nomin,
    sreden,
    datum_f: '2026-06-30T00:00:00',
  });

  test('rates in force on datum, per nomin units; missing figures and unknown codes dropped', () => {
    const extraction = parseNbrmJson(
      JSON.stringify([
        row('HUF', 100, 15.83),
        row('USD', 1, 52.75),
        row('EUR', 1, null),
        row('XQQ', 1, 1),
      ]),
      nbrm,
    );
    assert.deepEqual(observationRows(extraction), [
      ['HUF', '2026-06-30T22:00:00.000Z', 1 / 0.1583],
      ['USD', '2026-06-30T22:00:00.000Z', 1 / 52.75],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('an empty window is empty; a body cut short or an error page is refused', () => {
    assert.equal(parseNbrmJson('[]', nbrm).observations.length, 0);
    assert.throws(() => parseNbrmJson('[{"rBr":1,"datum":"2026-07', nbrm), /cut short/);
    assert.throws(() => parseNbrmJson('{"error":"bad dates"}', nbrm), /JSON array/);
  });
});
