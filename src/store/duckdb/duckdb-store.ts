import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  DuckDBInstance,
  DuckDBTimestampValue,
  type DuckDBConnection,
  type DuckDBDataChunk,
} from '@duckdb/node-api';
import { utcDateOf } from '../../dates.js';
import { stringLiteral } from '../../resolve/sql-literal.js';
import {
  DEFAULT_MEMORY_LIMIT,
  DEFAULT_SANDBOX_SETTINGS,
  EngineOutOfMemory,
  assertCurrentSchema,
  assertNotNewerSchema,
  type Catalog,
  type ColumnBatch,
  type IngestLease,
  type IngestState,
  type Observation,
  type QueryResultSet,
  type SandboxLimits,
  type SandboxSettings,
  type SourceRow,
  type SqlDialect,
  type SqlValue,
  type Store,
  type StoreOptions,
  type WriteCounts,
} from '../store.js';
import { duckdbDialect, duckdbDialectByText, seriesKeysCollide } from './dialect.js';
import { assertReadOnlySelect } from '../sql-guard.js';
import { CatalogCache, catalogOf } from '../catalog.js';
import { MIGRATIONS, OBSERVATIONS_BY_TIME } from './migrations.js';
import { DuckDBSandbox } from './sandbox.js';
import { SnapshotWriter } from './snapshot.js';
import { streamFailed, throwStreamFailure } from './streams.js';
import {
  chunkColumns,
  chunkRows,
  instantOf,
  knownTypes,
  valueReader,
  type KnownTypes,
  type ValueReader,
} from './values.js';

export interface DuckDBStoreOptions extends StoreOptions {
  /** Database file; created with its directory when missing. ':memory:' for a throwaway store. */
  path: string;
  /**
   * Rows stored before older ones (out of time order) that make the table be rewritten in time
   * order, at least; a quarter of the table when that is more.
   */
  reclusterRows?: number;
}

/** One process per file: the lease is always this process's. */
const SOLE_PROCESS: IngestLease = {
  held: () => true,
  acquire: async () => undefined,
  holder: async () => null,
  release: async () => undefined,
};

/** Texts the reader of statements read whole holds at most before a new one replaces it. */
const MOST_KEPT_TEXTS = 4096;

/** Read connections kept open between statements at most. */
const MAX_IDLE_READERS = 8;

/** DuckDB reports these when a database can no longer be used by this process. */
const FATAL = /FATAL Error|database has been invalidated/i;
const OUT_OF_MEMORY = /^Out of Memory Error/;

/**
 * Optimizer passes the engine skips. Each costs more in planning than it saves on fxrates'
 * statements, which join few, small, hand-ordered steps; for a one-date answer planning is about
 * half the engine's time. Measured on the ECB history, the same statements interleaved with and
 * without them skipped (medians, base JPY): one date 2.23 to 2.03 ms, one date of two symbols in
 * USD 2.66 to 2.28, a one-year range 11.0 to 10.6, five years by month 34.4 to 28.9, the whole
 * history of two symbols 21.0 to 19.8; a window of /all the same within noise. Skipping the
 * expression rewriter or common subexpressions as well made the one date faster still but the
 * long statements 20-60% slower. Results do not depend on it: an optimizer pass only chooses a
 * plan.
 */
const SKIPPED_OPTIMIZERS = 'statistics_propagation,join_order,common_subplan';

/**
 * The embedded store. Untrusted SQL never runs in this process (see sandbox.ts); the instance
 * is locked down all the same: no file access but the sandbox snapshots' folder, no network,
 * no extension loading, configuration frozen, memory capped. Writes go through one
 * connection, one batch at a time; reads each get their own connection.
 */
