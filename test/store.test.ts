import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openServiceStore } from '../src/service-store.js';
import { addDays } from '../src/dates.js';
import { forEachEngine, freshDatabase, observation, readRows } from './support/harness.js';
import { storeContract } from './support/store-contract.js';

forEachEngine((engine) => {
  storeContract(
    engine,
    async () => {
      const database = await freshDatabase(engine);
      const store = await openServiceStore(database.location);
      return {
        store,
        dispose: async () => {
          await store.close();
          await database.dispose();
        },
      };
    },
    engine === 'duckdb',
  );

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

test('DuckDB: rows stored out of time order are put back in time order, unchanged', async () => {
  const database = await freshDatabase('duckdb');
  const store = await openServiceStore(database.location, { reclusterRows: 100 });
  try {
    const days = Array.from({ length: 60 }, (_, day) => addDays('2024-01-01', day));
    // Newest first, a few days a batch: every batch after the first is older than the table.
    for (let end = days.length; end > 0; end -= 3) {
      await store.writeObservations(
        days
          .slice(Math.max(0, end - 3), end)
          .flatMap((day, index) =>
            ['USD', 'JPY'].map((symbol) =>
              observation('ecb', symbol, `${day}T15:00:00Z`, 1 + index / 10),
            ),
          ),
      );
    }
    const version = store.dataVersion();
    const rows = await readRows(
      store,
      `SELECT observation_time, lag(observation_time) OVER (ORDER BY rowid) AS before
       FROM observations`,
    );
    assert.equal(rows.length, 120);
    // Rewritten at 100 rows out of order: only the batches after that are out of order.
    const backwards = rows.filter(([time, before]) => before != null && time! < before);
    assert.ok(backwards.length <= 3, `${backwards.length} rows out of order`);
    assert.equal(store.dataVersion(), version);
    assert.deepEqual(
      await readRows(store, `SELECT count(DISTINCT observation_time), min(rate) FROM observations`),
      [[60, 1]],
    );
  } finally {
    await store.close();
    await database.dispose();
  }
});
