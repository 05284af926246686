import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SandboxRejection, type Store } from '../../src/store/store.js';
import { observation } from './harness.js';

/**
 * What every store driver must do, run by each driver's test file with its own way to open a
 * fresh, empty store.
 */
export function storeContract(
  engine: string,
  open: () => Promise<{ store: Store; dispose: () => Promise<void> }>,
): void {
  describe(`store contract: ${engine}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    before(async () => {
      ({ store, dispose } = await open());
    });
    after(() => dispose());

    const rows = async (): Promise<unknown[][]> => {
      const all: unknown[][] = [];
      for await (const batch of store.streamRows(
        'SELECT source, symbol, observation_time, rate FROM observations ORDER BY ALL',
      )) {
        all.push(...batch);
      }
      return all;
    };

    test('a new store is empty, with every registered source known', async () => {
      assert.deepEqual(await rows(), []);
      const catalog = await store.catalog();
      assert.deepEqual(catalog.get('ecb'), {
        symbols: [],
        firstDate: null,
        lastDate: null,
        observations: 0,
      });
      assert.equal(catalog.size, 12);
    });

    test('writes are idempotent, later rows win, and timestamps keep milliseconds', async () => {
      const versionBefore = await store.dataVersion();
      const batch = [
        observation('ecb', 'USD', '2024-03-19T15:00:00.123Z', 1.0863),
        observation('ecb', 'USD', '2024-03-19T15:00:00.123Z', 1.0864),
        observation('imf', 'EUR', '2024-03-18T16:00:00Z', 0.92),
      ];
      await store.writeObservations(batch);
      await store.writeObservations(batch);
      assert.deepEqual(await rows(), [
        ['ecb', 'USD', '2024-03-19T15:00:00.123Z', 1.0864],
        ['imf', 'EUR', '2024-03-18T16:00:00.000Z', 0.92],
      ]);
      assert.ok((await store.dataVersion()) > versionBefore);
      const catalog = await store.catalog();
      assert.deepEqual(catalog.get('ecb'), {
        symbols: ['USD'],
        firstDate: '2024-03-19',
        lastDate: '2024-03-19',
        observations: 1,
      });
      assert.deepEqual(catalog.get('imf')?.symbols, ['EUR']);
    });

    test('a batch with one bad row stores nothing of the batch', async () => {
      const before = await rows();
      const version = await store.dataVersion();
      await assert.rejects(
        store.writeObservations([
          observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
          observation('ecb', 'CHF', '2024-03-19T15:00:00Z', -1),
        ]),
      );
      assert.deepEqual(await rows(), before);
      assert.equal(await store.dataVersion(), version);
    });

    test('the sandbox runs one read-only SELECT and refuses everything else', async () => {
      const result = await store.runSandboxed(
        'SELECT symbol, rate FROM observations ORDER BY symbol',
        {
          timeoutMs: 5000,
          maxRows: 1,
        },
      );
      assert.deepEqual(result, {
        columns: ['symbol', 'rate'],
        rows: [['EUR', 0.92]],
        truncated: true,
      });
      for (const sql of [
        'DELETE FROM observations',
        'SELECT 1; SELECT 2',
        'CREATE TABLE x (y INT)',
      ]) {
        await assert.rejects(
          store.runSandboxed(sql, { timeoutMs: 5000, maxRows: 10 }),
          SandboxRejection,
          sql,
        );
      }
      assert.equal((await rows()).length, 2);
    });
  });
}
