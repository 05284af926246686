import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { clientConfig } from '../src/store/postgres/connection.js';
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
    const holder = new PostgresLease(url, pool, 'public', 5, () => undefined);
    const standby = new PostgresLease(url, pool, 'public', 5, () => undefined);
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

  test('a holder cut off from the database stops holding within seconds; its session probes a vanished peer', async () => {
    // The service's sessions ask the server to find a vanished peer in about 25 s.
    const session = new pg.Client(clientConfig(url, 'ingest'));
    await session.connect();
    try {
      for (const [name, value] of [
        ['tcp_keepalives_idle', '10'],
        ['tcp_keepalives_interval', '5'],
        ['tcp_keepalives_count', '3'],
        ['tcp_user_timeout', '30000'],
      ] as const) {
        const { rows } = await session.query(`SHOW ${name}`);
        assert.equal(rows[0][name], value, name);
      }
    } finally {
      await session.end();
    }

    // A network that stops carrying anything, without closing a connection.
    const target = new URL(url);
    const sockets: Socket[] = [];
    let silent = false;
    const proxy = createServer((inbound) => {
      const outbound = connect(Number(target.port), target.hostname);
      sockets.push(inbound, outbound);
      inbound.on('data', (data) => silent || outbound.write(data));
      outbound.on('data', (data) => silent || inbound.write(data));
      for (const socket of [inbound, outbound]) socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = new URL(url);
    proxied.port = String((proxy.address() as { port: number }).port);

    let lostAt: number | undefined;
    const holder = new PostgresLease(
      proxied.toString(),
      pool,
      'public',
      50,
      () => (lostAt = Date.now()),
    );
    const standby = new PostgresLease(url, pool, 'public', 50, () => undefined);
    try {
      await holder.acquire(new AbortController().signal);
      assert.equal(holder.held(), true);
      silent = true;
      const cut = Date.now();
      while (holder.held() && Date.now() - cut < 30_000) await sleep(100);
      assert.equal(holder.held(), false);
      assert.ok(lostAt !== undefined && lostAt - cut <= 16_000, `lost after ${lostAt! - cut} ms`);
      // The server frees the lock when the session ends (here: the sockets closing).
      for (const socket of sockets) socket.destroy();
      await standby.acquire(AbortSignal.timeout(10_000));
      assert.equal(standby.held(), true);
    } finally {
      await standby.release();
      await holder.release();
      proxy.close();
    }
  });
});
