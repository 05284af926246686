import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { serveLoggerOptions } from '../src/logging.js';
import { openServiceStore } from '../src/service-store.js';
import { SOURCES, findSource } from '../src/sources/registry.js';
import type { Store } from '../src/store/store.js';
import { startServer, stopServer } from './support/cli.js';
import { damagedDuckDB } from './support/damaged-duckdb.js';

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('fxrates serve logs for people', () => {
  let dir: string;
  let offline: Record<string, string>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-logs-'));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    offline = Object.fromEntries(
      SOURCES.map((source) => [`FXRATES_ORIGIN_${source.key.toUpperCase()}`, origin]),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('offline first start, readable lines: where the database is, ingestion started, one line for all unreachable publishers, no warnings', async () => {
    const server = await startServer(['--db', join(dir, 'offline.duckdb')], {
      ...offline,
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
      // Every publisher at once, each retrying once: many waits on the service's one signal.
      FXRATES_INGEST_CONCURRENCY: '100',
      FXRATES_HTTP_RETRIES: '1',
      FXRATES_POLITENESS_MS: '0',
      FXRATES_HTTP_TIMEOUT_MS: '5000',
      FRED_API_KEY: '',
    });
    try {
      await waitFor('the report of unreachable publishers with the next attempt', () =>
        /publishers unreachable .*next attempt at/.test(server.output()) ? true : undefined,
      );
      await fetch(`${server.baseUrl}/v1/currencies`);
      const status = (await (
        await fetch(`${server.baseUrl}/v1/exchangerate/status`)
      ).json()) as any;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const lines = server.output().trimEnd().split('\n');
      for (const line of lines) assert.match(line, /^\[\d{2}:\d{2}:\d{2}\] [A-Z]+: /, line);
      assert.ok(
        lines.some((line) =>
          line.includes(`INFO: database DuckDB ${join(dir, 'offline.duckdb')}: empty`),
        ),
      );
      assert.ok(
        lines.some((line) => line.includes(`INFO: ingestion started: ${SOURCES.length} sources`)),
      );
      const keyed = SOURCES.filter((source) => source.apiKey?.variables);
      // Said once as a warning (early, while the requests are retried, or when the runs end),
      // and when the runs end with the time of the next attempt.
      const unreachable = lines.filter((line) => /publishers unreachable/.test(line));
      assert.equal(
        unreachable.filter((line) => line.includes('WARN:')).length,
        1,
        unreachable.join('\n'),
      );
      assert.ok(unreachable.length <= 2, unreachable.join('\n'));
      assert.match(
        unreachable.at(-1)!,
        new RegExp(
          `(WARN|INFO): ${SOURCES.length - keyed.length} publishers unreachable \\(ECONNREFUSED\\): is this machine offline\\? next attempt at \\d{2}:\\d{2} UTC \\(in (\\d+ min|under a minute)\\)`,
        ),
      );
      assert.deepEqual(
        lines.filter((line) => /ingest \w+ failed/.test(line)),
        [],
      );
      assert.ok(lines.some((line) => /INFO: \d+ sources are idle: .*\(set \w+_API_KEY/.test(line)));
      assert.doesNotMatch(server.output(), /Warning|\(node:\d+\)/);
      // Requests are logged at debug only.
      assert.doesNotMatch(server.output(), /request completed|incoming request/);
      // The status endpoint says when each source runs next.
      for (const row of status.sources) {
        if (row.state === 'running') continue;
        assert.match(row.next_attempt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, row.source);
        assert.ok(Date.parse(row.next_attempt) > Date.now() - 60_000, row.source);
        if (!findSource(row.source)?.apiKey?.variables) assert.equal(row.state, 'failing');
      }
    } finally {
      await stopServer(server);
    }
  });

  test('not on a terminal: JSON lines; LOG_LEVEL=debug adds the request lines; no next attempt without ingestion', async () => {
    const server = await startServer(['--db', join(dir, 'json.duckdb'), '--no-ingest'], {
      LOG_LEVEL: 'debug',
    });
    try {
      const status = (await (
        await fetch(`${server.baseUrl}/v1/exchangerate/status`)
      ).json()) as any;
      assert.ok(status.sources.every((row: any) => row.next_attempt === null));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const entries = server
        .output()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      assert.ok(entries.some((entry) => /^database DuckDB .*: empty/.test(entry.msg)));
      const completed = entries.find((entry) => entry.msg === 'request completed');
      assert.equal(completed?.level, 20);
    } finally {
      await stopServer(server);
    }
  });
});

describe('a range answer cut after its headers', () => {
  let dir: string;
  let store: Store;
  let app: FastifyInstance;
  let baseUrl: string;
  const lines: { level: number; msg: string }[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-cut-'));
    const path = join(dir, 'damaged.duckdb');
    // Its catalog and its dates from 2030 on read cleanly; its older dates fail.
    await damagedDuckDB(path, { writes: 2, block: 4 });
    store = await openServiceStore(path);
    app = await buildApp({
      store,
      logger: {
        ...serveLoggerOptions('info', 'json'),
        stream: { write: (line: string) => lines.push(JSON.parse(line)) },
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const encoding of ['identity', 'gzip']) {
    test(`${encoding}: 200, then the connection ends early; one error line says which answer and why, at the default level`, async () => {
      // Every symbol: streamed (a short range is read before its head, see below).
      const url = '/v1/exchangerate/2000-01-03/2054-10-05';
      const before = lines.length;
      const response = await fetch(`${baseUrl}${url}`, {
        headers: { 'accept-encoding': encoding },
      });
      assert.equal(response.status, 200);
      await assert.rejects(response.text(), /terminated/);
      await waitFor('the error line', () => (lines.length > before ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const logged = lines.slice(before);
      assert.deepEqual(
        logged.map((line) => line.level),
        [50],
        logged.map((line) => line.msg).join('\n'),
      );
      assert.match(
        logged[0]!.msg,
        new RegExp(
          `^GET ${url.replace(/[?]/g, '\\$&')}: the answer was cut after its headers were sent: IO Error: Corrupt database file`,
        ),
      );
    });
  }

  test('a short range whose statement fails is read before its head: a 500, and one error line', async () => {
    const url = '/v1/exchangerate/2000-01-03/2000-12-31?symbols=JPY';
    const before = lines.length;
    const response = await fetch(`${baseUrl}${url}`);
    assert.equal(response.status, 500);
    assert.deepEqual(await response.json(), { status: 'error', error: 'internal error' });
    await waitFor('the error line', () => (lines.length > before ? true : undefined));
    const logged = lines.slice(before);
    assert.deepEqual(
      logged.map((line) => line.level),
      [50],
    );
    assert.match(JSON.stringify(logged[0]), /Corrupt database file/);
  });

  test('the service answers on, from the dates that read cleanly', async () => {
    const response = await fetch(`${baseUrl}/v1/exchangerate/2040-01-01/2040-01-06?symbols=JPY`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { base: string; rates: Record<string, unknown> };
    assert.equal(body.base, 'USD');
    // Every day holds rates in this file; a range lists its dates newest first.
    assert.deepEqual(Object.keys(body.rates), [
      '2040-01-06',
      '2040-01-05',
      '2040-01-04',
      '2040-01-03',
      '2040-01-02',
      '2040-01-01',
    ]);
  });
});
