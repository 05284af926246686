import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBStore } from '../src/store/duckdb/duckdb-store.js';
import { describe, test } from 'node:test';
import { observation } from './support/harness.js';
import { storeContract } from './support/store-contract.js';

storeContract('duckdb', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-store-'));
  const store = await DuckDBStore.open({ path: join(dir, 'store.duckdb') });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('duckdb file', () => {
  test('reopening keeps the data and the data version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fxrates-store-'));
    const path = join(dir, 'nested', 'store.duckdb');
    try {
      const first = await DuckDBStore.open({ path });
      await first.writeObservations([observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863)]);
      const version = await first.dataVersion();
      await first.close();
      const again = await DuckDBStore.open({ path });
      assert.equal(await again.dataVersion(), version);
      assert.deepEqual((await again.catalog()).get('ecb')?.symbols, ['USD']);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
