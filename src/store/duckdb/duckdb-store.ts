import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampValue,
  StatementType,
  type DuckDBConnection,
  type DuckDBResult,
  type DuckDBValue,
} from '@duckdb/node-api';
import { utcDateOf } from '../../dates.js';
import { duckdbDialect } from '../../resolve/dialect.js';
import { SOURCES, defaultPrecedence } from '../../sources/registry.js';
import {
  SandboxRejection,
  SandboxTimeout,
  type Catalog,
  type IngestState,
  type Observation,
  type QueryResultSet,
  type SandboxLimits,
  type SourceHoldings,
  type SqlValue,
  type Store,
} from '../store.js';
import { assertReadOnlySelect } from '../sql-guard.js';
import { MIGRATIONS } from './migrations.js';

export interface DuckDBStoreOptions {
  /** Database file; created with its directory when missing. ':memory:' for a throwaway store. */
  path: string;
  /** DuckDB memory limit, e.g. '1GB'. */
  memoryLimit?: string;
  threads?: number;
}

export const DEFAULT_MEMORY_LIMIT = '1GB';

/**
 * The embedded store. The instance is locked down for serving untrusted SQL: no file or
 * network access from SQL, no extension loading, configuration frozen, memory capped.
 * Writes go through one connection, one batch at a time; reads each get their own connection.
 */
