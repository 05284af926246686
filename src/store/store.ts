/**
 * The store seam: what the service needs from a database, and what differs between SQL engines
 * in the statements the service builds. Each engine lives in `store/<engine>/` with the same
 * files; `open.ts` is the one place that knows which engines exist.
 */

/** Periods of the range endpoint's `aggregation` (CONTRACT §4), `day` aside. */
export type PeriodUnit =
  'week' | 'month' | 'quarter' | 'year' | 'decade' | 'century' | 'millennium';

/**
 * The observations as a statement reads them: `from` is the FROM clause over `observations AS o`
 * (with what it joins), `priority` the priority of a row of it (its source's place in the request).
 */
export interface ObservationRows {
  from: string;
  priority: string;
}

/** What differs between SQL engines in the rate query; each store driver supplies one. */
export interface SqlDialect {
  /** The first day of the `unit` period containing the DATE expression `date`, as a DATE. */
  periodStart(unit: PeriodUnit, date: string): string;
  /**
   * The value of `value` on the row with the smallest (`min`) or largest (`max`) `order`, per
   * group, among the rows that meet `where` (all without it; NULL when none does).
   */
  valueAtExtreme(extreme: 'min' | 'max', value: string, order: string, where?: string): string;
  /**
   * A SELECT of each source's first (`min`) or last (`max`) observation of each symbol per UTC
   * day, among the `observations` that meet `where`: the columns priority (the source's), symbol,
   * day (a DATE), rate and observation_time. (source, symbol, observation_time) is unique.
   */
  extremeOfEachDay(extreme: 'min' | 'max', where: string, observations: ObservationRows): string;
  /**
   * An aggregate over rows of `observations AS o`: `value` on the row of the group's latest UTC
   * day, and of that day's first (`min`) or last (`max`) observation_time.
   */
  valueOfLatestDay(extreme: 'min' | 'max', value: string): string;
  /**
   * A filter on a scan of the observations: `column` equals one of `values` (SQL literals, at
   * least one).
   */
  oneOf(column: string, values: string): string;
  /**
   * Of the rows of `from` (FROM and JOIN clauses), each group's row with the smallest `order`
   * (unique within a group, never NULL): a SELECT of `columns`, each `[expression, name]`, the
   * groups' expressions and `order` among them. A group descending is the direction the
   * statement's answer lists it in, which an engine that sorts to find the rows can follow.
   */
  firstOfEachGroup(
    columns: readonly (readonly [expression: string, name: string])[],
    from: string,
    groups: readonly { expression: string; descending?: boolean }[],
    order: string,
  ): string;
  /**
   * Over rows with one row per series (the `series` columns) and `day`: the day before the
   * same series' next day, or `otherwise` on a series' last row, as an expression over the
   * window `w` and that window's definition.
   */
  dayBeforeNextOfSeries(
    series: readonly string[],
    otherwise: string,
  ): { expression: string; window: string };
  /** The one of `values` (SQL literals, at least one) at the 0-based integer `index`. */
  item(values: string, index: string): string;
  /** A select-list expression that turns each row into one row per DATE from `from` to `to`. */
  daysFrom(from: string, to: string): string;
  /** The constant 1 as the type rates are stored in. */
  readonly one: string;
  /**
   * Observations from which a range's statement over every symbol sorts only the series that
   * miss a day (RateQuery.manyPairs): the estimated rows its legs read (the observations of the
   * days it covers). Below it the steps that spare the sort cost the engine more than the sort.
   */
  readonly manyPairsFrom: number;
}

/** A registered publisher as the store's `sources` table holds it. */
export interface SourceRow {
  key: string;
  name: string;
  relativeCurrency: string;
  url: string;
  isDst: boolean;
  /** Position in the default priority order, from 0. */
  defaultPrecedence: number;
}

/**
 * The right to ingest. With an embedded file it is always held (one process per file); with a
 * shared database exactly one replica holds it at a time, and another takes it over when the
 * holder dies.
 */
export interface IngestLease {
  /** True while this process holds the lease. */
  held(): boolean;
  /** Waits until this process holds the lease, or `signal` aborts (then it rejects). */
  acquire(signal: AbortSignal): Promise<void>;
  /** Who holds the lease now (host and pid), or null when nobody does. */
  holder(): Promise<string | null>;
  release(): Promise<void>;
}

/** Settings every engine understands; each takes what applies to it. */
export interface StoreOptions {
  /** Memory the engine may use in this process, e.g. '1GB' (embedded engines). */
  memoryLimit?: string;
  /** Engine threads (embedded engines); by default one fewer than the cores, at least one. */
  threads?: number;
  /** How the query sandbox runs. */
  sandbox?: Partial<SandboxSettings>;
  /**
   * Called when the engine reports the database unusable in this process: the service then
   * exits, so that a supervisor restarts it.
   */
  onFatal?: (error: Error) => void;
  /** Where the store reports what an operator should know (a sandbox it cannot isolate). */
  warn?: (message: string) => void;
  /** This process, as the status endpoint names the ingesting replica: host and pid. */
  replicaName?: string;
  /**
   * Read the database as it is (a copy's source): never create, migrate or write it. Opening
   * fails in one line when it does not exist or holds no up-to-date fxrates database.
   */
  readOnly?: boolean;
}

