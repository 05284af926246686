import pg from 'pg';
import Cursor from 'pg-cursor';
import {
  DEFAULT_SANDBOX_SETTINGS,
  assertCurrentSchema,
  assertNotNewerSchema,
  type Catalog,
  type ColumnBatch,
  type IngestState,
  type Observation,
  type QueryResultSet,
  type SandboxLimits,
  type SourceRow,
  type SqlValue,
  type Store,
  type StoreOptions,
  type WriteCounts,
} from '../store.js';
import { CatalogCache, catalogOf } from '../catalog.js';
import { assertReadOnlySelect } from '../sql-guard.js';
import { DatabaseUnavailable } from '../../errors.js';
import { Turns } from '../../turns.js';
import { redactUrl } from '../open.js';
import {
  clientConfig,
  connectionPool,
  connectionProblem,
  describeUrl,
  dropClient,
  dropConnections,
  isConnectionFailure,
} from './connection.js';
import { postgresDialect } from './dialect.js';
import { PostgresLease } from './lease.js';
import { FXRATES_TABLES, MIGRATIONS, MIGRATION_LOCK, advisoryLock } from './migrations.js';
import { PostgresSandbox } from './sandbox.js';
import { timestampParameter } from './values.js';

export interface PostgresStoreOptions extends StoreOptions {
  url: string;
  /** How often a replica looks for other replicas' writes, in milliseconds. */
  versionPollMs?: number;
  /** How often a replica that does not ingest tries to take the ingest lease. */
  leaseRetryMs?: number;
  /** A postgres:// URL that logs in as the query role, when the service may not create it. */
  queryUrl?: string;
  /** How long the version poll waits for an answer before the network counts as gone silent. */
  silenceMs?: number;
}

const STREAM_BATCH = 2_000;
/**
 * A version poll unanswered for this long: the network to the server (or the server) went
 * silent. A cut network sends no reset, and the system's keepalives give up only after minutes.
 */
const SILENCE_MS = 15_000;
const VERSION_SQL = "SELECT value FROM meta WHERE key = 'data_version'";
/** Connections of the pool (of 16) that rate statements use at once; the rest serve the others. */
const READERS = 12;
/** A write of this many rows or more refreshes the table's statistics at once. */
const ANALYZE_AFTER_ROWS = 10_000;
/** Rows per INSERT into the staging table of a write. */
const WRITE_CHUNK = 20_000;

/**
 * The shared store: many replicas on one PostgreSQL database. The data version lives in the
 * database (every replica's ETags and caches follow it), the ingest lease is an advisory lock,
 * and untrusted SQL runs in the database backend as a role that can only read.
 */
