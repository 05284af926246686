/**
 * The PostgreSQL server going away under a running service (`pg_ctl stop`, as in an outage or
 * a restart of the database), or the network to it going silent: requests that need it answer
 * 503 with Retry-After and say why, in the requested format; the outage is logged once, never as
 * an error per request; once the server is back, the same requests answer 200 without the
 * service being restarted.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { DatabaseUnavailable } from '../src/errors.js';
import { openServiceStore } from '../src/service-store.js';
import type { Store } from '../src/store/store.js';
import { isConnectionFailure } from '../src/store/postgres/connection.js';
import { observation, startService, type TestService } from './support/harness.js';
import {
  postgresCluster,
  runServerCommand,
  skipWithoutPostgres,
} from './support/postgres-cluster.js';

// The test stops the cluster it runs on: only the throwaway cluster of this test process (each
// test file has its own), never a server given by FXRATES_TEST_PG_URL that others may share.
const skip =
  skipWithoutPostgres() ||
  (process.env.FXRATES_TEST_PG_URL
    ? 'stops its PostgreSQL server: needs the throwaway cluster, not FXRATES_TEST_PG_URL'
    : false);

const MESSAGE = /^the database is unavailable; try again shortly$/;

describe('PostgreSQL stopped under a running service', { skip }, () => {
  let service: TestService;
  let dataDir: string;
  let running = true;
  const warnings: string[] = [];
  const logLines: { level: number; msg?: string; err?: unknown }[] = [];

  const stopDatabase = (): void => {
    runServerCommand('pg_ctl', ['-D', dataDir, '-w', '-m', 'fast', 'stop']);
    running = false;
  };
  // `restart` of a stopped cluster starts it with the options it last ran with (postmaster.opts):
  // the same port and socket folder.
  const startDatabase = (): void => {
    runServerCommand('pg_ctl', [
      '-D',
      dataDir,
      '-w',
      '-l',
      join(dirname(dataDir), 'log'),
      'restart',
    ]);
    running = true;
  };

  before(async () => {
    const cluster = await postgresCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    try {
      dataDir = (await admin.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!
        .data_directory;
    } finally {
      await admin.end();
    }
    service = await startService(
      {
        logger: {
          level: 'warn',
          stream: { write: (line: string) => logLines.push(JSON.parse(line)) },
        },
      },
      { engine: 'postgres', warn: (message) => warnings.push(message) },
    );
    await service.store.writeObservations([
      observation('ecb', 'USD', '2024-03-18T15:00:00Z', 1.0872),
      observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0854),
      observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
    ]);
  });
  after(async () => {
    // A failed assertion may leave the cluster stopped: the database is dropped through it.
    if (!running) startDatabase();
    await service?.close();
  });

  // Requests not answered before the stop: none comes from the answer cache. A short range is
  // read whole before its head is sent, so it is a 503 too. (A long one is streamed: its head
  // is sent before its first window runs.)
  const RANGE = '/v1/exchangerate/2024-03-18/2024-03-19?symbols=USD';
  const RATES = [
    '/v1/exchangerate/2024-03-19?symbols=USD,JPY',
    '/v1/exchangerate/latest?symbols=USD',
    RANGE,
  ];
  const STATUS = '/v1/exchangerate/status';

  test('rates and status answer 503 with Retry-After while it is down, 200 once it is back', async () => {
    const get = (url: string) => service.app.inject({ method: 'GET', url });
    assert.equal((await get(STATUS)).statusCode, 200, 'status before the stop');

    stopDatabase();
    for (const url of [...RATES, STATUS]) {
      const response = await get(url);
      assert.equal(response.statusCode, 503, `${url}: ${response.body}`);
      assert.match(String(response.headers['retry-after']), /^[1-9]\d*$/, url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8', url);
      const body = JSON.parse(response.body);
      assert.equal(body.status, 'error', url);
      assert.match(body.error, MESSAGE, url);
    }
    // The error body in the requested format, as the service's other errors.
    const csv = await get(`${RATES[0]}&format=csv`);
    assert.equal(csv.statusCode, 503);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.equal(
      csv.body,
      'status,error\r\nerror,the database is unavailable; try again shortly\r\n',
    );
    const xml = await get(`${RATES[0]}&format=xml`);
    assert.equal(xml.statusCode, 503);
    assert.match(String(xml.headers['content-type']), /xml/);
    assert.match(xml.body, /<error>the database is unavailable; try again shortly<\/error>/);

    // One warning for the outage, with where and why, and no error logged per request.
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0]!,
      /^PostgreSQL at host 127\.0\.0\.1, port \d+, database \w+ is unavailable \(.+\)/,
    );
    assert.deepEqual(
      logLines.filter((line) => line.level >= 50),
      [],
      'errors logged while the database was down',
    );

    startDatabase();
    for (const url of [...RATES, STATUS]) {
      const response = await get(url);
      assert.equal(response.statusCode, 200, `${url} after the restart: ${response.body}`);
    }
    // The version poll (every 200 ms here) sees it back and says so, once.
    for (let waited = 0; warnings.length < 2 && waited < 5_000; waited += 100) await sleep(100);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[1]!, /reachable again/);
  });

  test("a statement's own error is no outage: it stays itself (HTTP 500), unlogged", async () => {
    const before = warnings.length;
    await assert.rejects(service.store.readColumns('SELECT * FROM no_such_table'), (error) => {
      assert.ok(!(error instanceof DatabaseUnavailable));
      assert.equal((error as { code?: string }).code, '42P01');
      return true;
    });
    assert.equal(warnings.length, before);
  });
});

describe('what counts as the database being out of reach', () => {
  // What the driver and PostgreSQL raise, as they raise it (some cannot be provoked on demand).
  const failure = (message: string, fields: Record<string, string> = {}): Error =>
    Object.assign(new Error(message), fields);
  test('connection failures do, errors of a statement do not', () => {
    const outages = [
      failure('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', syscall: 'connect' }),
      failure('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }),
      failure('connect ENOENT /run/postgresql/.s.PGSQL.5432', {
        code: 'ENOENT',
        syscall: 'connect',
      }),
      failure('Connection terminated unexpectedly'),
      failure('Connection terminated due to connection timeout'),
      failure('timeout exceeded when trying to connect'),
      failure('terminating connection due to administrator command', { code: '57P01' }),
      failure('terminating connection because of crash of another server process', {
        code: '57P02',
      }),
      failure('the database system is shutting down', { code: '57P03' }),
      failure('connection failure', { code: '08006' }),
    ];
    for (const error of outages) assert.equal(isConnectionFailure(error), true, error.message);
    const bugs = [
      failure('relation "no_such_table" does not exist', { code: '42P01' }),
      failure('canceling statement due to statement timeout', { code: '57014' }),
      failure('out of memory', { code: '53200' }),
      failure("ENOENT: no such file or directory, open 'x'", { code: 'ENOENT', syscall: 'open' }),
      new TypeError("Cannot read properties of undefined (reading 'rows')"),
    ];
    for (const error of bugs) assert.equal(isConnectionFailure(error), false, error.message);
  });
});

/**
 * A TCP proxy to the server whose network can go silent: from then on nothing passes either
 * way and nothing is closed (no reset, as when a link or a firewall drops the packets), and new
 * connections are accepted and never answered, until it heals.
 */