/** How the query sandbox runs. */
export interface SandboxSettings {
  /** Statements running at once. */
  workers: number;
  /** Memory a sandbox process may allocate, in bytes (embedded engines). */
  memoryBytes: number;
  /** CPU seconds a sandbox process may use before it is replaced (embedded engines). */
  cpuSeconds: number;
  /** Writes within this time are folded into one refresh of the sandbox's snapshot. */
  snapshotDelayMs: number;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  workers: 2,
  memoryBytes: 1024 ** 3,
  cpuSeconds: 600,
  snapshotDelayMs: 5_000,
};

export const DEFAULT_MEMORY_LIMIT = '1GB';

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
  /** `added` + `changed`. */
  stored: number;
  /** Rows for a source, symbol and time that had none. */
  added: number;
  /** Rows whose rate replaced a different stored one. */
  changed: number;
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
  /**
   * Whether the source never observed a symbol twice on one day, as far as the store tells
   * (false where it does not): a statement then reads its observations as the legs of their
   * days, with no step per day. See `sharedDaysSince` for a write after the catalog was read.
   */
  oneObservationPerDay: boolean;
}

export type Catalog = ReadonlyMap<string, SourceHoldings>;

export type SqlValue = string | number | boolean | null;

/** Rows of a result column by column: `columns[c][r]` is the value of column c in row r. */
export interface ColumnBatch {
  rowCount: number;
  columns: SqlValue[][];
}

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

/**
 * A store opened read-only is never migrated: it must hold all `total` schema steps. None
 * applied is no fxrates database; fewer, one to open once with serve or ingest first.
 */
export function assertCurrentSchema(description: string, applied: number, total: number): void {
  if (applied === 0) throw new Error(`${description} holds no fxrates database`);
  assertNotNewerSchema(description, applied, total);
  if (applied < total) {
    throw new Error(
      `${description} holds an fxrates database of an older schema (${applied} of ${total} steps); open it once with fxrates serve or ingest to migrate it`,
    );
  }
}

/**
 * Refuses a database a newer fxrates has migrated: this one would read and write tables whose
 * shape it does not know (a replica left running through a rolling upgrade, a downgrade).
 */
export function assertNotNewerSchema(description: string, applied: number, total: number): void {
  if (applied > total) {
    throw new Error(
      `${description} holds an fxrates database of a newer schema (${applied} steps; this fxrates knows ${total}): run the fxrates version that wrote it, or a newer one`,
    );
  }
}

/**
 * A statement stopped at the engine's memory limit, reached by the statements of other answers
 * holding their rows until their clients have read them. Raised before its first rows, the same
 * statement can run once they have given memory back.
 */
export class EngineOutOfMemory extends Error {}

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
  /** The engine's name and where its data is, for logs (no password). */
  readonly description: string;
  readonly dialect: SqlDialect;
  /**
   * Mirrors the registered publishers into the `sources` table (the query endpoint reads it)
   * and makes the catalog list each of them. The service calls it once after opening.
   */
  syncSources(sources: readonly SourceRow[]): Promise<void>;
  /** The right to ingest (see IngestLease). */
  readonly ingestLease: IngestLease;
  /**
   * Grows with every change to the observations; part of every ETag. With a shared database it
   * follows the other replicas' writes within a few seconds. Known without asking the database
   * (a shared one is polled), so that a cached answer can be checked at the socket.
   */
  dataVersion(): number;
  /**
   * What the query sandbox reads now, for the query endpoint's ETag: the data version where it
   * reads the data itself, the snapshot it reads where that is a copy made a few seconds later.
   */
  sandboxDataVersion(): Promise<string | number>;
  /** What each registered source holds; cached until the data changes. */
  catalog(): Promise<Catalog>;
  /**
   * Whether a source that `catalog` lists with one observation a day may have stored a second
   * one on some day since (true where the store cannot tell). Asked once a statement planned on
   * `catalog` has started: the data it reads is then no newer than the store's answer.
   */
  sharedDaysSince(catalog: Catalog): boolean;
  /**
   * Runs a statement built by the service and yields its rows in batches. DATE values come back
   * as YYYY-MM-DD text and TIMESTAMP values as YYYY-MM-DDTHH:mm:ss.sssZ (UTC), here and in
   * `runSandboxed`, so that both show the same rows.
   */
  streamRows(sql: string): AsyncIterable<SqlValue[][]>;
  /** The same as `streamRows`, column by column: no array per row, for long answers. */
  streamColumns(sql: string): AsyncIterable<ColumnBatch>;
  /**
   * The same columns as `streamColumns`, the whole result at once, for statements with a short
   * answer (one date): the engine is asked once, with no round trips for a stream.
   */
  readColumns(sql: string): Promise<ColumnBatch[]>;
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
