import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bam, parseBamJson } from '../../src/sources/bam.js';
import { idleReason } from '../../src/sources/publisher.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bam.yml'];

describe('bam on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bam', {
      recordings: RECORDINGS,
      from: '2026-03-25',
      to: '2026-03-27',
      env: { BAM_API_KEY: 'test-key' },
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 30 currencies x 3 days; 2026-03-26 lists 28 of them twice with the same figures
    await assertIngested(run, { stored: 90, symbols: 30 });
    assert.equal(run.report.requests, 3);
    await assertSpots(run, [
      // 2026-03-25 JPY moyen 5.862 per uniteDevise 100; 12:30 in Casablanca (UTC+1) is 11:30Z
      {
        date: '2026-03-25',
        base: 'JPY',
        symbol: 'MAD',
        rate: '0.05862',
        decimals: 12,
        observationTime: '2026-03-25T11:30:00.000Z',
      },
      // 2026-03-25 "MRO" moyen 23.55 per 100: the ouguiya at the level of the MRU, which
      // replaced the MRO (10 to 1) in 2018, is stored as MRU
      {
        date: '2026-03-25',
        base: 'MRU',
        symbol: 'MAD',
        rate: '0.2355',
        decimals: 12,
        observationTime: '2026-03-25T11:30:00.000Z',
      },
      // 2026-03-27 DZD moyen 0.7014 per 10
      {
        date: '2026-03-27',
        base: 'DZD',
        symbol: 'MAD',
        rate: '0.07014',
        decimals: 12,
        observationTime: '2026-03-27T11:30:00.000Z',
      },
      // 2026-03-26 EUR 10.7729 and USD 9.3261 MAD: 10.7729 / 9.3261 USD per EUR
      {
        date: '2026-03-26',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.155134515',
        decimals: 10,
        observationTime: '2026-03-26T11:30:00.000Z',
      },
    ]);
  });
});

describe('bam parser on inline samples', () => {
  test('without BAM_API_KEY the publisher is idle, and says which variable to set', () => {
    assert.equal(
      idleReason(bam, {}),
      'idle: set BAM_API_KEY to a BAM API key to ingest this source',
    );
  });

  test('MAD per `uniteDevise` units; the date is the fixing date; bad rows are dropped', () => {
    const extraction = parseBamJson(
      JSON.stringify([
        { date: '2024-01-02T12:30:00', libDevise: 'XOF', moyen: 1.6423, uniteDevise: 100 },
        { date: '2024-01-02T12:30:00', libDevise: 'XXX1', moyen: 2.1, uniteDevise: 1 },
        { date: '2024-01-02T12:30:00', libDevise: 'USD', moyen: null, uniteDevise: 1 },
      ]),
      bam,
    );
    // 1.6423 MAD per 100 XOF is 0.016423 MAD per franc; 12:30 in Casablanca in January is 11:30Z
    assert.deepEqual(observationRows(extraction), [
      ['XOF', '2024-01-02T11:30:00.000Z', 1 / 0.016423],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('a body that is not an array, or is cut short, fails', () => {
    assert.throws(() => parseBamJson('{"message":"Access denied"}', bam), /JSON array/);
    assert.throws(() => parseBamJson('[{"date":"2024-01-02T12:30:00","libDe', bam), /cut short/);
  });
});
