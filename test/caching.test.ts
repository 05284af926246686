import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IngestState } from '../src/store/store.js';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';

const DAY = 'public, max-age=86400';
const MINUTE = 'public, max-age=60';

/** The state ingestion records for a source whose history is fetched through `completeThrough`. */
function fetchedThrough(source: string, completeThrough: string | null): IngestState {
  return {
    source,
    lastAttempt: new Date('2024-03-20T10:00:00Z'),
    lastSuccess: completeThrough === null ? null : new Date('2024-03-20T10:00:00Z'),
    lastError: null,
    completeThrough,
    lastRunStored: 0,
    lastRunDropped: 0,
  };
}

forEachEngine((engine) => {
  describe('Cache-Control while data is missing', () => {
    // Today is 2024-03-20: dates up to 2024-03-17 are more than 2 days old.
    let service: TestService;
    const cacheControl = async (url: string): Promise<string> =>
      String((await service.app.inject(url)).headers['cache-control']);
    before(async () => {
      service = await startService({ today: () => '2024-03-20' }, { engine });
    });
    after(() => service.close());

    test('an empty database: empty answers about old dates are cached a minute, not a day', async () => {
      const { body, headers } = await getJson(service.app, '/v1/exchangerate/2024-03-01');
      assert.deepEqual(body.rates, {});
      assert.equal(headers['cache-control'], MINUTE);
      assert.equal(await cacheControl('/v1/exchangerate/2024-01-01/2024-03-01'), MINUTE);
      assert.equal(await cacheControl('/v1/exchangerate/1990-01-01?sources=ecb'), MINUTE);
    });

    test('during a first backfill: a minute beyond the dates fetched so far, a day before them', async () => {
      // The ECB backfill has fetched 1999 through 2024-03-05 (the state ingestion records as it
      // goes); its observations so far are stored.
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-04T15:00:00Z', 1.0852),
        observation('ecb', 'USD', '2024-03-05T15:00:00Z', 1.0857),
      ]);
      await service.store.saveIngestState(fetchedThrough('ecb', '2024-03-05'));
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-05?sources=ecb'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-01/2024-03-05?sources=ecb'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/1990-01-01?sources=ecb'), DAY);
      // Not fetched yet: what it will show is still coming.
      const later = await getJson(service.app, '/v1/exchangerate/2024-03-12?sources=ecb');
      assert.equal(later.body.rates.EUR, undefined);
      assert.equal(later.headers['cache-control'], MINUTE);
      assert.equal(
        await cacheControl('/v1/exchangerate/2024-03-01/2024-03-12?sources=ecb'),
        MINUTE,
      );
    });

    test('a source that has not fetched a date keeps every answer that asks for it at a minute', async () => {
      // Ingestion has tried boe without fetching its history; the state is read within a second.
      await service.store.saveIngestState(fetchedThrough('boe', null));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=ecb'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=ecb,boe'), MINUTE);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=boe'), MINUTE);
      // The default sources include publishers that never ran here.
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04'), MINUTE);
    });

    test('progress recorded without new data counts within a second', async () => {
      await service.store.saveIngestState(fetchedThrough('boe', '2024-03-05'));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=ecb,boe'), DAY);
    });

    test('after the backfill: a day for dates more than 2 days old, a minute for recent ones', async () => {
      // The last run stores the newest figures, then records that the history is complete.
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
        observation('boe', 'USD', '2024-03-19T15:00:00Z', 1.2725),
      ]);
      await service.store.saveIngestState(fetchedThrough('ecb', '2024-03-20'));
      await service.store.saveIngestState(fetchedThrough('boe', '2024-03-20'));
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-12?sources=ecb'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-17?sources=ecb,boe'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-01/2024-03-17?sources=boe'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-18?sources=ecb,boe'), MINUTE);
      assert.equal(await cacheControl('/v1/exchangerate/latest?sources=ecb'), MINUTE);
      assert.equal(await cacheControl('/v1/exchangerate/all?sources=ecb'), MINUTE);
      // A revalidated copy carries the same decision.
      const first = await service.app.inject('/v1/exchangerate/2024-03-12?sources=ecb');
      const again = await service.app.inject({
        url: '/v1/exchangerate/2024-03-12?sources=ecb',
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      assert.equal(again.statusCode, 304);
      assert.equal(again.headers['cache-control'], DAY);
    });
  });

  describe('Cache-Control for data no ingestion is filling in', () => {
    let service: TestService;
    before(async () => {
      service = await startService({ today: () => '2024-03-20' }, { engine });
    });
    after(() => service.close());

    test('imported data of sources never ingested here settles after 2 days (CONTRACT §9); a running source does not', async () => {
      await service.store.writeObservations([
        observation('boe', 'USD', '2024-03-04T15:00:00Z', 1.2725),
        observation('ecb', 'USD', '2024-03-04T15:00:00Z', 1.0852),
      ]);
      const cacheControl = async (url: string): Promise<string> =>
        String((await service.app.inject(url)).headers['cache-control']);
      // No ingest state at all: an imported history, served with --no-ingest.
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=boe'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04'), DAY);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-18?sources=boe'), MINUTE);
      // Once ingestion has tried a source without fetching its history, it may still fill in.
      await service.store.saveIngestState(fetchedThrough('ecb', null));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=ecb'), MINUTE);
      assert.equal(await cacheControl('/v1/exchangerate/2024-03-04?sources=boe'), DAY);
    });
  });
});
