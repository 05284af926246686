import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { DuckDBStore, type DuckDBStoreOptions } from '../../src/store/duckdb/duckdb-store.js';
import type { Observation, SqlValue, Store } from '../../src/store/store.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = resolve(REPO_ROOT, '..', 'shared', 'fixtures');
export const ECB_HISTORY = join(FIXTURES, 'history', 'eurofxref-hist.csv');

/** The `skip` option of tests that read ../shared/fixtures: a reason when the folder is absent. */
export function skipWithoutFixtures(path: string = FIXTURES): string | false {
  return existsSync(path)
    ? false
    : `fixtures not found at ${path} (the shared folder beside the checkout)`;
}

export interface TestService {
  store: DuckDBStore;
  app: FastifyInstance;
  dir: string;
  close(): Promise<void>;
}

/** A real DuckDB file in a fresh temporary folder, behind the real app. */
export async function startService(
  options: Partial<AppOptions> = {},
  storeOptions: Omit<DuckDBStoreOptions, 'path'> = {},
): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-test-'));
  const store = await DuckDBStore.open({ path: join(dir, 'test.duckdb'), ...storeOptions });
  const app = await buildApp({ store, today: () => '2024-03-20', ...options });
  return {
    store,
    app,
    dir,
    async close() {
      await app.close();
      await store.close();
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