export class PostgresStore implements Store {
  readonly dialect = postgresDialect;
  readonly description: string;
  readonly ingestLease: PostgresLease;
  private version = 0;
  /** Counts this process's own writes of the version, so that a poll older than one is ignored. */
  private versionWrites = 0;
  private polling = false;
  private readonly catalogCache = new CatalogCache(() => this.reached(this.readCatalog()));
  private sourceKeys: string[] = [];
  private readonly poll: NodeJS.Timeout;
  private readonly readers = new Turns(READERS);
  private readonly sandbox: PostgresSandbox;
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** The server was found out of reach and not yet back: the outage is logged once. */
  private unreachable = false;
  /** Connection failures seen so far: a poll that began before the last one proves nothing. */
  private connectionFailures = 0;
  /**
   * The version poll's connection, apart from the pool: it is answered while every pooled
   * connection waits, so that it tells a silent network from busy connections.
   */
  private pollClient: pg.Client | undefined;
  /** When the poll was last answered, or a silence last acted on (performance.now()). */
  private lastAnswer = performance.now();
  private closing = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly config: pg.ClientConfig,
    private readonly options: PostgresStoreOptions,
    schema: string,
  ) {
    this.description = `PostgreSQL ${redactUrl(options.url)}`;
    const workers = options.sandbox?.workers ?? DEFAULT_SANDBOX_SETTINGS.workers;
    this.sandbox = new PostgresSandbox(options.url, pool, workers, options.queryUrl, options.warn);
    this.ingestLease = new PostgresLease(
      options.url,
      pool,
      schema,
      options.leaseRetryMs ?? 10_000,
      () => options.warn?.('ingest lease lost (connection to the database closed)'),
    );
    this.poll = setInterval(() => {
      this.watchForSilence();
      void this.refreshVersion();
    }, options.versionPollMs ?? 1_000);
    this.poll.unref();
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const config = clientConfig(options.url, 'serve');
    // Read-only: the sessions themselves refuse writes, whatever runs on them.
    if (options.readOnly)
      config.options = `${config.options ?? ''} -c default_transaction_read_only=on`;
    const pool = connectionPool({ ...config, max: 16 });
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw connectionProblem(error, options.url);
    }
    let schema: string;
    try {
      // The schema this deployment works in: the first of the user's search_path.
      schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema'))
        .rows[0]!.schema;
      await (options.readOnly
        ? checkSchema(client, options.url)
        : migrate(client, schema, options.url));
    } catch (error) {
      client.release();
      await pool.end().catch(() => undefined);
      throw error;
    }
    client.release();
    const store = new PostgresStore(pool, config, options, schema);
    await store.refreshVersion();
    return store;
  }

  async syncSources(sources: readonly SourceRow[]): Promise<void> {
    this.sourceKeys = sources.map((source) => source.key);
    await this.pool.query(
      `INSERT INTO sources
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::integer[])
       ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name,
         relative_currency = EXCLUDED.relative_currency, url = EXCLUDED.url,
         is_dst = EXCLUDED.is_dst, default_precedence = EXCLUDED.default_precedence
       WHERE (sources.*) IS DISTINCT FROM (EXCLUDED.*)`,
      [
        sources.map((s) => s.key),
        sources.map((s) => s.name),
        sources.map((s) => s.relativeCurrency),
        sources.map((s) => s.url),
        sources.map((s) => s.isDst),
        sources.map((s) => s.defaultPrecedence),
      ],
    );
    this.catalogCache.clear();
  }

  private async refreshVersion(): Promise<void> {
    // One poll at a time: a slow one finishing after a later one would bring an older value.
    if (this.polling) return;
    this.polling = true;
    try {
      const writes = this.versionWrites;
      const failures = this.connectionFailures;
      const value = await this.pollVersion();
      if (value > this.version) this.version = value;
      else if (value < this.version && writes === this.versionWrites) {
        // The database went back (restored from a dump; a poll that overlapped a write of this
        // process's own may only have read the value from before it). Its version moves past
        // the highest this process knew, so that no version, and no ETag, stands for two
        // different sets of data.
        this.version = this.options.readOnly ? value : await this.versionPast(this.version);
      }
      // An answer read before a failure seen meanwhile (a stop that cut other connections
      // while this one's reply was on its way) does not end the outage.
      if (this.unreachable && failures === this.connectionFailures) {
        this.unreachable = false;
        this.options.warn?.(`PostgreSQL at ${describeUrl(this.options.url)} reachable again`);
      }
    } catch (error) {
      // The next poll tries again; requests report their own errors. An outage is noticed
      // here too, between requests. (A poll cut by close is none.)
      if (!this.closing) this.failure(error);
    } finally {
      this.polling = false;
    }
  }

  /** The database's data version, read on the poll's own connection. */
  private async pollVersion(): Promise<number> {
    let client = this.pollClient;
    if (!client) {
      const opened = new pg.Client(this.config);
      const forget = (): void => {
        if (this.pollClient === opened) this.pollClient = undefined;
      };
      opened.on('error', forget);
      opened.on('end', forget);
      this.pollClient = client = opened;
      try {
        await opened.connect();
      } catch (error) {
        forget();
        if (isConnectionFailure(error)) throw error;
        // Refused for another reason (the role's connection limit reached): this poll reads
        // through the pool, as the requests do.
        return this.answered(await this.pool.query<{ value: number }>(VERSION_SQL));
      }
    }
    return this.answered(await client.query<{ value: number }>(VERSION_SQL));
  }

  private answered({ rows }: pg.QueryResult<{ value: number }>): number {
    this.lastAnswer = performance.now();
    return Number(rows[0]?.value ?? 0);
  }

  /**
   * No poll answered for SILENCE_MS: the network to the server went silent (or the server
   * stopped answering). The outage begins (logged once, requests answer 503), and every
   * connection is closed on this side, so that the statements waiting on them fail now, as they
   * would on a reset, instead of waiting for minutes; again after as long while it lasts. New
   * connections are opened once it answers again.
   */
  private watchForSilence(): void {
    const silenceMs = this.options.silenceMs ?? SILENCE_MS;
    // Only while a poll waits: after a pause of this process with none sent, nothing is late.
    const silent = (): boolean => this.polling && performance.now() - this.lastAnswer >= silenceMs;
    if (!silent()) return;
    // Timers run before the answers waiting on sockets are read: after a pause of this process
    // (a long task, a suspended machine) the poll's answer may be waiting. Asked again once
    // they are read.
    setImmediate(() => {
      if (this.closing || !silent()) return;
      this.lastAnswer = performance.now();
      this.failure(
        Object.assign(new Error(`no answer for ${silenceMs / 1000} s`), { code: 'ETIMEDOUT' }),
      );
      if (this.pollClient) dropClient(this.pollClient);
      dropConnections(this.pool);
    });
  }

  /** Sets the database's data version above `known` (and above any other replica's writes). */
  private async versionPast(known: number): Promise<number> {
    const { rows } = await this.pool.query<{ value: number }>(
      `UPDATE meta SET value = GREATEST(value, $1::bigint) + 1 WHERE key = 'data_version'
       RETURNING value`,
      [known],
    );
    return Number(rows[0]!.value);
  }

  /**
   * What a read fails with: a connection failure becomes DatabaseUnavailable (HTTP 503), logged
   * once per outage (the version poll logs its end); any other error stays itself (a bug, 500).
   */
  private failure(error: unknown): unknown {
    if (!isConnectionFailure(error)) return error;
    this.connectionFailures++;
    if (!this.unreachable) {
      this.unreachable = true;
      const why = (error as Error).message.split('\n')[0];
      this.options.warn?.(
        `PostgreSQL at ${describeUrl(this.options.url)} is unavailable (${why}): requests that need it answer 503 until it is back`,
      );
    }
    return new DatabaseUnavailable({ cause: error });
  }

  /** A read's result, or its failure as `failure` words it. */
  private reached<T>(read: Promise<T>): Promise<T> {
    return read.catch((error: unknown) => {
      throw this.failure(error);
    });
  }

  dataVersion(): number {
    return this.version;
  }

  /** The query role reads the tables themselves. */
  async sandboxDataVersion(): Promise<number> {
    return this.version;
  }

  get sandboxCapacity(): number {
    return this.options.sandbox?.workers ?? DEFAULT_SANDBOX_SETTINGS.workers;
  }

  catalog(): Promise<Catalog> {
    return this.catalogCache.get(this.version);
  }

  /**
   * Replicas write the shared database, and none tells the others when a source first observes
   * a symbol twice on one day: the catalog lists no source as observing once a day.
   */
  sharedDaysSince(): boolean {
    return true;
  }

  private async readCatalog(): Promise<Catalog> {
    const { rows } = await this.pool.query<{
      source: string;
      symbol: string;
      observations: number;
      first_date: string;
      last_date: string;
    }>(
      `SELECT source, symbol, count(*) AS observations,
         CAST(min(observation_time) AS DATE) AS first_date,
         CAST(max(observation_time) AS DATE) AS last_date
       FROM observations GROUP BY source, symbol ORDER BY source, symbol`,
    );
    return catalogOf(
      this.sourceKeys,
      rows.map((row) => ({
        source: row.source,
        symbol: row.symbol,
        observations: Number(row.observations),
        firstDate: row.first_date,
        lastDate: row.last_date,
      })),
    );
  }

  async *streamColumns(sql: string): AsyncIterable<ColumnBatch> {
    for await (const rows of this.streamRows(sql)) yield columnsOf(rows);
  }

  async readColumns(sql: string): Promise<ColumnBatch[]> {
    // One round trip, where a cursor takes three (open, read to the end, close).
    const result = await this.reached(
      this.readers.run(() => this.pool.query<SqlValue[]>({ text: sql, rowMode: 'array' })),
    );
    return result.rows.length > 0 ? [columnsOf(result.rows)] : [];
  }

  async *streamRows(sql: string): AsyncIterable<SqlValue[][]> {
    // Statements wait their turn here, however long: the pool's own wait has a time limit,
    // which many long answers at once (32 full histories) would exceed.
    await this.readers.take();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      this.readers.give();
      throw this.failure(error);
    }
    const cursor = client.query(new Cursor(sql, [], { rowMode: 'array' }));
    const read = (): Promise<SqlValue[][]> => cursor.read(STREAM_BATCH) as Promise<SqlValue[][]>;
    let failed = false;
    // The next batch is asked for before this one is handed on: the server writes it while this
    // process writes the rows before it. Over HTTP, `/all` took 0.955-0.964 of the time so on the
    // ECB history and 0.968 over four sources of the generated 1 M set, a ten-year range 0.943
    // (batches of 1,000 rows gave the same, of 8,000 1.08: less of the two overlaps).
    let next: Promise<SqlValue[][]> | undefined = read();
    try {
      while (next !== undefined) {
        const rows: SqlValue[][] = await next;
        next = rows.length === STREAM_BATCH ? read() : undefined;
        // Read below, or waited for when the rows are not wanted any more.
        next?.catch(() => undefined);
        if (rows.length > 0) yield rows;
      }
    } catch (error) {
      failed = true;
      throw this.failure(error);
    } finally {
      // A batch asked for and not read (the reader stopped): the cursor closes after it.
      if (next !== undefined) await next.catch(() => undefined);
      if (!failed) await new Promise<void>((resolve) => cursor.close(() => resolve()));
      client.release(failed);
      this.readers.give();
    }
  }

  async runSandboxed(sql: string, limits: SandboxLimits): Promise<QueryResultSet> {
    assertReadOnlySelect(sql);
    return this.sandbox.run(sql, limits);
  }

  startSandbox(): Promise<void> {
    return this.sandbox.start();
  }

  async writeObservations(observations: readonly Observation[]): Promise<number> {
    return (await this.importObservations([observations])).stored;
  }

  importObservations(
    batches: AsyncIterable<readonly Observation[]> | Iterable<readonly Observation[]>,
  ): Promise<WriteCounts> {
    const write = this.writeQueue.then(() => this.mergeAll(batches));
    this.writeQueue = write.catch(() => undefined);
    return write;
  }

  /**
   * Every batch in one transaction: staged as they come (memory stays flat), then merged with
   * one upsert that leaves equal rows alone, so that a write changing nothing keeps the version.
   */
  private async mergeAll(
    batches: AsyncIterable<readonly Observation[]> | Iterable<readonly Observation[]>,
  ): Promise<WriteCounts> {
    const client = await this.pool.connect();
    let clean = false;
    try {
      await client.query('BEGIN');
      await client.query(
        `CREATE TEMP TABLE staging (seq bigint, source text COLLATE "C", symbol text COLLATE "C",
           observation_time timestamp, rate double precision) ON COMMIT DROP`,
      );
      let seq = 0;
      for await (const batch of batches) {
        for (let start = 0; start < batch.length; start += WRITE_CHUNK) {
          const chunk = batch.slice(start, start + WRITE_CHUNK);
          await client.query(
            `INSERT INTO staging SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[],
               $4::timestamp[], $5::double precision[])`,
            [
              chunk.map(() => seq++),
              chunk.map((o) => o.source),
              chunk.map((o) => o.symbol),
              chunk.map((o) => timestampParameter(o.observationTime)),
              chunk.map((o) => o.rate),
            ],
          );
        }
      }
      let counts: WriteCounts = { stored: 0, added: 0, changed: 0, unchanged: 0 };
      if (seq > 0) {
        const { rows } = await client.query<{ total: number; stored: number; added: number }>(
          `WITH latest AS (
             SELECT DISTINCT ON (source, symbol, observation_time) source, symbol, observation_time, rate
             FROM staging ORDER BY source, symbol, observation_time, seq DESC
           ), written AS (
             INSERT INTO observations AS o
             SELECT source, symbol, observation_time, rate FROM latest ORDER BY observation_time, source, symbol
             ON CONFLICT (source, symbol, observation_time) DO UPDATE SET rate = EXCLUDED.rate
             WHERE o.rate IS DISTINCT FROM EXCLUDED.rate
             RETURNING (xmax = 0) AS inserted
           )
           SELECT (SELECT count(*) FROM latest) AS total, (SELECT count(*) FROM written) AS stored,
             (SELECT count(*) FROM written WHERE inserted) AS added`,
        );
        const total = Number(rows[0]!.total);
        const stored = Number(rows[0]!.stored);
        const added = Number(rows[0]!.added);
        counts = { stored, added, changed: stored - added, unchanged: total - stored };
        if (stored > 0) {
          const bumped = await client.query<{ value: number }>(
            "UPDATE meta SET value = value + 1 WHERE key = 'data_version' RETURNING value",
          );
          await client.query('COMMIT');
          this.version = Math.max(this.version, Number(bumped.rows[0]!.value));
          this.versionWrites++;
          clean = true;
          // Fresh statistics after a bulk write, so that the next rate queries get good plans
          // (the autovacuum daemon would take its time).
          if (stored >= ANALYZE_AFTER_ROWS) {
            await client.query('ANALYZE observations').catch(() => undefined);
          }
          return counts;
        }
      }
      await client.query('COMMIT');
      clean = true;
      return counts;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      clean = true;
      throw error;
    } finally {
      client.release(!clean);
    }
  }

  ingestStates(): Promise<Map<string, IngestState>> {
    return this.reached(this.readIngestStates());
  }

  private async readIngestStates(): Promise<Map<string, IngestState>> {
    const { rows } = await this.pool.query<{
      source: string;
      last_attempt: string | null;
      last_success: string | null;
      last_error: string | null;
      complete_through: string | null;
      last_run_stored: number;
      last_run_dropped: number;
    }>('SELECT * FROM ingest_status');
    return new Map(
      rows.map((row) => [
        row.source,
        {
          source: row.source,
          lastAttempt: row.last_attempt === null ? null : new Date(row.last_attempt),
          lastSuccess: row.last_success === null ? null : new Date(row.last_success),
          lastError: row.last_error,
          completeThrough: row.complete_through,
          lastRunStored: Number(row.last_run_stored),
          lastRunDropped: Number(row.last_run_dropped),
        },
      ]),
    );
  }

  async saveIngestState(state: IngestState): Promise<void> {
    await this.pool.query(
      `INSERT INTO ingest_status VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (source) DO UPDATE SET last_attempt = EXCLUDED.last_attempt,
         last_success = EXCLUDED.last_success, last_error = EXCLUDED.last_error,
         complete_through = EXCLUDED.complete_through, last_run_stored = EXCLUDED.last_run_stored,
         last_run_dropped = EXCLUDED.last_run_dropped`,
      [
        state.source,
        state.lastAttempt ? timestampParameter(state.lastAttempt) : null,
        state.lastSuccess ? timestampParameter(state.lastSuccess) : null,
        state.lastError,
        state.completeThrough,
        state.lastRunStored,
        state.lastRunDropped,
      ],
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.poll);
    await this.writeQueue;
    await this.sandbox.close();
    await this.ingestLease.release();
    // Politely, when the server answers; at once when it does not (a silent network).
    const poll = this.pollClient;
    if (poll) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        poll.end().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, 1_000))),
      ]);
      clearTimeout(timer);
      dropClient(poll);
    }
    await this.pool.end();
  }
}

