import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openServiceStore } from '../src/service-store.js';
import { forEachEngine, freshDatabase, observation } from './support/harness.js';
import { storeContract } from './support/store-contract.js';

forEachEngine((engine) => {
  storeContract(engine, async () => {
    const database = await freshDatabase(engine);
    const store = await openServiceStore(database.location);
    return {
      store,
      dispose: async () => {
        await store.close();
        await database.dispose();
      },
    };
  });

  test('reopening keeps the data and the data version; migrations run once', async () => {
    const database = await freshDatabase(engine);
    try {
      const first = await openServiceStore(database.location);
      await first.writeObservations([observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863)]);
      const version = first.dataVersion();
      assert.ok(version > 0);
      await first.close();
      // Two processes starting at once on the same database: neither fails, both see the data.
      const [again, other] = await Promise.all([
        openServiceStore(database.location),
        engine === 'postgres' ? openServiceStore(database.location) : undefined,
      ]);
      assert.equal(again.dataVersion(), version);
      assert.deepEqual((await again.catalog()).get('ecb')?.symbols, ['USD']);
      if (other) assert.equal(other.dataVersion(), version);
      await Promise.all([again.close(), other?.close()]);
    } finally {
      await database.dispose();
    }
  });
});