export class DuckDBStore implements Store {
  readonly dialect = duckdbDialect;
  private version = 0;
  private cachedCatalog: { version: number; catalog: Promise<Catalog> } | undefined;
  private writeQueue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
  ) {}

  static async open(options: DuckDBStoreOptions): Promise<DuckDBStore> {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    const config: Record<string, string> = {
      enable_external_access: 'false',
      autoload_known_extensions: 'false',
      autoinstall_known_extensions: 'false',
      allow_community_extensions: 'false',
      memory_limit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      lock_configuration: 'true',
    };
    if (options.threads) config.threads = String(options.threads);
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
    const store = new DuckDBStore(instance, writer);
    await store.migrate();
    return store;
  }

  private async migrate(): Promise<void> {
    await this.writer.run(
      'CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL)',
    );
    const applied = Number((await this.metaValue('schema_version')) ?? 0);
    for (let step = applied; step < MIGRATIONS.length; step++) {
      await this.inTransaction(async () => {
        await this.writer.run(MIGRATIONS[step]!);
        await this.setMeta('schema_version', step + 1);
      });
    }
    await this.inTransaction(async () => {
      for (const source of SOURCES) {
        await this.writer.run(`INSERT OR REPLACE INTO sources VALUES ($1, $2, $3, $4, $5, $6)`, [
          source.key,
          source.name,
          source.relativeCurrency,
          source.url,
          source.isDst,
          defaultPrecedence(source.key),
        ]);
      }
    });
    this.version = Number((await this.metaValue('data_version')) ?? 0);
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

  async dataVersion(): Promise<number> {
    return this.version;
  }

  catalog(): Promise<Catalog> {
    if (this.cachedCatalog?.version !== this.version) {
      const catalog = this.readCatalog();
      this.cachedCatalog = { version: this.version, catalog };
      // A failed read must not stay cached.
      catalog.catch(() => (this.cachedCatalog = undefined));
    }
    return this.cachedCatalog!.catalog;
  }

  private async readCatalog(): Promise<Catalog> {
    const connection = await this.instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT source, symbol, count(*) AS observations,
           min(observation_time) AS first_time, max(observation_time) AS last_time
         FROM observations GROUP BY source, symbol ORDER BY source, symbol`,
      );
      const catalog = new Map<string, SourceHoldings & { symbols: string[] }>();
      for (const source of SOURCES) {
        catalog.set(source.key, { symbols: [], firstDate: null, lastDate: null, observations: 0 });
      }
      for (const [source, symbol, count, first, last] of reader.getRows()) {
        const holdings = catalog.get(source as string);
        if (!holdings) continue;
        holdings.symbols.push(symbol as string);
        holdings.observations += Number(count);
        const firstDate = timestampToDate(first as DuckDBTimestampValue);
        const lastDate = timestampToDate(last as DuckDBTimestampValue);
        if (holdings.firstDate === null || firstDate < holdings.firstDate)
          holdings.firstDate = firstDate;
        if (holdings.lastDate === null || lastDate > holdings.lastDate)
          holdings.lastDate = lastDate;
      }
      return catalog;
    } finally {
      connection.closeSync();
    }
  }

  async *streamRows(sql: string): AsyncIterable<SqlValue[][]> {
    const connection = await this.instance.connect();
    try {
      const result = await connection.stream(sql);
      yield* readChunks(result, Number.POSITIVE_INFINITY);
    } finally {
      connection.closeSync();
    }
  }

  async runSandboxed(sql: string, limits: SandboxLimits): Promise<QueryResultSet> {
    assertReadOnlySelect(sql);
    const connection = await this.instance.connect();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      connection.interrupt();
    }, limits.timeoutMs);
    try {
      // A read-only transaction, rolled back afterwards: even a statement that slipped past
      // the checks below could change nothing.
      await connection.run('BEGIN TRANSACTION READ ONLY');
      const statements = await connection.extractStatements(sql);
      if (statements.count !== 1) {
        throw new SandboxRejection(`exactly one statement is allowed, found ${statements.count}`);
      }
      const prepared = await statements.prepare(0);
      if (prepared.statementType !== StatementType.SELECT) {
        throw new SandboxRejection('only SELECT statements are allowed');
      }
      const result = await prepared.stream();
      const columns = result.deduplicatedColumnNames();
      const rows: SqlValue[][] = [];
      for await (const batch of readChunks(result, limits.maxRows + 1)) rows.push(...batch);
      const truncated = rows.length > limits.maxRows;
      if (truncated) rows.length = limits.maxRows;
      return { columns, rows, truncated };
    } catch (error) {
      if (timedOut) throw new SandboxTimeout(`the query ran longer than ${limits.timeoutMs} ms`);
      if (error instanceof SandboxRejection) throw error;
      throw new SandboxRejection(firstLine(error));
    } finally {
      clearTimeout(timer);
      try {
        await connection.run('ROLLBACK');
      } catch {
        // No transaction left to roll back (the statement failed before or ended it).
      }
      connection.closeSync();
    }
  }

  writeObservations(observations: readonly Observation[]): Promise<number> {
    return this.serialized(() => this.appendAndMerge(observations));
  }

  /** Writes run one at a time on the one writer connection. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const write = this.writeQueue.then(work);
    this.writeQueue = write.catch(() => undefined);
    return write;
  }

  private async appendAndMerge(observations: readonly Observation[]): Promise<number> {
    if (observations.length === 0) return 0;
    await this.writer.run(
      `CREATE OR REPLACE TEMP TABLE staging (seq BIGINT, source VARCHAR, symbol VARCHAR,
         observation_time TIMESTAMP, rate DOUBLE)`,
    );
    const appender = await this.writer.createAppender('staging', 'main', 'temp');
    observations.forEach((observation, seq) => {
      appender.appendBigInt(BigInt(seq));
      appender.appendVarchar(observation.source);
      appender.appendVarchar(observation.symbol);
      appender.appendTimestamp(
        new DuckDBTimestampValue(BigInt(observation.observationTime.getTime()) * 1000n),
      );
      appender.appendDouble(observation.rate);
      appender.endRow();
    });
    appender.closeSync();
    try {
      const count = await this.inTransaction(async () => {
        // Later rows of the batch win over earlier ones for the same key, like later batches do;
        // rows equal to what is stored are left alone, so re-ingesting changes nothing.
        await this.writer.run(
          `CREATE OR REPLACE TEMP TABLE changed AS
           SELECT s.source, s.symbol, s.observation_time, s.rate
           FROM (SELECT * FROM temp.staging
                 QUALIFY row_number() OVER (PARTITION BY source, symbol, observation_time ORDER BY seq DESC) = 1) s
           LEFT JOIN observations o USING (source, symbol, observation_time)
           WHERE o.rate IS DISTINCT FROM s.rate`,
        );
        const changed = await this.writer.runAndReadAll('SELECT count(*) FROM temp.changed');
        const count = Number(changed.getRows()[0]![0]);
        if (count > 0) {
          await this.writer.run('INSERT OR REPLACE INTO observations SELECT * FROM temp.changed');
          await this.setMeta('data_version', this.version + 1);
        }
        return count;
      });
      if (count > 0) this.version += 1;
      return count;
    } finally {
      await this.writer.run('DROP TABLE IF EXISTS temp.staging');
      await this.writer.run('DROP TABLE IF EXISTS temp.changed');
    }
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
          lastAttempt: nullableInstant(attempt),
          lastSuccess: nullableInstant(success),
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
    await this.writeQueue;
    this.writer.closeSync();
    this.instance.closeSync();
  }
}

function timestampToInstant(value: DuckDBTimestampValue): Date {
  return new Date(Number(value.micros / 1000n));
}

function nullableInstant(value: DuckDBValue | undefined): Date | null {
  return value == null ? null : timestampToInstant(value as DuckDBTimestampValue);
}

async function* readChunks(result: DuckDBResult, maxRows: number): AsyncIterable<SqlValue[][]> {
  // Dates and times repeat on every row of a day: each is formatted once per result.
  const texts = new Map<bigint | number, string>();
  const toSqlValue = (value: DuckDBValue): SqlValue => {
    if (value instanceof DuckDBDateValue)
      return remember(texts, value.days, () => value.toString());
    if (value instanceof DuckDBTimestampValue) {
      return remember(texts, value.micros, () =>
        new Date(Number(value.micros / 1000n)).toISOString(),
      );
    }
    return toPlainValue(value);
  };
  let count = 0;
  while (count < maxRows) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    // Column vectors read item by item: several times faster than chunk.getRows() on wide results.
    const columns = Array.from({ length: chunk.columnCount }, (_, index) =>
      chunk.getColumnVector(index),
    );
    const rows: SqlValue[][] = new Array(chunk.rowCount);
    for (let row = 0; row < chunk.rowCount; row++) {
      rows[row] = columns.map((column) => toSqlValue(column.getItem(row)));
    }
    count += rows.length;
    yield rows;
  }
}

function remember(
  texts: Map<bigint | number, string>,
  key: bigint | number,
  format: () => string,
): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = format();
    texts.set(key, text);
  }
  return text;
}

function toPlainValue(value: DuckDBValue): SqlValue {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  ) {
    return value;
  }
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  return String(value);
}

function timestampToDate(value: DuckDBTimestampValue): string {
  return utcDateOf(timestampToInstant(value));
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
