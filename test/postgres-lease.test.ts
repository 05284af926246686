import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { PostgresLease } from '../src/store/postgres/lease.js';
import { postgresCluster, skipWithoutPostgres, type Cluster } from './support/postgres-cluster.js';

describe('PostgreSQL ingest lease', { skip: skipWithoutPostgres() }, () => {
  let cluster: Cluster;
  let url: string;
  let pool: pg.Pool;
  before(async () => {
    cluster = await postgresCluster();
    url = await cluster.createDatabase();
    pool = new pg.Pool({ connectionString: url, max: 2 });
  });
  after(async () => {
    await pool.end();
    await cluster.dropDatabase(url);
  });

  test('a standby retrying for the lease holds one abort listener, however often it retries', async () => {
    const holder = new PostgresLease(url, pool, 5, () => undefined);
    const standby = new PostgresLease(url, pool, 5, () => undefined);
    const holding = new AbortController();
    await holder.acquire(holding.signal);
    assert.equal(holder.held(), true);

    const waiting = new AbortController();
    const standing = standby.acquire(waiting.signal);
    await sleep(300); // 5 ms apart: dozens of attempts
    const listeners = getEventListeners(waiting.signal, 'abort').length;
    if (listeners > 1) {
      waiting.abort();
      await standing.catch(() => undefined);
      await holder.release();
    }
    assert.equal(standby.held(), false);
    assert.ok(listeners <= 1, `${listeners} abort listeners`);

    // Once the holder lets go, the standby's next attempt takes the lease.
    await holder.release();
    await standing;
    assert.equal(standby.held(), true);
    await standby.release();
  });
});