async function silentableProxy(target: URL): Promise<{
  url: string;
  silence(): void;
  heal(): void;
  close(): Promise<void>;
}> {
  let silent = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    track(client);
    if (silent) return;
    const upstream = connect(Number(target.port), target.hostname);
    track(upstream);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    silence() {
      silent = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    heal() {
      silent = false;
      // What went silent stays so: the service has given those connections up.
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe(
  'the network to PostgreSQL going silent under a running service',
  {
    skip: skipWithoutPostgres(),
  },
  () => {
    const SILENCE_MS = 1_000;
    let store: Store;
    let app: FastifyInstance;
    let proxy: Awaited<ReturnType<typeof silentableProxy>>;
    let database: string;
    const warnings: string[] = [];

    before(async () => {
      const cluster = await postgresCluster();
      database = await cluster.createDatabase();
      proxy = await silentableProxy(new URL(database));
      store = await openServiceStore(proxy.url, {
        versionPollMs: 100,
        silenceMs: SILENCE_MS,
        warn: (message) => warnings.push(message),
      });
      app = await buildApp({ store, today: () => '2024-03-20', logger: false });
      await store.writeObservations([
        observation('ecb', 'USD', '2024-03-18T15:00:00Z', 1.0872),
        observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0854),
        observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
      ]);
    });
    after(async () => {
      proxy?.heal();
      await app?.close();
      await store?.close();
      await proxy?.close();
      if (database) await (await postgresCluster()).dropDatabase(database);
    });

    /** The answer, or a failure when none comes within `ms` (where a silent network leaves it). */
    const within = async (url: string, ms: number) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${url}: no answer within ${ms} ms`)), ms);
      });
      try {
        return await Promise.race([app.inject(url), late]);
      } finally {
        clearTimeout(timer);
      }
    };

    test('requests waiting on it answer 503 soon after the poll goes unanswered, and 200 once it answers again', async () => {
      assert.equal(
        (await within('/v1/exchangerate/2024-03-18?symbols=USD', 5_000)).statusCode,
        200,
      );
      proxy.silence();
      // Without the poll's watch, this waits for the system's keepalives: many minutes.
      const waiting = await within('/v1/exchangerate/2024-03-19?symbols=USD,JPY', 15 * SILENCE_MS);
      assert.equal(waiting.statusCode, 503, waiting.body);
      assert.equal(
        JSON.parse(waiting.body).error,
        'the database is unavailable; try again shortly',
      );
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0]!, /is unavailable \(no answer for 1 s\)/);

      proxy.heal();
      for (let waited = 0; warnings.length < 2 && waited < 10_000; waited += 100) await sleep(100);
      assert.match(warnings[1] ?? '', /reachable again/);
      const back = await within('/v1/exchangerate/2024-03-19?symbols=USD,JPY&base=EUR', 5_000);
      assert.equal(back.statusCode, 200, back.body);
      assert.equal(back.json().rates.JPY.rate, 163.2);
    });

    test('a store closed while the network is silent closes within seconds, and logs no outage', async () => {
      const ownWarnings: string[] = [];
      const other = await openServiceStore(proxy.url, {
        versionPollMs: 100,
        silenceMs: 60_000,
        warn: (message) => ownWarnings.push(message),
      });
      await other.catalog();
      proxy.silence();
      try {
        // A poll is then waiting for its answer.
        await sleep(300);
        const started = Date.now();
        await other.close();
        assert.ok(Date.now() - started < 5_000, `closed in ${Date.now() - started} ms`);
        assert.deepEqual(ownWarnings, []);
      } finally {
        proxy.heal();
      }
    });
  },
);
