import type { SqlDialect } from '../resolve/dialect.js';

/** One observation in CONTRACT §1 form: 1 unit of the source's relative currency buys `rate` units of `symbol`. */
export interface Observation {
  source: string;
  symbol: string;
  /** UTC, millisecond precision. */
  observationTime: Date;
  rate: number;
}

/** What a write did: rows new or changed, and rows equal to what was stored already. */
export interface WriteCounts {
  stored: number;
  unchanged: number;
}

/** What the store holds per source, for the currencies and sources endpoints and for validation. */
export interface SourceHoldings {
  /** Every symbol the source has observed, A-Z. */
  symbols: readonly string[];
  /** UTC date of the first observation, or null when there is none. */
  firstDate: string | null;
  lastDate: string | null;
  observations: number;
}

export type Catalog = ReadonlyMap<string, SourceHoldings>;

export type SqlValue = string | number | boolean | null;

export interface QueryResultSet {
  columns: string[];
  rows: SqlValue[][];
  /** Why the rows stop early: the statement had more rows, or more bytes, than allowed. */
  cut: 'rows' | 'bytes' | null;
}

export interface SandboxLimits {
  /** When the statement must have answered (epoch milliseconds); it is stopped then. */
  deadline: number;
  maxRows: number;
  /** Bytes of values returned at most. */
  maxBytes: number;
}

/** Raised by `runSandboxed` for statements the sandbox refuses or cannot run (HTTP 400). */
export class SandboxRejection extends Error {}
/** Raised by `runSandboxed` when a statement is stopped at the time limit (HTTP 503). */
export class SandboxTimeout extends Error {}
/** Raised by `runSandboxed` when the sandbox itself failed or is restarting (HTTP 503). */
export class SandboxUnavailable extends Error {}

/** How ingestion of one source last went (the status endpoint shows it). */
export interface IngestState {
  source: string;
  lastAttempt: Date | null;
  lastSuccess: Date | null;
  /** Why the last attempt failed, or null when it succeeded. */
  lastError: string | null;
  /**
   * Every request up to this date succeeded in one run with no gap before it; incremental runs
   * start from here at the latest.
   */
  completeThrough: string | null;
  /** Observations the last attempt added or changed. */
  lastRunStored: number;
  /** Values and codes the last attempt refused (not positive numbers, not currencies). */
  lastRunDropped: number;
}

/**
 * Everything the service needs from a database. Routes and the query builder use only this,
 * so that another engine is one more implementation of this interface.
 */
export interface Store {
  readonly dialect: SqlDialect;
  /** Grows with every change to the observations; part of every ETag. */
  dataVersion(): Promise<number>;
  /** What each registered source holds; cached until the data changes. */
  catalog(): Promise<Catalog>;
  /**
   * Runs a statement built by the service and yields its rows in batches. DATE values come back
   * as YYYY-MM-DD text and TIMESTAMP values as YYYY-MM-DDTHH:mm:ss.sssZ (UTC), here and in
   * `runSandboxed`, so that both show the same rows.
   */
  streamRows(sql: string): AsyncIterable<SqlValue[][]>;
  /**
   * Runs untrusted SQL under the sandbox of CONTRACT §7: outside the serving process, on the
   * tables observations and sources only, stopped from outside at `limits.deadline`. Callers
   * run at most `sandboxCapacity` statements at once.
   */
  runSandboxed(sql: string, limits: SandboxLimits): Promise<QueryResultSet>;
  readonly sandboxCapacity: number;
  /** Gets the sandbox ready now (a service does this at start), so first queries do not wait. */
  startSandbox(): Promise<void>;
  /**
   * Stores a batch in one transaction: all of it or, on any error, none of it. Rows with the
   * same source, symbol and observation time replace the stored ones (later rows of the batch win).
   * Returns how many rows were new or changed; when none were, the data version stays.
   */
  writeObservations(observations: readonly Observation[]): Promise<number>;
  /**
   * Stores every batch in one transaction (an import file: all of it or nothing), taking the
   * batches one at a time so that memory stays flat however many there are.
   */
  importObservations(
    batches: AsyncIterable<readonly Observation[]> | Iterable<readonly Observation[]>,
  ): Promise<WriteCounts>;
  /** Ingestion state of every source that has been attempted. */
  ingestStates(): Promise<Map<string, IngestState>>;
  saveIngestState(state: IngestState): Promise<void>;
  close(): Promise<void>;
}
