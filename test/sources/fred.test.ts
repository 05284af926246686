import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as fred, parseFredJson } from '../../src/sources/fred.js';
import { idleReason } from '../../src/sources/publisher.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['fred.yml'];

describe('fred on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('fred', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-13',
      env: { FRED_API_KEY: 'test-key' },
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 220, symbols: 22 }); // 22 series x 10 days
    await assertSpots(run, [
      // DEXJPUS 2026-03-02 157.48: JPY per USD; noon New York in winter is 17:00Z
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'JPY',
        rate: '157.48',
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // DEXJPUS 2026-03-13 159.54: in summer time (from 8 March) noon is 16:00Z
      {
        date: '2026-03-13',
        base: 'USD',
        symbol: 'JPY',
        rate: '159.54',
        observationTime: '2026-03-13T16:00:00.000Z',
      },
      // DEXUSEU 2026-03-02 1.169: USD per EUR, the other way round
      {
        date: '2026-03-02',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.169',
        decimals: 12,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
    ]);
  });
});

describe('fred parser on inline samples', () => {
  test('without FRED_API_KEY the publisher is idle, and says which variable to set', () => {
    assert.equal(
      idleReason(fred, { FRED_API_KEY: '' }),
      'idle: set FRED_API_KEY to a FRED API key to ingest this source',
    );
    assert.equal(idleReason(fred, { FRED_API_KEY: 'key' }), undefined);
  });

  test('DEX..US series are units per USD, DEXUS.. series USD per unit; "." is no rate', () => {
    const body = (value: string) =>
      JSON.stringify({ observations: [{ date: '2024-01-02', value }] });
    assert.deepEqual(observationRows(parseFredJson(body('1.0956'), 'DEXUSEU', fred)), [
      ['EUR', '2024-01-02T17:00:00.000Z', 1 / 1.0956],
    ]);
    assert.deepEqual(observationRows(parseFredJson(body('141.8'), 'DEXJPUS', fred)), [
      ['JPY', '2024-01-02T17:00:00.000Z', 141.8],
    ]);
    assert.equal(parseFredJson(body('.'), 'DEXJPUS', fred).observations.length, 0);
  });
});