/** Opened read-only, the schema is not migrated: it must be there, up to date. */
async function checkSchema(client: pg.PoolClient, url: string): Promise<void> {
  const { rows } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('fxrates_migrations') IS NOT NULL AS present",
  );
  const steps = rows[0]!.present
    ? Number(
        (await client.query<{ done: number }>('SELECT count(*) AS done FROM fxrates_migrations'))
          .rows[0]!.done,
      )
    : 0;
  assertCurrentSchema(`PostgreSQL ${redactUrl(url)}`, steps, MIGRATIONS.length);
}

/** Applies the missing schema steps, one replica at a time. */
async function migrate(client: pg.PoolClient, schema: string, url: string): Promise<void> {
  await client.query('BEGIN');
  try {
    const lock = advisoryLock(MIGRATION_LOCK, schema);
    await client.query(`SELECT pg_advisory_xact_lock(${lock.args})`, lock.params);
    // Only when missing: a user that may write the tables but not create any (granted by an
    // administrator) opens a migrated database all the same.
    const { rows: present } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('fxrates_migrations') IS NOT NULL AS present",
    );
    if (!present[0]!.present) {
      await client.query(
        `CREATE TABLE fxrates_migrations (
           step integer PRIMARY KEY, applied_at timestamp NOT NULL DEFAULT now())`,
      );
    }
    const { rows } = await client.query<{ done: number }>(
      'SELECT count(*) AS done FROM fxrates_migrations',
    );
    const where = `PostgreSQL ${redactUrl(url)}`;
    assertNotNewerSchema(where, Number(rows[0]!.done), MIGRATIONS.length);
    if (Number(rows[0]!.done) === 0) {
      // Another program's tables are left as they are: fxrates writes only into its own.
      const { rows: taken } = await client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
         WHERE table_schema = $1 AND table_name = ANY($2) ORDER BY 1`,
        [schema, FXRATES_TABLES],
      );
      if (taken.length > 0) {
        throw new Error(
          `${where} holds tables named as fxrates' own (${taken.map((row) => row.name).join(', ')}) in schema ${schema}, but no fxrates database: use another database or schema`,
        );
      }
    }
    for (let step = Number(rows[0]!.done); step < MIGRATIONS.length; step++) {
      await client.query(MIGRATIONS[step]!);
      await client.query('INSERT INTO fxrates_migrations (step) VALUES ($1)', [step + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const code = (error as { code?: string }).code;
    // Not allowed to create or change tables (privileges, or a read-only session or server).
    if (code === '42501' || code === '25006') {
      throw new Error(
        `PostgreSQL ${redactUrl(url)}: the user may not create or change fxrates' tables in schema ${schema} (${(error as Error).message}); fxrates needs a user that may, e.g. the schema's owner or one granted CREATE on it`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Rows (at least one) as columns. */
function columnsOf(rows: SqlValue[][]): ColumnBatch {
  const columns: SqlValue[][] = rows[0]!.map(() => new Array(rows.length));
  for (let row = 0; row < rows.length; row++) {
    const values = rows[row]!;
    for (let column = 0; column < values.length; column++) columns[column]![row] = values[column]!;
  }
  return { rowCount: rows.length, columns };
}
