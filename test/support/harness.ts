import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { addDays } from '../../src/dates.js';
import { openServiceStore } from '../../src/service-store.js';
import type { OpenOptions } from '../../src/store/open.js';
import type { Observation, SqlValue, Store } from '../../src/store/store.js';
import { postgresCluster, skipWithoutPostgres } from './postgres-cluster.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = resolve(REPO_ROOT, '..', 'shared', 'fixtures');
export const ECB_HISTORY = join(FIXTURES, 'history', 'eurofxref-hist.csv');

/** The `skip` option of tests that read ../shared/fixtures: a reason when the folder is absent. */
export function skipWithoutFixtures(path: string = FIXTURES): string | false {
  return existsSync(path)
    ? false
    : `fixtures not found at ${path} (the shared folder beside the checkout)`;
}

/** The engines every store-facing suite runs on. */
export type Engine = 'duckdb' | 'postgres';
export const ENGINES: readonly Engine[] = ['duckdb', 'postgres'];

/**
 * Runs `body` once per engine, each in a describe block named for it; an engine that cannot
 * run here is skipped with the reason (FXRATES_TEST_ENGINES=duckdb picks engines by name).
 */
export function forEachEngine(body: (engine: Engine) => void): void {
  const chosen = process.env.FXRATES_TEST_ENGINES?.split(',').map((name) => name.trim());
  for (const engine of ENGINES) {
    const skip =
      chosen && !chosen.includes(engine)
        ? `not in FXRATES_TEST_ENGINES`
        : engine === 'postgres'
          ? skipWithoutPostgres()
          : false;
    describe(`on ${engine}`, { skip }, () => body(engine));
  }
}

/** A fresh, empty database of `engine`: its location (a file path or a postgres:// URL). */
export async function freshDatabase(
  engine: Engine,
): Promise<{ location: string; dispose: () => Promise<void> }> {
  if (engine === 'postgres') {
    const cluster = await postgresCluster();
    const location = await cluster.createDatabase();
    return { location, dispose: () => cluster.dropDatabase(location) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-test-'));
  return {
    location: join(dir, 'test.duckdb'),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestService {
  store: Store;
  app: FastifyInstance;
  /** A folder of the test's own, removed at close. */
  dir: string;
  /** Where the store is: a file path or a postgres:// URL. */
  location: string;
  close(): Promise<void>;
}

/** A real store (a DuckDB file by default) in a fresh database, behind the real app. */
export async function startService(
  options: Partial<AppOptions> = {},
  storeOptions: OpenOptions & { engine?: Engine } = {},
): Promise<TestService> {
  const { engine = 'duckdb', ...open } = storeOptions;
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-test-'));
  const database = await freshDatabase(engine);
  const store = await openServiceStore(database.location, { versionPollMs: 200, ...open });
  const app = await buildApp({ store, today: () => '2024-03-20', ...options });
  return {
    store,
    app,
    dir,
    location: database.location,
    async close() {
      await app.close();
      await store.close();
      await database.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every row of a statement, read through the store itself (not the query sandbox). */
export async function readRows(store: Store, sql: string): Promise<SqlValue[][]> {
  const rows: SqlValue[][] = [];
  for await (const batch of store.streamRows(sql)) rows.push(...batch);
  return rows;
}

export function observation(
  source: string,
  symbol: string,
  time: string,
  rate: number,
): Observation {
  return { source, symbol, observationTime: new Date(time), rate };
}

/** `count` made-up currency codes: AAX, BAX, ... ZAX, ABX, ... */
export function madeUpSymbols(count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    String.fromCharCode(65 + (index % 26), 65 + Math.floor(index / 26), 88),
  );
}

/**
 * `count` made-up currencies of one EUR-relative source (ecb) and USD (the default base, without
 * which no rate can be given), each with a rate on each of `days` days from `from`.
 */
export function dailyObservations(count: number, days: number, from: string): Observation[] {
  const rows: Observation[] = [];
  for (let day = 0; day < days; day++) {
    const date = addDays(from, day);
    for (const [index, symbol] of madeUpSymbols(count).entries())
      rows.push(observation('ecb', symbol, `${date}T15:00:00Z`, 1 + index / 7 + day / 9_999));
    rows.push(observation('ecb', 'USD', `${date}T15:00:00Z`, 1.1 + day / 99_999));
  }
  return rows;
}

export async function getJson(
  app: FastifyInstance,
  url: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const response = await app.inject({ method: 'GET', url });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: JSON.parse(response.body),
  };
}
