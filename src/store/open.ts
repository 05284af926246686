/**
 * The one place that knows which engines exist: a location is a database file (the embedded
 * DuckDB store, the default) or a postgres:// URL (the shared PostgreSQL store). The server, the
 * commands, the tests and the benchmarks all open their store here.
 */
import type { Store, StoreOptions } from './store.js';

export interface OpenOptions extends StoreOptions {
  /** PostgreSQL: a URL that logs in as the query role (FXRATES_QUERY_DB). */
  queryUrl?: string;
  /** PostgreSQL: how often a replica looks for other replicas' writes, in milliseconds. */
  versionPollMs?: number;
  /** PostgreSQL: how often a replica that does not ingest tries to take the ingest lease. */
  leaseRetryMs?: number;
  /** PostgreSQL: how long an unanswered version poll waits before the network counts as silent. */
  silenceMs?: number;
  /** DuckDB: rows stored out of time order that make the table be rewritten in order, at least. */
  reclusterRows?: number;
}

/** True for a location the PostgreSQL store takes. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** A URL as messages show it: its password hidden (an unreadable one shows its scheme only). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return `${/^[^:]*/.exec(url)![0]}://…`;
  }
}

/** Opens (creating and migrating on first use) the store at `location`. */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return PostgresStore.open({ ...options, url: location });
  }
  const { DuckDBStore } = await import('./duckdb/duckdb-store.js');
  return DuckDBStore.open({ ...options, path: location });
}
