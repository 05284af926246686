import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SOURCES, findSource } from '../src/sources/registry.js';
import { runCli, startServer } from './support/cli.js';
import { skipWithoutFixtures } from './support/harness.js';
import { RECORDED, ReplayServer } from './support/replay-server.js';

/** A loopback port nobody listens on: requests to it are refused at once, as without a network. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let NO_NETWORK: Record<string, string> = {};
const FAST = {
  FXRATES_HTTP_RETRIES: '0',
  FXRATES_POLITENESS_MS: '0',
  FXRATES_HTTP_TIMEOUT_MS: '5000',
};

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('fxrates ingest and serve with ingestion', () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-ingest-'));
    const origin = `http://127.0.0.1:${await closedPort()}`;
    NO_NETWORK = Object.fromEntries(
      SOURCES.map((source) => [`FXRATES_ORIGIN_${source.key.toUpperCase()}`, origin]),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('usage mistakes exit 2 and say what is wrong', async () => {
    const unknown = await runCli(['ingest', 'xyz', '--db', join(dir, 'u.duckdb')]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown source 'xyz'/);
    const swapped = await runCli(['ingest', 'ecb', '--from', '2024-02-01', '--to', '2024-01-01']);
    assert.equal(swapped.code, 2);
    assert.match(swapped.stderr, /--from 2024-02-01 is after --to 2024-01-01/);
    const badDate = await runCli(['ingest', '--from', '2024-02-30']);
    assert.equal(badDate.code, 2);
    assert.match(badDate.stderr, /--from '2024-02-30' is not a date/);
  });

  test('without a network every source fails with a reason, exit 1, nothing stored', async () => {
    const db = join(dir, 'offline.duckdb');
    const result = await runCli(['ingest', 'ecb', 'cbr', '--db', db], { ...NO_NETWORK, ...FAST });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /ecb 1999-01-04\.\.\d{4}-\d{2}-\d{2}: 1 requests.*failed: http:\/\/127\.0\.0\.1:\d+\/service\/data\/EXR\/.*ECONNREFUSED/,
    );
    assert.match(
      result.stderr,
      /cbr 1992-07-01\.\..*failed: http:\/\/127\.0\.0\.1:\d+\/scripts\/XML_daily\.asp/,
    );
  });

  test('a PostgreSQL server asking for a password the URL lacks: one line, and the command ends', async () => {
    // A server that asks for SCRAM authentication, then never answers nor closes.
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => {
      sockets.push(socket);
      let messages = 0;
      socket.on('data', () => {
        messages++;
        const reply = (code: number, data: string): Buffer => {
          const body = Buffer.concat([Buffer.alloc(4), Buffer.from(data)]);
          body.writeInt32BE(code, 0);
          const head = Buffer.alloc(5);
          head.write('R');
          head.writeInt32BE(body.length + 4, 1);
          return Buffer.concat([head, body]);
        };
        if (messages === 1) socket.write(reply(10, 'SCRAM-SHA-256\0\0'));
        else if (messages === 2) socket.write(reply(11, 'r=abc,s=c2FsdA==,i=4096'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const file = join(dir, 'one.csv');
    writeFileSync(file, 'source,symbol,observation_time,rate\necb,USD,2024-01-15,1.09\n');
    try {
      const started = Date.now();
      const result = await runCli(['import', '--db', `postgres://fx@127.0.0.1:${port}/fx`, file]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /cannot connect to PostgreSQL at host 127\.0\.0\.1.*password/);
      assert.ok(Date.now() - started < 20_000, `ended after ${Date.now() - started} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  test('npm start without a network comes up, serves, and reports each source failing', async () => {
    const server = await startServer(['--db', join(dir, 'serve-offline.duckdb')], {
      ...NO_NETWORK,
      ...FAST,
      FRED_API_KEY: '',
    });
    try {
      const status = await waitFor('every source to report', async () => {
        const body = (await (
          await fetch(`${server.baseUrl}/v1/exchangerate/status`)
        ).json()) as any;
        const settled = body.sources.every(
          (row: any) => !['pending', 'running'].includes(row.state),
        );
        return settled ? body : undefined;
      });
      assert.equal(status.ingesting, true);
      for (const row of status.sources) {
        const needsKey = findSource(row.source)?.apiKey?.variables;
        if (needsKey) {
          // Publishers whose API needs a key stay idle without it and say which to set.
          assert.equal(row.state, 'idle', row.source);
          assert.match(row.last_error, new RegExp(`set ${needsKey[0]}`), row.source);
        } else {
          assert.equal(row.state, 'failing', row.source);
          assert.match(row.last_error, /ECONNREFUSED/, row.source);
          assert.equal(row.observations, 0);
        }
      }
      const csv = await fetch(`${server.baseUrl}/v1/exchangerate/status?format=csv`);
      assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
      assert.match(
        await csv.text(),
        /^source,state,last_attempt,last_success,last_error,observations,first_date,last_date,/,
      );
      const latest = await fetch(`${server.baseUrl}/v1/currencies`);
      assert.equal(latest.status, 200);
      const openapi = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as any;
      assert.ok(openapi.paths['/v1/exchangerate/status']);
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  });

  describe('against recorded responses', { skip: skipWithoutFixtures(RECORDED) }, () => {
    let replay: ReplayServer;
    before(async () => {
      replay = await ReplayServer.start();
    });
    after(() => replay?.close());

    test('fxrates ingest SOURCE --from --to stores what the publisher sent and prints it', async () => {
      const db = join(dir, 'replayed.duckdb');
      const env = { ...replay.env(['ecb', 'cbr', 'boi']), ...FAST };
      const ecb = await runCli(['ingest', 'ecb', '--from', '2026-02-17', '--db', db], env);
      assert.equal(ecb.code, 0, ecb.stderr);
      assert.match(
        ecb.stdout,
        /^ecb 2026-02-17\.\.\d{4}-\d{2}-\d{2}: 1 requests, 638 observations new or changed \(\d+ ms\)\n$/,
      );
      const two = await runCli(
        ['ingest', 'cbr', 'boi', '--from', '2026-03-01', '--to', '2026-03-05', '--db', db],
        env,
      );
      // The BoI recording asks for the range up to 2026-03-20, so this BoI request is unknown.
      assert.equal(two.code, 1);
      assert.match(
        two.stdout,
        /^cbr 2026-03-01\.\.2026-03-05: 56 requests, 228 observations new or changed/m,
      );
      assert.match(
        two.stderr,
        /boi 2026-03-01\.\.2026-03-05: 1 requests.*failed: .*endperiod=2026-03-05.*HTTP 404/,
      );
      const again = await runCli(['ingest', 'ecb', '--from', '2026-02-17', '--db', db], env);
      assert.match(again.stdout, /1 requests, 0 observations new or changed/);
    });

    test('SIGTERM during a slow publisher request stops at once and cleanly', async () => {
      replay.intercept = () => 'hang';
      const requestsBefore = replay.requests.length;
      const server = await startServer(['--db', join(dir, 'serve-hang.duckdb')], {
        ...NO_NETWORK,
        ...replay.env(['ecb']),
        ...FAST,
        FXRATES_HTTP_TIMEOUT_MS: '600000',
      });
      try {
        await waitFor('the request to hang', async () =>
          replay.requests.length > requestsBefore ? true : undefined,
        );
        const status = (await (
          await fetch(`${server.baseUrl}/v1/exchangerate/status`)
        ).json()) as any;
        assert.equal(status.sources.find((row: any) => row.source === 'ecb').state, 'running');
        const started = Date.now();
        server.child.kill('SIGTERM');
        const [code] = (await once(server.child, 'exit')) as [number | null];
        assert.equal(code, 0);
        assert.ok(Date.now() - started < 10_000);
        assert.match(server.output(), /database closed; bye/);
      } finally {
        replay.intercept = undefined;
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      }
    });

    test('fxrates serve ingests by itself: data appears without any import', async () => {
      replay.intercept = (target) =>
        target.startsWith('/service/data/EXR/')
          ? replay.recorded('/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2026-02-17')
          : undefined;
      const server = await startServer(['--db', join(dir, 'serve.duckdb')], {
        ...NO_NETWORK,
        ...replay.env(['ecb']),
        ...FAST,
      });
      try {
        const rates = await waitFor('ECB rates', async () => {
          const response = await fetch(
            `${server.baseUrl}/v1/exchangerate/2026-03-18?sources=ecb&base=EUR&symbols=USD`,
          );
          const body = response.status === 200 ? ((await response.json()) as any) : undefined;
          return body?.rates?.USD ? body : undefined;
        });
        assert.equal(rates.rates.USD.rate, 1.15);
        // The rates are visible as soon as they are stored; the run records its outcome after.
        const ecb = await waitFor('the ECB run to end', async () => {
          const status = (await (
            await fetch(`${server.baseUrl}/v1/exchangerate/status`)
          ).json()) as any;
          const row = status.sources.find((row: any) => row.source === 'ecb');
          // Until its run has recorded an outcome, a source is running or (queued) pending.
          return ['running', 'pending'].includes(row.state) ? undefined : row;
        });
        assert.equal(ecb.state, 'ok');
        assert.equal(ecb.observations, 638);
        assert.equal(ecb.complete_through, new Date().toISOString().slice(0, 10));
      } finally {
        replay.intercept = undefined;
        server.child.kill('SIGTERM');
        await new Promise((resolve) => server.child.once('exit', resolve));
      }
    });
  });
});
