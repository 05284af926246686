import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SOURCES } from '../../src/sources/registry.js';
import { SandboxRejection, type Store } from '../../src/store/store.js';
import { observation } from './harness.js';

/**
 * What every store driver must do, run by each driver's test file with its own way to open a
 * fresh, empty store. `tellsOneObservationPerDay`: whether the driver's catalog lists the
 * sources that never observed a symbol twice on one day (DuckDB's), or lists none (PostgreSQL's).
 */
export function storeContract(
  engine: string,
  open: () => Promise<{ store: Store; dispose: () => Promise<void> }>,
  tellsOneObservationPerDay: boolean,
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
        'SELECT source, symbol, observation_time, rate FROM observations ORDER BY source, symbol, observation_time',
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
        oneObservationPerDay: tellsOneObservationPerDay,
      });
      assert.equal(catalog.size, SOURCES.length);
      assert.deepEqual(await store.ingestStates(), new Map());
    });

    test('writes are idempotent, later rows win, and timestamps keep milliseconds', async () => {
      const versionBefore = store.dataVersion();
      const batch = [
        observation('ecb', 'USD', '2024-03-19T15:00:00.123Z', 1.0863),
        observation('ecb', 'USD', '2024-03-19T15:00:00.123Z', 1.0864),
        observation('imf', 'EUR', '2024-03-18T16:00:00Z', 0.92),
      ];
      assert.equal(await store.writeObservations(batch), 2);
      const versionAfter = store.dataVersion();
      assert.ok(versionAfter > versionBefore);
      // The same rows again change nothing, not even the data version (and so no ETag).
      assert.equal(await store.writeObservations(batch), 0);
      assert.equal(store.dataVersion(), versionAfter);
      assert.deepEqual(await rows(), [
        ['ecb', 'USD', '2024-03-19T15:00:00.123Z', 1.0864],
        ['imf', 'EUR', '2024-03-18T16:00:00.000Z', 0.92],
      ]);
      assert.ok(store.dataVersion() > versionBefore);
      const catalog = await store.catalog();
      assert.deepEqual(catalog.get('ecb'), {
        symbols: ['USD'],
        firstDate: '2024-03-19',
        lastDate: '2024-03-19',
        observations: 1,
        oneObservationPerDay: tellsOneObservationPerDay,
      });
      assert.deepEqual(catalog.get('imf')?.symbols, ['EUR']);
    });

    test('a result column by column, streamed or read whole, holds the same values as row by row, over several batches', async () => {
      const sql = `SELECT CAST(observation_time AS DATE) AS day, symbol, rate, observation_time, x
        FROM observations, generate_series(1, 3000) AS g(x) ORDER BY x, symbol, observation_time`;
      const fromRows: unknown[][] = [];
      for await (const batch of store.streamRows(sql)) fromRows.push(...batch);
      const fromColumns: unknown[][] = [];
      let batches = 0;
      for await (const { rowCount, columns } of store.streamColumns(sql)) {
        batches++;
        assert.equal(columns.length, 5);
        for (let row = 0; row < rowCount; row++) fromColumns.push(columns.map((c) => c[row]));
      }
      assert.ok(fromRows.length >= 3000);
      assert.ok(batches > 1);
      assert.deepEqual(fromColumns, fromRows);
      const read: unknown[][] = [];
      for (const { rowCount, columns } of await store.readColumns(sql))
        for (let row = 0; row < rowCount; row++) read.push(columns.map((c) => c[row]));
      assert.deepEqual(read, fromRows);
      assert.deepEqual(await store.readColumns(`${sql} LIMIT 0`), []);
    });

    test('a statement that fails after its first batches fails its reader with the reason, streamed or read whole', async () => {
      // The engine has computed and handed over tens of thousands of rows when row 99,991 fails.
      const sql = `SELECT g, CAST(CASE WHEN g > 99990 THEN 'x' ELSE '1' END AS INTEGER) AS n
        FROM generate_series(1, 100000) AS s(g)`;
      const reason = /convert string 'x'|invalid input syntax for type integer: "x"/;
      const drain = async (batches: AsyncIterable<unknown>): Promise<void> => {
        for await (const batch of batches) assert.ok(batch);
      };
      await assert.rejects(drain(store.streamRows(sql)), reason);
      await assert.rejects(drain(store.streamColumns(sql)), reason);
      await assert.rejects(store.readColumns(sql), reason);
      // Its connection serves the next statement.
      assert.deepEqual(await store.readColumns('SELECT 1 AS one'), [
        { rowCount: 1, columns: [[1]] },
      ]);
    });

    test('readers that stop after the first batch give the statement back, also when its next rows fail', async () => {
      const long = 'SELECT g FROM generate_series(1, 100000) AS s(g)';
      // Failing after the first batch: PostgreSQL's batches are 2,000 rows (the next one is
      // asked for as the first is handed on), DuckDB computes further ahead before its first.
      const failsAfter = engine === 'postgres' ? 3000 : 99990;
      const failing = `SELECT g, CAST(CASE WHEN g > ${failsAfter} THEN 'x' ELSE '1' END AS INTEGER) AS n
        FROM generate_series(1, 100000) AS s(g)`;
      // More readers than statements may run at once: each must have ended its own.
      for (let reader = 0; reader < 30; reader++) {
        for await (const batch of store.streamRows(reader % 2 === 0 ? long : failing)) {
          assert.ok(batch.length > 0);
          break;
        }
      }
      assert.deepEqual(await store.readColumns('SELECT 1 AS one'), [
        { rowCount: 1, columns: [[1]] },
      ]);
    });

    test('ingest states are stored per source and replaced whole', async () => {
      const state = {
        source: 'ecb',
        lastAttempt: new Date('2026-03-18T15:10:00.250Z'),
        lastSuccess: null,
        lastError: 'http://example.test/x: HTTP 500 Internal Server Error',
        completeThrough: '2026-03-17',
        lastRunStored: 0,
        lastRunDropped: 3,
      };
      await store.saveIngestState(state);
      assert.deepEqual((await store.ingestStates()).get('ecb'), state);
      const recovered = {
        ...state,
        lastSuccess: new Date('2026-03-18T15:40:00Z'),
        lastError: null,
        completeThrough: '2026-03-18',
        lastRunStored: 29,
        lastRunDropped: 0,
      };
      await store.saveIngestState(recovered);
      const states = await store.ingestStates();
      assert.deepEqual([...states.keys()], ['ecb']);
      assert.deepEqual(states.get('ecb'), recovered);
    });

    test('a batch with one bad row stores nothing of the batch', async () => {
      const before = await rows();
      const version = store.dataVersion();
      await assert.rejects(
        store.writeObservations([
          observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
          observation('ecb', 'CHF', '2024-03-19T15:00:00Z', -1),
        ]),
      );
      assert.deepEqual(await rows(), before);
      assert.equal(store.dataVersion(), version);
    });

    test('the sandbox runs one read-only SELECT and refuses everything else', async () => {
      const limits = { deadline: Date.now() + 20_000, maxRows: 1, maxBytes: 1_000_000 };
      const result = await store.runSandboxed(
        'SELECT symbol, rate FROM observations ORDER BY symbol',
        limits,
      );
      assert.deepEqual(result, {
        columns: ['symbol', 'rate'],
        rows: [['EUR', 0.92]],
        cut: 'rows',
      });
      for (const sql of [
        'DELETE FROM observations',
        'SELECT 1; SELECT 2',
        'CREATE TABLE x (y INT)',
      ]) {
        await assert.rejects(
          store.runSandboxed(sql, { ...limits, maxRows: 10 }),
          SandboxRejection,
          sql,
        );
      }
      assert.equal((await rows()).length, 2);
    });

    test('a source that observes a symbol twice on one day is no longer listed as observing once a day, and a catalog read before tells so', async () => {
      const day = (time: string, rate: number) => observation('boe', 'USD', time, rate);
      await store.writeObservations([day('2024-03-18T11:00:00Z', 1.27)]);
      const before = await store.catalog();
      assert.equal(before.get('boe')?.oneObservationPerDay, tellsOneObservationPerDay);
      // Another day, and another symbol on the same day: still once a day.
      await store.writeObservations([
        day('2024-03-19T11:00:00Z', 1.271),
        observation('boe', 'JPY', '2024-03-18T12:00:00Z', 189.2),
      ]);
      const same = await store.catalog();
      assert.equal(same.get('boe')?.oneObservationPerDay, tellsOneObservationPerDay);
      assert.equal(store.sharedDaysSince(before), !tellsOneObservationPerDay);
      // The same symbol later the same day.
      await store.writeObservations([day('2024-03-19T16:30:00Z', 1.272)]);
      assert.equal(store.sharedDaysSince(before), true);
      assert.equal(store.sharedDaysSince(same), true);
      const after = await store.catalog();
      assert.equal(after.get('boe')?.oneObservationPerDay, false);
      assert.equal(after.get('ecb')?.oneObservationPerDay, tellsOneObservationPerDay);
      assert.equal(store.sharedDaysSince(after), !tellsOneObservationPerDay);
    });
  });
}