export class DuckDBStore implements Store {
  /**
   * Range windows sort series by their hash, unless two series held share one (as the last
   * catalog read found): then by their texts.
   */
  get dialect(): SqlDialect {
    return this.seriesHashesCollide ? duckdbDialectByText : duckdbDialect;
  }
  private seriesHashesCollide = false;
  readonly ingestLease = SOLE_PROCESS;
  readonly description: string;
  private sourceKeys: string[] = [];
  private version = 0;
  private readonly catalogCache = new CatalogCache(() => this.guarded(() => this.queryCatalog()));
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** Connections of statements that ran to their end, kept for the next ones. */
  private readonly idleReaders: DuckDBConnection[] = [];
  private closing = false;
  /** Rows in the table, its newest observation time, and rows stored out of time order since it was last in order. */
  private rowCount = 0;
  private newestMicros: bigint | null = null;
  private unordered = 0;
  private snapshots: SnapshotWriter | undefined;
  private sandbox: DuckDBSandbox | undefined;
  private readonly sandboxSettings: SandboxSettings;
  /**
   * Sources that observed some symbol twice on one day (read at open, then kept by each write),
   * and how often a write has added to them: each catalog remembers the count it was read at
   * (see sharedDaysSince).
   */
  private readonly sharedDaySources = new Set<string>();
  private sharedDaysAdded = 0;
  private readonly catalogSharedDaysAdded = new WeakMap<Catalog, number>();
  /** The value reader of statements read whole (see wholeReader). */
  private wholeReads = valueReader();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
    private readonly snapshotDir: string,
    private readonly options: DuckDBStoreOptions,
  ) {
    this.sandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, ...options.sandbox };
    this.description = `DuckDB ${options.path}`;
  }

  static async open(options: DuckDBStoreOptions): Promise<DuckDBStore> {
    let snapshotDir: string;
    if (options.path === ':memory:') {
      snapshotDir = join(mkdtempSync(join(tmpdir(), 'fxrates-')), 'sandbox');
    } else {
      if (options.readOnly) {
        if (!existsSync(options.path)) throw new Error(`DuckDB ${options.path}: no such file`);
      } else {
        folderFor(options.path);
      }
      snapshotDir = `${resolve(options.path)}.sandbox`;
    }
    const config: Record<string, string> = {
      autoload_known_extensions: 'false',
      autoinstall_known_extensions: 'false',
      allow_community_extensions: 'false',
      memory_limit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      disabled_optimizers: SKIPPED_OPTIMIZERS,
    };
    // One core is left to the JavaScript thread, which shapes the rows the engine returns.
    // `fxrates serve` asks for one thread (config.ts, SERVE_THREADS): its statements are too
    // small to share. Statements running at once each still get a thread: the one that runs them.
    config.threads = String(options.threads ?? Math.max(1, availableParallelism() - 1));
    if (options.readOnly) config.access_mode = 'READ_ONLY';
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(options.path, config);
    } catch (error) {
      if (/Could not set lock/i.test(firstLine(error))) {
        throw new Error(
          `database ${options.path} is open in another process (a running fxrates serve?): ` +
            `one process at a time can use it. ${firstLine(error)}`,
        );
      }
      throw error;
    }
    const writer = await instance.connect();
    // The snapshot folder is the one place SQL may still reach once file access is off.
    await writer.run(`SET allowed_directories = [${stringLiteral(`${snapshotDir}/`)}]`);
    await writer.run('SET enable_external_access = false');
    await writer.run('SET lock_configuration = true');
    const store = new DuckDBStore(instance, writer, snapshotDir, options);
    try {
      await (options.readOnly ? store.checkSchema() : store.migrate());
      await store.readTotals();
      await store.readSharedDaySources();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** How many tables the file holds, whether fxrates' meta table is one, and the steps applied. */
  private async schemaState(): Promise<{ tables: number; hasMeta: boolean; applied: number }> {
    const reader = await this.writer.runAndReadAll(
      "SELECT count(*), count(*) FILTER (table_name = 'meta') FROM information_schema.tables",
    );
    const [tables, meta] = reader.getRows()[0]!.map(Number) as [number, number];
    const applied = meta > 0 ? Number((await this.metaValue('schema_version')) ?? 0) : 0;
    return { tables, hasMeta: meta > 0, applied };
  }

  /** Opened read-only, the schema is not migrated: it must be there, up to date. */
  private async checkSchema(): Promise<void> {
    assertCurrentSchema(this.description, (await this.schemaState()).applied, MIGRATIONS.length);
  }

  private async migrate(): Promise<void> {
    const { tables, hasMeta, applied } = await this.schemaState();
    // Another program's database is left as it is: fxrates writes only into a new file or its own.
    if (!hasMeta && tables > 0) {
      throw new Error(`${this.description} holds tables, but no fxrates database`);
    }
    assertNotNewerSchema(this.description, applied, MIGRATIONS.length);
    await this.writer.run(
      'CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL)',
    );
    for (let step = applied; step < MIGRATIONS.length; step++) {
      await this.inTransaction(async () => {
        await this.writer.run(MIGRATIONS[step]!);
        await this.setMeta('schema_version', step + 1);
      });
    }
  }

  /** The data version, rows and newest observation time the store keeps track of. */
  private async readTotals(): Promise<void> {
    this.version = Number((await this.metaValue('data_version')) ?? 0);
    const reader = await this.writer.runAndReadAll(
      'SELECT count(*), epoch_us(max(observation_time)) FROM observations',
    );
    const [rows, newest] = reader.getRows()[0]!;
    this.rowCount = Number(rows);
    this.newestMicros = newest === null ? null : BigInt(newest as bigint);
  }

  /** The sources that observed some symbol twice on one day, as stored (see sharedDaysSince). */
  private async readSharedDaySources(): Promise<void> {
    const reader = await this.writer.runAndReadAll(
      `SELECT DISTINCT source FROM observations
       GROUP BY source, symbol, CAST(observation_time AS DATE) HAVING count(*) > 1`,
    );
    for (const [source] of reader.getRows()) this.sharedDaySources.add(source as string);
  }

  async syncSources(sources: readonly SourceRow[]): Promise<void> {
    this.sourceKeys = sources.map((source) => source.key);
    this.catalogCache.clear();
    await this.serialized(() =>
      this.inTransaction(async () => {
        for (const source of sources) {
          await this.writer.run(`INSERT OR REPLACE INTO sources VALUES ($1, $2, $3, $4, $5, $6)`, [
            source.key,
            source.name,
            source.relativeCurrency,
            source.url,
            source.isDst,
            source.defaultPrecedence,
          ]);
        }
      }),
    );
  }

  private async metaValue(key: string): Promise<bigint | undefined> {
    const reader = await this.writer.runAndReadAll('SELECT value FROM meta WHERE key = $1', [key]);
    return reader.getRows()[0]?.[0] as bigint | undefined;
  }

  private async setMeta(key: string, value: number): Promise<void> {
    await this.writer.run('INSERT OR REPLACE INTO meta VALUES ($1, $2)', [key, BigInt(value)]);
  }

  private async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    await this.writer.run('BEGIN TRANSACTION');
    try {
      const result = await work();
      await this.writer.run('COMMIT');
      return result;
    } catch (error) {
      await this.writer.run('ROLLBACK');
      throw error;
    }
  }

  dataVersion(): number {
    return this.version;
  }

  /**
   * The snapshot the sandbox reads, which follows the data a few seconds behind (made now when
   * there is none yet; when that fails, the statement says why).
   */
  async sandboxDataVersion(): Promise<string> {
    this.querySandbox();
    return this.snapshots!.current().catch(() => 'no snapshot');
  }

  get sandboxCapacity(): number {
    return this.sandboxSettings.workers;
  }

  /**
   * Runs `work`, telling the owner when the engine reports the database unusable; a statement
   * stopped at the memory limit is an EngineOutOfMemory.
   */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Error && FATAL.test(error.message)) this.options.onFatal?.(error);
      if (error instanceof Error && OUT_OF_MEMORY.test(error.message)) {
        throw new EngineOutOfMemory(firstLine(error), { cause: error });
      }
      throw error;
    }
  }

  catalog(): Promise<Catalog> {
    return this.catalogCache.get(this.version);
  }

  sharedDaysSince(catalog: Catalog): boolean {
    return this.catalogSharedDaysAdded.get(catalog) !== this.sharedDaysAdded;
  }

  private async queryCatalog(): Promise<Catalog> {
    // Taken before the read: a write that adds a source to them meanwhile counts as after it.
    const sharedDays = new Set(this.sharedDaySources);
    const sharedDaysAdded = this.sharedDaysAdded;
    const connection = await this.instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `WITH held AS (
           SELECT source, symbol, count(*) AS observations,
             min(observation_time) AS first_time, max(observation_time) AS last_time
           FROM observations GROUP BY source, symbol
         )
         SELECT *, (${seriesKeysCollide('held')}) AS series_keys_collide
         FROM held ORDER BY source, symbol`,
      );
      const held = reader.getRows();
      // series_keys_collide, the same on every row; no rows, no series to collide.
      this.seriesHashesCollide = held[0]?.[5] === true;
      const rows = held.map(([source, symbol, count, first, last]) => ({
        source: source as string,
        symbol: symbol as string,
        observations: Number(count),
        firstDate: utcDateOf(instantOf(first as DuckDBTimestampValue)!),
        lastDate: utcDateOf(instantOf(last as DuckDBTimestampValue)!),
      }));
      const catalog = catalogOf(this.sourceKeys, rows, sharedDays);
      this.catalogSharedDaysAdded.set(catalog, sharedDaysAdded);
      return catalog;
    } finally {
      connection.closeSync();
    }
  }

  // A stream reads each chunk with a value reader of its own, whose texts die young with the
  // chunk. Kept for a whole statement, they lived through several young collections and moved
  // to the old generation: about 4 MB per `/all` of 4 M observations, left for a full collection.
  async *streamRows(sql: string): AsyncIterable<SqlValue[][]> {
    for await (const { chunk, types } of this.chunks(sql))
      yield chunkRows(chunk, valueReader(), types);
  }

  async *streamColumns(sql: string): AsyncIterable<ColumnBatch> {
    for await (const { chunk, types } of this.chunks(sql))
      yield { rowCount: chunk.rowCount, columns: chunkColumns(chunk, valueReader(), types) };
  }

  /**
   * The value reader of statements read whole, kept from one to the next: a one date's symbols,
   * source keys and times are then mostly texts made before (a one date's rows took 16 µs to
   * read so, 42 with a reader of their own). A new one replaces it once it holds many texts.
   */
  private wholeReader(): ValueReader {
    const read = this.wholeReads;
    if (read.dates.size + read.instants.size + read.shortTexts.size <= MOST_KEPT_TEXTS) return read;
    return (this.wholeReads = valueReader());
  }

  async readColumns(sql: string): Promise<ColumnBatch[]> {
    const connection = await this.reader();
    let finished = false;
    try {
      // Planned, run and materialised in one call to the engine (a prepared statement takes two,
      // about 0.1 ms more of a one-date answer's 2): its chunks are then read without a trip each.
      const result = await this.guarded(() => connection.run(sql));
      const read = this.wholeReader();
      const types = knownTypes(result);
      const batches: ColumnBatch[] = [];
      for (let index = 0; index < result.chunkCount; index++) {
        const chunk = result.getChunk(index);
        const rowCount = chunk.rowCount;
        if (rowCount > 0) batches.push({ rowCount, columns: chunkColumns(chunk, read, types) });
      }
      finished = true;
      return batches;
    } finally {
      this.release(connection, finished);
    }
  }

  private async *chunks(sql: string): AsyncIterable<{ chunk: DuckDBDataChunk; types: KnownTypes }> {
    const connection = await this.reader();
    let finished = false;
    let next: Promise<DuckDBDataChunk | null> | undefined;
    try {
      const result = await this.guarded(() => connection.stream(sql));
      const types = knownTypes(result);
      // Each next chunk is fetched while the one before is read.
      next = this.guarded(() => result.fetchChunk());
      for (;;) {
        const chunk = await next;
        next = undefined;
        if (!chunk || chunk.rowCount === 0) {
          if (streamFailed(result)) await this.guarded(() => throwStreamFailure(connection, sql));
          break;
        }
        next = this.guarded(() => result.fetchChunk());
        yield { chunk, types };
      }
      finished = true;
    } finally {
      // A reader that stopped early (a client that went away) lets the fetch under way end. The
      // stream then still holds the statement's working memory, closed connection or not, until
      // the JavaScript collector frees its result: a next statement on the connection ends it
      // now (about 11 MB for a window of 60,000 rows), and the connection serves again.
      await next?.catch(() => undefined);
      if (!finished && !this.closing)
        finished = await connection.run('SELECT 1').then(
          () => true,
          () => false,
        );
      this.release(connection, finished);
    }
  }

  private async reader(): Promise<DuckDBConnection> {
    return this.idleReaders.pop() ?? (await this.instance.connect());
  }

  /** A connection free of its statement serves the next one; others are closed. */
  private release(connection: DuckDBConnection, finished: boolean): void {
    if (finished && !this.closing && this.idleReaders.length < MAX_IDLE_READERS)
      this.idleReaders.push(connection);
    else connection.closeSync();
  }

  async runSandboxed(sql: string, limits: SandboxLimits): Promise<QueryResultSet> {
    assertReadOnlySelect(sql);
    return this.querySandbox().run(sql, limits);
  }

  async startSandbox(): Promise<void> {
    const sandbox = this.querySandbox();
    await Promise.all([this.snapshots!.current(), sandbox.warmUp()]);
  }

  /** The sandbox and its snapshots, started on first use: imports and ingest runs need neither. */
  private querySandbox(): DuckDBSandbox {
    if (!this.sandbox) {
      const snapshots = new SnapshotWriter(this.instance, {
        dir: this.snapshotDir,
        coalesceMs: this.sandboxSettings.snapshotDelayMs,
      });
      this.snapshots = snapshots;
      this.sandbox = new DuckDBSandbox({
        ...this.sandboxSettings,
        warn: this.options.warn,
        snapshot: () => snapshots.current(),
      });
    }
    return this.sandbox;
  }

  async writeObservations(observations: readonly Observation[]): Promise<number> {
    return (await this.importObservations([observations])).stored;
  }

  importObservations(
    batches: AsyncIterable<readonly Observation[]> | Iterable<readonly Observation[]>,
  ): Promise<WriteCounts> {
    return this.serialized(() => this.guarded(() => this.mergeAll(batches)));
  }

  /** Writes run one at a time on the one writer connection. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const write = this.writeQueue.then(work);
    this.writeQueue = write.catch(() => undefined);
    return write;
  }

  /**
   * Every batch in one transaction: all of them are stored, or on any error none. Batches are
   * appended to a staging table as they come (JavaScript holds one at a time; the engine keeps
   * the rest within its memory limit, spilling to disk), then merged in one statement.
   */
  private async mergeAll(
    batches: AsyncIterable<readonly Observation[]> | Iterable<readonly Observation[]>,
  ): Promise<WriteCounts> {
    await this.writer.run(
      `CREATE OR REPLACE TEMP TABLE staging (seq BIGINT, source VARCHAR, symbol VARCHAR,
         observation_time TIMESTAMP, rate DOUBLE)`,
    );
    try {
      const counts = await this.inTransaction(async () => {
        let seq = 0;
        for await (const batch of batches) {
          if (batch.length === 0) continue;
          const appender = await this.writer.createAppender('staging', 'main', 'temp');
          for (const observation of batch) {
            appender.appendBigInt(BigInt(seq++));
            appender.appendVarchar(observation.source);
            appender.appendVarchar(observation.symbol);
            appender.appendTimestamp(
              new DuckDBTimestampValue(BigInt(observation.observationTime.getTime()) * 1000n),
            );
            appender.appendDouble(observation.rate);
            appender.endRow();
          }
          appender.closeSync();
        }
        if (seq === 0) return { stored: 0, added: 0, changed: 0, unchanged: 0 };
        // Later rows win over earlier ones for the same key; rows equal to what is stored are
        // left alone, so re-ingesting changes nothing (and keeps the data version). The key is
        // unique because this one writer merges every write here (see migrations.ts).
        await this.writer.run(
          `CREATE OR REPLACE TEMP TABLE changed AS
           SELECT s.source, s.symbol, s.observation_time, s.rate, o.rate AS stored_rate
           FROM (SELECT * FROM temp.staging
                 QUALIFY row_number() OVER (PARTITION BY source, symbol, observation_time ORDER BY seq DESC) = 1) s
           LEFT JOIN observations o USING (source, symbol, observation_time)`,
        );
        const reader = await this.writer.runAndReadAll(
          `SELECT count(*) FILTER (WHERE stored_rate IS NULL),
             count(*) FILTER (WHERE stored_rate <> rate),
             count(*) FILTER (WHERE stored_rate = rate)
           FROM temp.changed`,
        );
        const [added, changed, unchanged] = reader.getRows()[0]!.map(Number) as [
          number,
          number,
          number,
        ];
        // New rows go in in time order, which keeps date queries reading few row groups.
        if (added > 0) {
          const span = await this.writer.runAndReadAll(
            `SELECT epoch_us(min(observation_time)), epoch_us(max(observation_time))
             FROM temp.changed WHERE stored_rate IS NULL`,
          );
          const [oldest, newest] = span.getRows()[0]! as [bigint, bigint];
          if (this.newestMicros !== null && oldest < this.newestMicros) this.unordered += added;
          if (this.newestMicros === null || newest > this.newestMicros) this.newestMicros = newest;
          this.rowCount += added;
          await this.writer.run(
            `INSERT INTO observations
             SELECT source, symbol, observation_time, rate FROM temp.changed
             WHERE stored_rate IS NULL ORDER BY observation_time, source, symbol`,
          );
          await this.noteSharedDays(oldest, newest);
        }
        if (changed > 0) {
          await this.writer.run(
            `UPDATE observations AS o SET rate = c.rate
             FROM temp.changed AS c
             WHERE c.stored_rate <> c.rate AND o.source = c.source AND o.symbol = c.symbol
               AND o.observation_time = c.observation_time`,
          );
        }
        const stored = added + changed;
        if (stored > 0) await this.setMeta('data_version', this.version + 1);
        return { stored, added, changed, unchanged };
      });
      if (counts.stored > 0) {
        this.version += 1;
        this.snapshots?.markChanged();
      }
      if (this.unordered > Math.max(this.options.reclusterRows ?? 100_000, this.rowCount / 4))
        await this.recluster();
      return counts;
    } finally {
      await this.writer.run('DROP TABLE IF EXISTS temp.staging');
      await this.writer.run('DROP TABLE IF EXISTS temp.changed');
    }
  }

  /**
   * Adds the sources of which a new row shares its day with another row of the same symbol to
   * sharedDaySources (the new rows lie from `oldest` to `newest`, in microseconds). Done before
   * the write commits: a statement that reads the new rows then finds the count changed.
   */
  private async noteSharedDays(oldest: bigint, newest: bigint): Promise<void> {
    const reader = await this.writer.runAndReadAll(
      `SELECT DISTINCT c.source FROM temp.changed AS c
       JOIN observations AS o ON o.source = c.source AND o.symbol = c.symbol
         AND CAST(o.observation_time AS DATE) = CAST(c.observation_time AS DATE)
         AND o.observation_time <> c.observation_time
       WHERE c.stored_rate IS NULL
         AND o.observation_time >= CAST(CAST(make_timestamp(${oldest}) AS DATE) AS TIMESTAMP)
         AND o.observation_time < CAST(CAST(make_timestamp(${newest}) AS DATE) + 1 AS TIMESTAMP)`,
    );
    const added = reader
      .getRows()
      .map(([source]) => source as string)
      .filter((source) => !this.sharedDaySources.has(source));
    if (added.length === 0) return;
    for (const source of added) this.sharedDaySources.add(source);
    this.sharedDaysAdded += 1;
  }

  /**
   * Rewrites the table in time order once many rows were stored before older ones (a backfill
   * arriving after newer data, publishers' histories fetched side by side): a date's rows then
   * sit in one or two row groups again, and a date query skips the others whatever the data's
   * size. The rows stay the same, and so does the data version.
   */
  private async recluster(): Promise<void> {
    await this.inTransaction(async () => {
      await this.writer.run(OBSERVATIONS_BY_TIME);
      await this.writer.run(
        `INSERT INTO observations_by_time
         SELECT * FROM observations ORDER BY observation_time, source, symbol`,
      );
      await this.writer.run('DROP TABLE observations');
      await this.writer.run('ALTER TABLE observations_by_time RENAME TO observations');
    });
    this.unordered = 0;
  }

  async ingestStates(): Promise<Map<string, IngestState>> {
    const connection = await this.instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT source, last_attempt, last_success, last_error, complete_through,
           last_run_stored, last_run_dropped FROM ingest_status`,
      );
      const states = new Map<string, IngestState>();
      for (const [source, attempt, success, error, through, stored, dropped] of reader.getRows()) {
        states.set(source as string, {
          source: source as string,
          lastAttempt: instantOf(attempt),
          lastSuccess: instantOf(success),
          lastError: (error as string | null) ?? null,
          completeThrough: through === null ? null : String(through),
          lastRunStored: Number(stored),
          lastRunDropped: Number(dropped),
        });
      }
      return states;
    } finally {
      connection.closeSync();
    }
  }

  saveIngestState(state: IngestState): Promise<void> {
    return this.serialized(async () => {
      await this.writer.run(
        `INSERT OR REPLACE INTO ingest_status VALUES ($1, $2::TIMESTAMP, $3::TIMESTAMP, $4, $5::DATE, $6, $7)`,
        [
          state.source,
          state.lastAttempt?.toISOString().replace('Z', '') ?? null,
          state.lastSuccess?.toISOString().replace('Z', '') ?? null,
          state.lastError,
          state.completeThrough,
          BigInt(state.lastRunStored),
          BigInt(state.lastRunDropped),
        ],
      );
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const connection of this.idleReaders.splice(0)) connection.closeSync();
    await this.sandbox?.close();
    await this.snapshots?.close();
    await this.writeQueue;
    this.writer.closeSync();
    this.instance.closeSync();
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Creates the folder of a new database file, or says in one line why it cannot be. */
function folderFor(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new Error(
        `database ${path}: a part of its folder ${dirname(path)} is a file, not a folder`,
      );
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new Error(`database ${path}: its folder ${dirname(path)} cannot be created (${code})`);
    }
    throw error;
  }
}
