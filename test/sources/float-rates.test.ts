import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as floatRates, parseFloatRatesJson } from '../../src/sources/float-rates.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';
import { recordingBytes } from '../support/replay-server.js';

const RECORDINGS = ['floatrates_usd_reindented.json', 'floatrates_eur.json'];

describe(
  'float_rates on its recorded responses',
  { skip: skipWithoutRecordings(RECORDINGS) },
  () => {
    let run: PublisherReplay;
    before(async () => {
      run = await replayPublisher('float_rates', {
        recordings: RECORDINGS,
        from: '2024-05-31',
        to: '2024-05-31',
      });
    });
    after(() => run?.close());

    test('every recorded rate stored; published figures come back through the API', async () => {
      await assertIngested(run, { stored: 146, symbols: 146 });
      await assertSpots(run, [
        // "aud": rate 1.5046777779523, date Fri, 31 May 2024; the feed documents no time: 00:00 UTC
        {
          date: '2024-05-31',
          base: 'USD',
          symbol: 'AUD',
          rate: '1.5046777779523',
          observationTime: '2024-05-31T00:00:00.000Z',
        },
        // "eur": rate 0.92245341335049; AUD per EUR is the exact quotient of the two figures
        {
          date: '2024-05-31',
          base: 'EUR',
          symbol: 'AUD',
          rate: divideDecimals('1.5046777779523', '0.92245341335049', 10),
          decimals: 10,
          observationTime: '2024-05-31T00:00:00.000Z',
        },
      ]);
    });

    test('the EUR feed served in place of the USD one is refused and stores nothing', async () => {
      const eurFeed = recordingBytes('floatrates_eur.json');
      run.replay.intercept = (target) =>
        target === '/daily/usd.json'
          ? { status: 200, headers: { 'content-type': 'application/json' }, body: eurFeed }
          : undefined;
      try {
        const report = await run.ingest({ from: '2024-06-01', to: '2024-06-01' });
        assert.match(report.error ?? '', /the feed lists USD: it is not the USD feed/);
        assert.equal(report.stored, 0);
      } finally {
        run.replay.intercept = undefined;
      }
    });
  },
);

describe('float_rates parser on inline samples', () => {
  test('a feed for another currency is refused', () => {
    const usd = JSON.stringify({
      eur: { code: 'EUR', rate: 0.92, date: 'Tue, 2 Jan 2024 11:55:01 GMT' },
    });
    assert.deepEqual(observationRows(parseFloatRatesJson(usd, floatRates)), [
      ['EUR', '2024-01-02T00:00:00.000Z', 0.92],
    ]);
    const eur = JSON.stringify({
      usd: { code: 'USD', rate: 1.09, date: 'Tue, 2 Jan 2024 11:55:01 GMT' },
    });
    assert.throws(() => parseFloatRatesJson(eur, floatRates), /not the USD feed/);
  });

  test('a feed without rates is refused', () => {
    assert.throws(() => parseFloatRatesJson('{}', floatRates), /the feed lists no rates/);
  });
});
