/**
 * Opening a database this fxrates cannot work in says so, and changes nothing: one a newer
 * fxrates has migrated, or (PostgreSQL) another program's tables, or a user that may not
 * create tables. A connection the server drops under a running statement fails that statement,
 * never the process.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { openServiceStore } from '../src/service-store.js';
import { MIGRATIONS } from '../src/store/postgres/migrations.js';
import { forEachEngine, freshDatabase, observation, readRows } from './support/harness.js';
import { postgresCluster, skipWithoutPostgres } from './support/postgres-cluster.js';

/** Runs statements on the database at `location` directly, outside fxrates. */
async function runDirectly(location: string, sql: string): Promise<void> {
  if (location.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: location });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
    return;
  }
  const instance = await DuckDBInstance.create(location);
  const connection = await instance.connect();
  try {
    await connection.run(sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

forEachEngine((engine) => {
  describe('a database of a newer schema', () => {
    test('is refused at open, and its rows stay as they were', async () => {
      const database = await freshDatabase(engine);
      try {
        const store = await openServiceStore(database.location);
        await store.writeObservations([observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.08)]);
        await store.close();
        await runDirectly(
          database.location,
          engine === 'postgres'
            ? 'INSERT INTO fxrates_migrations (step) VALUES (1000)'
            : "UPDATE meta SET value = value + 1 WHERE key = 'schema_version'",
        );
        await assert.rejects(
          openServiceStore(database.location),
          /holds an fxrates database of a newer schema \(\d+ steps; this fxrates knows \d+\): run the fxrates version that wrote it/,
        );
      } finally {
        await database.dispose();
      }
    });
  });
});

describe('PostgreSQL: a database fxrates cannot work in', { skip: skipWithoutPostgres() }, () => {
  test("another program's tables of the same names are left alone", async () => {
    const database = await freshDatabase('postgres');
    try {
      await runDirectly(
        database.location,
        'CREATE TABLE meta (name text); CREATE TABLE sources ()',
      );
      await assert.rejects(
        openServiceStore(database.location),
        /holds tables named as fxrates' own \(meta, sources\) in schema public, but no fxrates database/,
      );
    } finally {
      await database.dispose();
    }
  });

  test('a user that may not create tables is told so, naming the schema', async () => {
    const database = await freshDatabase('postgres');
    const role = `fxrates_reader_${process.pid}`;
    const cluster = await postgresCluster();
    try {
      await runDirectly(cluster.adminUrl, `CREATE ROLE ${role} LOGIN PASSWORD 'secret'`);
      await runDirectly(database.location, `REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
      const url = new URL(database.location);
      url.username = role;
      url.password = 'secret';
      await assert.rejects(
        openServiceStore(url.toString()),
        /the user may not create or change fxrates' tables in schema public \(permission denied for schema public\)/,
      );
    } finally {
      await database.dispose();
      await runDirectly(cluster.adminUrl, `DROP ROLE IF EXISTS ${role}`);
    }
  });

  test('a database of the first schema step: its codes compare as bytes, its rows kept, its statistics gathered', async () => {
    const database = await freshDatabase('postgres');
    try {
      // As the first fxrates to run on PostgreSQL left it: the codes in the database's collation.
      await runDirectly(
        database.location,
        `CREATE TABLE fxrates_migrations (step integer PRIMARY KEY, applied_at timestamp NOT NULL DEFAULT now());
        ${MIGRATIONS[0]!}
        INSERT INTO fxrates_migrations (step) VALUES (1);
        INSERT INTO observations VALUES ('ecb', 'USD', '2024-03-19 15:00', 1.08),
          ('ecb', 'JPY', '2024-03-19 15:00', 162.5), ('ecb', 'USD', '2024-03-20 15:00', 1.09)`,
      );
      const store = await openServiceStore(database.location);
      try {
        assert.deepEqual(
          await readRows(
            store,
            `SELECT table_name, column_name, collation_name FROM information_schema.columns
             WHERE table_schema = 'public' AND collation_name IS NOT NULL
               AND column_name IN ('source', 'symbol', 'key', 'relative_currency')
             ORDER BY 1, 2`,
          ),
          [
            ['ingest_status', 'source', 'C'],
            ['observations', 'source', 'C'],
            ['observations', 'symbol', 'C'],
            ['sources', 'key', 'C'],
            ['sources', 'relative_currency', 'C'],
          ],
        );
        // A query may still join the tables on their codes.
        assert.deepEqual(
          await readRows(
            store,
            `SELECT o.symbol, s.relative_currency, count(*) FROM observations AS o
             JOIN sources AS s ON s.key = o.source GROUP BY 1, 2 ORDER BY 1`,
          ),
          [
            ['JPY', 'EUR', 1],
            ['USD', 'EUR', 2],
          ],
        );
        // Without statistics the planner takes every range for a few rows (a one-year range
        // took twice as long, five years 15 times).
        assert.deepEqual(
          await readRows(
            store,
            `SELECT attname FROM pg_stats WHERE tablename = 'observations'
               AND attname IN ('source', 'symbol') ORDER BY 1`,
          ),
          [['source'], ['symbol']],
        );
      } finally {
        await store.close();
      }
    } finally {
      await database.dispose();
    }
  });

  test('a connection ended under a running statement fails it; the next statements run', async () => {
    const database = await freshDatabase('postgres');
    const store = await openServiceStore(database.location);
    // What would end a running service: an error event nothing listens to.
    const uncaught: string[] = [];
    const listener = (error: Error): void => void uncaught.push(error.message);
    process.on('uncaughtException', listener);
    try {
      await store.writeObservations([observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.08)]);
      const rows = store.streamRows(
        'SELECT g, pg_backend_pid() FROM generate_series(1, 2000000) AS g',
      );
      const iterator = rows[Symbol.asyncIterator]();
      const first = await iterator.next();
      assert.equal(first.done, false);
      const pid = (first.value as unknown[][])[0]![1];
      // As an administrator (or a server restart) would end it.
      await runDirectly(database.location, `SELECT pg_terminate_backend(${Number(pid)})`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await assert.rejects(async () => {
        for (let next = await iterator.next(); !next.done; next = await iterator.next());
      });
      assert.deepEqual(await readRows(store, 'SELECT symbol FROM observations'), [['USD']]);
      assert.deepEqual(uncaught, []);
    } finally {
      process.off('uncaughtException', listener);
      await store.close();
      await database.dispose();
    }
  });
});
