/**
 * Several `fxrates serve` processes on one PostgreSQL database, as the scale-out mode runs them:
 * exactly one ingests; when it is killed in the middle of a backfill another takes over and
 * resumes, nothing is lost or stored twice, and every replica answers with the same bytes.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ingestSource } from '../src/ingest/ingest-source.js';
import { findSource } from '../src/sources/registry.js';
import { startServer, type RunningServer } from './support/cli.js';
import { startService, type TestService } from './support/harness.js';
import { postgresCluster, skipWithoutPostgres } from './support/postgres-cluster.js';
import { skipWithoutRecordings } from './support/publisher-replay.js';
import { ReplayServer } from './support/replay-server.js';

const RECORDINGS = ['cnb.yml', 'ecb_historical.yml'];
const ECB_RECORDED = '/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2025-01-01';
const skip = skipWithoutPostgres() || skipWithoutRecordings(RECORDINGS);

/**
 * A publisher pair whose backfill takes a few seconds: the CNB serves a file per year since 1991
 * (the recorded 2026 one, empty years before it), the ECB its recorded history whatever the start.
 */
async function slowPublishers(): Promise<ReplayServer> {
  const replay = await ReplayServer.start(RECORDINGS);
  const ecb = replay.recorded(ECB_RECORDED);
  replay.delayMs = 150;
  replay.intercept = (target) => {
    if (target.startsWith('/service/data/EXR/')) return ecb;
    const year = /daily-year\?lang=EN&year=(\d+)$/.exec(target)?.[1];
    if (year && year !== '2026') {
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"rates":[]}'),
      };
    }
    return undefined;
  };
  return replay;
}

async function json(server: RunningServer, path: string): Promise<any> {
  const response = await fetch(`${server.baseUrl}${path}`);
  return response.json();
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('replicas on one PostgreSQL database', { skip }, () => {
  const servers: RunningServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('one ingests; killed mid-backfill, another resumes; nothing lost or doubled; identical answers', async () => {
    const cluster = await postgresCluster();
    const url = await cluster.createDatabase();
    cleanups.push(() => cluster.dropDatabase(url));
    const replay = await slowPublishers();
    cleanups.push(() => replay.close());
    const env = {
      FXRATES_DB: url,
      FXRATES_INGEST_SOURCES: 'ecb,cnb',
      FXRATES_LEASE_RETRY_MS: '500',
      FXRATES_POLITENESS_MS: '0',
      FXRATES_HTTP_RETRIES: '0',
      ...replay.env(['ecb', 'cnb']),
    };
    servers.push(...(await Promise.all([0, 1, 2].map(() => startServer([], env)))));

    const roles = async () =>
      Promise.all(servers.map((server) => json(server, '/v1/exchangerate/status')));
    // Exactly one replica ingests, and every replica names it.
    const first = await waitFor('an ingesting replica', async () => {
      const statuses = await roles();
      const ingesting = statuses.filter((s) => s.role === 'ingesting');
      return ingesting.length === 1 && statuses.every((s) => s.ingest_lease_holder)
        ? statuses
        : undefined;
    });
    const holder = first.findIndex((s) => s.role === 'ingesting');
    assert.deepEqual(
      first.map((s) => s.ingest_lease_holder),
      first.map(() => first[holder].ingest_lease_holder),
    );
    assert.equal(
      first[holder].ingest_lease_holder.split(':').pop(),
      String(servers[holder]!.child.pid),
    );

    // Kill it once the CNB backfill is part way through its years.
    await waitFor('a CNB backfill under way', async () => {
      const cnb = (await json(servers[0]!, '/v1/exchangerate/status')).sources.find(
        (s: any) => s.source === 'cnb',
      );
      return cnb.complete_through && cnb.complete_through < '2020-01-01' ? cnb : undefined;
    });
    const killedAt = Date.now();
    servers[holder]!.child.kill('SIGKILL');
    const survivors = servers.filter((_, index) => index !== holder);
    const next = await waitFor('another replica to take over', async () => {
      const statuses = await Promise.all(survivors.map((s) => json(s, '/v1/exchangerate/status')));
      const index = statuses.findIndex((s) => s.role === 'ingesting');
      return index >= 0 ? survivors[index] : undefined;
    });
    assert.ok(Date.now() - killedAt < 60_000, 'taken over within a minute');
    // A third replica again, as a supervisor would restart it.
    servers[holder] = await startServer([], env);

    const done = await waitFor('both publishers ingested', async () => {
      const status = await json(next, '/v1/exchangerate/status');
      const rows = status.sources.filter((s: any) => ['ecb', 'cnb'].includes(s.source));
      return rows.every((s: any) => s.state === 'ok' && s.complete_through >= '2026-01-01')
        ? rows
        : undefined;
    });
    assert.deepEqual(Object.fromEntries(done.map((s: any) => [s.source, s.observations])), {
      ecb: 8067,
      cnb: 1950,
    });

    // The same data as one process ingesting without interruption.
    const today = () => new Date().toISOString().slice(0, 10);
    const single: TestService = await startService({ today }, { engine: 'postgres' });
    cleanups.push(() => single.close());
    const alone = await slowPublishers();
    alone.delayMs = 0;
    cleanups.push(() => alone.close());
    for (const key of ['ecb', 'cnb']) {
      await ingestSource(single.store, findSource(key)!, {
        env: alone.env(['ecb', 'cnb']),
        http: { politenessMs: 0, retries: 0 },
      });
    }
    const everything = '/v1/exchangerate/all?sources=ecb,cnb&format=csv&decimals=20';
    const expected = (await single.app.inject(everything)).body;

    // Every replica answers every request with the same bytes and ETag, once the version has spread.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const requests = [
      everything,
      '/v1/exchangerate/2026-03-18?sources=cnb,ecb&base=USD',
      '/v1/exchangerate/2026-01-02/2026-03-18?sources=ecb,cnb&aggregation=month&format=xml',
      '/v1/exchangerate/currencies?sources=ecb,cnb',
    ];
    for (const path of requests) {
      const answers = await Promise.all(
        servers.map(async (server) => {
          const response = await fetch(`${server.baseUrl}${path}`);
          return { body: await response.text(), etag: response.headers.get('etag') };
        }),
      );
      for (const answer of answers) assert.deepEqual(answer, answers[0], path);
      if (path === everything) assert.equal(answers[0]!.body, expected, 'same rows as one process');
    }
  });
});
