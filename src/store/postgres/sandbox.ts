import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import {
  SandboxRejection,
  SandboxTimeout,
  SandboxUnavailable,
  type QueryResultSet,
  type SandboxLimits,
  type SqlValue,
} from '../store.js';
import { clientConfig, connectionPool, describeUrl, isConnectionFailure } from './connection.js';
import { ROLE_LOCK, advisoryLock } from './migrations.js';
import { plainValue } from './values.js';
import { assertColumnNamesFit, ONE_STATEMENT } from '../sql-guard.js';

/**
 * The role untrusted SQL runs as, one per database and schema (the schema named unless it is
 * `public`): it can read that schema's observations and sources only.
 */
export function queryRole(database: string, schema = 'public'): string {
  const plain = (name: string): string => name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (schema === 'public') return `fxrates_query_${plain(database)}`.slice(0, 63);
  // Roles belong to the whole cluster: a hash of both names keeps apart what their plain
  // spelling (or its cut at 63 characters) would not ("fx" + "eu" and "fx_eu" + public).
  const hash = createHash('sha256').update(`${database}\0${schema}`).digest('hex').slice(0, 8);
  return `fxrates_query_${plain(database)}_${plain(schema)}`.slice(0, 54) + `_${hash}`;
}
/** Largest single row that may come back, in bytes. */
const MAX_ROW_BYTES = 1024 ** 2;
const BATCH_ROWS = 500;
/** After a failed setup, the next query tries again once this much time has passed. */
const RETRY_SETUP_MS = 30_000;
/**
 * A statement's statement_timeout is its time left plus this: PostgreSQL stops it itself when
 * the cancel from outside, which comes first, cannot be sent.
 */
const STATEMENT_TIMEOUT_MARGIN_MS = 1_000;
/** After the cancel, a statement still running is ended this much later, its connection too. */
const END_AFTER_CANCEL_MS = 2_000;

/**
 * The role's settings and grants; the service applies them itself when it may. The service's
 * user is made a member of the role: pg_cancel_backend and pg_terminate_backend from a user
 * that is not a superuser reach only the backends of roles whose privileges it has.
 */
function roleSettings(role: string, schema: string, user: string): string[] {
  return [
    `ALTER ROLE ${role} SET default_transaction_read_only = on`,
    `ALTER ROLE ${role} SET search_path = ${schema}`,
    `ALTER ROLE ${role} SET work_mem = '16MB'`,
    `ALTER ROLE ${role} SET statement_timeout = '10min'`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
    `GRANT SELECT ON ${schema}.observations, ${schema}.sources TO ${role}`,
    `GRANT ${role} TO ${user}`,
  ];
}

/** What an administrator runs when the service's user may not create roles (README has it too). */
export function roleSql(role: string, schema: string, user: string): string {
  return [
    `CREATE ROLE ${role} LOGIN PASSWORD '<choose one>'`,
    ...roleSettings(role, schema, user),
    `ALTER ROLE ${role} SET temp_file_limit = '256MB'`,
  ].join('; ');
}

/**
 * The query sandbox of a PostgreSQL store (CONTRACT §7): the database backend is the separate
 * process. Statements run on connections of their own, logged in as a role that may only read
 * `observations` and `sources`, in a READ ONLY transaction that is rolled back; the time limit
 * is enforced from outside (pg_cancel_backend on a timer; a statement that goes on has its
 * connection closed and its backend terminated) and, as a backstop, inside: the transaction's
 * statement_timeout, which the statement cannot change (see REFUSED_FUNCTIONS). Rows come
 * back through a cursor under a row, byte and row-size cap. The role's password is kept in a
 * table only the service's user can read.
 */
export class PostgresSandbox {
  private pool: pg.Pool | undefined;
  private problem: string | undefined;
  private ready: Promise<void> | undefined;
  private failedAt = 0;
  private cancelWarned = false;

  constructor(
    private readonly url: string,
    private readonly admin: pg.Pool,
    private readonly workers: number,
    /** A URL for the query role given by the operator (FXRATES_QUERY_DB), if any. */
    private readonly queryUrl: string | undefined,
    private readonly warn?: (message: string) => void,
  ) {}

  start(): Promise<void> {
    if (!this.pool && this.ready && Date.now() - this.failedAt > RETRY_SETUP_MS) {
      this.ready = undefined;
    }
    this.ready ??= this.prepare().catch((error: unknown) => {
      this.problem = (error as Error).message;
      this.failedAt = Date.now();
      this.warn?.(`query sandbox unavailable: ${this.problem}`);
    });
    return this.ready;
  }

  private async prepare(): Promise<void> {
    const url = this.queryUrl ?? (await this.setUpRole());
    const pool = connectionPool({ ...clientConfig(url, 'query'), max: this.workers });
    // Fails here, with the reason, when the role cannot log in (pg_hba.conf, a wrong URL).
    const probe = await pool.connect().catch(async (error: unknown) => {
      await pool.end().catch(() => undefined);
      throw new Error(
        `the query role cannot connect to ${describeUrl(url)}: ${(error as Error).message}`,
      );
    });
    probe.release();
    this.pool = pool;
    this.problem = undefined;
  }

  /** Creates (or updates) the query role, and returns a URL that logs in as it. */
  private async setUpRole(): Promise<string> {
    const client = await this.admin.connect();
    try {
      const { rows } = await client.query<{ user: string; schema: string; database: string }>(
        'SELECT current_user AS user, current_schema() AS schema, current_database() AS database',
      );
      const { user, schema, database } = rows[0]!;
      const role = queryRole(database, schema);
      let secret: string;
      try {
        await client.query('BEGIN');
        // Replicas starting together take turns.
        const lock = advisoryLock(ROLE_LOCK, schema);
        await client.query(`SELECT pg_advisory_xact_lock(${lock.args})`, lock.params);
        const stored = await client.query<{ password: string }>(
          'SELECT password FROM sandbox_credentials WHERE role = $1',
          [role],
        );
        const exists =
          (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount === 1;
        secret = stored.rows[0]?.password ?? '';
        if (!secret || !exists) {
          secret = randomBytes(24).toString('base64url');
          await client.query(
            `${exists ? 'ALTER' : 'CREATE'} ROLE ${role} LOGIN PASSWORD '${secret}'`,
          );
          await client.query(
            `INSERT INTO sandbox_credentials VALUES ($1, $2)
             ON CONFLICT (role) DO UPDATE SET password = EXCLUDED.password`,
            [role, secret],
          );
        }
        for (const statement of roleSettings(role, ident(schema), ident(user))) {
          await client.query(statement);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(
          `the database user ${user} cannot set up the query role (${(error as Error).message}). ` +
            `An administrator must run: ${roleSql(role, ident(schema), ident(user))}; ` +
            `then start the service with FXRATES_QUERY_DB set to a postgres:// URL that logs in as ${role}`,
        );
      }
      // Only a superuser may cap temporary files; without it, work_mem still bounds each sort.
      await client
        .query(`ALTER ROLE ${role} SET temp_file_limit = '256MB'`)
        .catch(() =>
          this.warn?.(
            `query sandbox: temporary files of ${role} are not capped: a superuser can run ALTER ROLE ${role} SET temp_file_limit = '256MB'`,
          ),
        );
      const parsed = new URL(this.url);
      parsed.username = role;
      parsed.password = secret;
      return parsed.toString();
    } finally {
      client.release();
    }
  }

  async run(sql: string, limits: SandboxLimits): Promise<QueryResultSet> {
    assertNoRefusedFunctions(sql);
    await this.start();
    if (!this.pool) throw new SandboxUnavailable(this.problem ?? 'the query sandbox is not ready');
    const remaining = limits.deadline - Date.now();
    if (remaining <= 0) throw new SandboxTimeout('the time limit ran out while the query waited');
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw new SandboxUnavailable(`the database cannot be reached: ${(error as Error).message}`);
    }
    // A statement may end its own backend (pg_terminate_backend(pg_backend_pid())), or another
    // worker's: the connection's error then arrives here, not as the process's end.
    let broken = false;
    const onError = (): void => {
      broken = true;
    };
    client.on('error', onError);
    const pid = (client as unknown as { processID: number }).processID;
    let timedOut = false;
    let settled = false;
    // Closing the socket from this side fails the statement's promise at once, whatever the
    // backend does; the backend ends when it next talks to it, at its statement_timeout at the
    // latest.
    const abandon = (): void => {
      if (settled) return;
      broken = true;
      (
        client as unknown as { connection: { stream: { destroy(): void } } }
      ).connection.stream.destroy();
    };
    let ending: NodeJS.Timeout | undefined;
    // From outside the statement: a statement may change its own settings, not this timer.
    const timer = setTimeout(() => {
      timedOut = true;
      void this.cancel(pid).then((failure) => {
        // Unless the statement has ended meanwhile (its backend with it, when it timed out).
        if (failure === undefined || settled) return;
        void this.cannotCancel(failure);
        abandon();
      });
      // A backend that ignores the cancel (it should not), or a cancel still not sent.
      ending = setTimeout(() => {
        if (settled) return;
        void this.admin.query('SELECT pg_terminate_backend($1)', [pid]).catch(() => undefined);
        abandon();
      }, END_AFTER_CANCEL_MS).unref();
    }, remaining);
    try {
      // At least 1 ms: 0 would turn the timeout off.
      const backstop = Math.max(
        1,
        Math.ceil(limits.deadline - Date.now()) + STATEMENT_TIMEOUT_MARGIN_MS,
      );
      await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${backstop}`);
      return await this.read(client, sql, limits, () => broken);
    } catch (error) {
      if (error instanceof SandboxRejection) throw error;
      const code = (error as { code?: string }).code;
      if (timedOut || (code === '57014' && /statement timeout/.test((error as Error).message))) {
        throw new SandboxTimeout('the query was stopped at the time limit');
      }
      if (code === undefined || isConnectionFailure(error)) {
        throw new SandboxUnavailable(`the query failed: ${(error as Error).message}`);
      }
      if (code === '42601' && isSecondStatement(sql, error))
        throw new SandboxRejection(ONE_STATEMENT);
      throw new SandboxRejection((error as Error).message.split('\n')[0]!);
    } finally {
      clearTimeout(timer);
      clearTimeout(ending);
      try {
        // A connection whose statement ran past the limit is not used again: a cancel still on
        // its way would stop the next statement on it.
        if (broken || timedOut) throw new Error('the connection broke or ran past the limit');
        await client.query('ROLLBACK');
        // What a statement can leave in its session past the rollback: advisory locks (which
        // would hold the ingest lease or the migrations' lock), settings made with set_config.
        await client.query('DISCARD ALL');
        settled = true;
        client.off('error', onError);
        client.release();
      } catch {
        settled = true;
        client.off('error', onError);
        client.release(true);
      }
    }
  }

  /** Cancels backend `pid`'s statement from the service's own connection: why it could not. */
  private cancel(pid: number): Promise<string | undefined> {
    return this.admin.query<{ sent: boolean }>('SELECT pg_cancel_backend($1) AS sent', [pid]).then(
      ({ rows }) => (rows[0]?.sent ? undefined : 'pg_cancel_backend returned false'),
      (error: unknown) => (error as Error).message,
    );
  }

  /**
   * Says once that cancels fail (the service's user may not signal the query role), why, and
   * the GRANT that lets it.
   */
  private async cannotCancel(why: string): Promise<void> {
    if (this.cancelWarned) return;
    this.cancelWarned = true;
    const currentUser = async (pool: pg.Pool | undefined): Promise<string> =>
      ident((await pool!.query<{ name: string }>('SELECT current_user AS name')).rows[0]!.name);
    const grant = await Promise.all([currentUser(this.pool), currentUser(this.admin)]).then(
      ([role, user]) => `GRANT ${role} TO ${user}`,
      () => 'GRANT <the query role> TO <the service user>',
    );
    this.warn?.(
      `query sandbox: a statement past the time limit could not be cancelled (${why}); ` +
        `its connection is closed instead and PostgreSQL stops it at its statement_timeout. ` +
        `For cancels to work, an administrator can run: ${grant}`,
    );
  }

  private async read(
    client: pg.PoolClient,
    sql: string,
    limits: SandboxLimits,
    broken: () => boolean,
  ): Promise<QueryResultSet> {
    const statement = sql.trim().replace(/;\s*$/, '');
    // Each row is measured in the backend and refused there when it is too large to send.
    const size = 'pg_column_size(fxrates_sandbox_row.*)';
    const wrapped = `${WRAPPED_START}${statement}\n) AS fxrates_sandbox_row
      WHERE CASE WHEN ${size} > ${MAX_ROW_BYTES}
        THEN CAST('row of ' || ${size} || ' bytes, over the cap of ${MAX_ROW_BYTES}' AS INTEGER) = 0
        ELSE TRUE END`;
    const cursor = client.query(new Cursor(wrapped, [], { rowMode: 'array' }));
    const rows: SqlValue[][] = [];
    let columns: string[] = [];
    let bytes = 0;
    let cut: QueryResultSet['cut'] = null;
    let failed = false;
    try {
      for (;;) {
        const { batch, fields } = await new Promise<{ batch: unknown[][]; fields: string[] }>(
          (resolve, reject) =>
            cursor.read(BATCH_ROWS, (error, batch, result) =>
              error
                ? reject(error)
                : resolve({
                    batch: batch as unknown[][],
                    fields: (result?.fields ?? []).map((field) => field.name),
                  }),
            ),
        );
        if (fields.length > 0 && columns.length === 0) {
          columns = fields;
          bytes = assertColumnNamesFit(columns, limits.maxBytes);
        }
        if (batch.length === 0) break;
        for (const raw of batch) {
          if (rows.length >= limits.maxRows) {
            cut = 'rows';
            break;
          }
          const row = raw.map(plainValue);
          const size = row.reduce<number>((sum, value) => sum + sizeOf(value), 0);
          if (bytes + size > limits.maxBytes) {
            cut = 'bytes';
            break;
          }
          bytes += size;
          rows.push(row);
        }
        if (cut) break;
      }
    } catch (error) {
      // The statement failed: its portal is gone, and on a connection that broke a close would
      // wait for an answer that never comes.
      failed = !(error instanceof SandboxRejection);
      throw error;
    } finally {
      if (!failed && !broken()) await new Promise<void>((resolve) => cursor.close(() => resolve()));
    }
    return { columns, rows, cut };
  }

  async close(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
  }
}

/** What comes before the statement in the one the backend runs (see read). */
const WRAPPED_START = 'SELECT fxrates_sandbox_row.* FROM (\n';

/**
 * Whether a syntax error is at a `;` of the statement followed (past comments) by a keyword:
 * the start of a second statement, which PostgreSQL reports as a syntax error at the `;` of
 * the statement wrapped in read(). (A `;` inside an expression, `(1; )`, stays a syntax error.)
 */
function isSecondStatement(sql: string, error: unknown): boolean {
  const position = Number((error as { position?: string }).position);
  const statement = sql.trim();
  const at = position - 1 - WRAPPED_START.length;
  if (!Number.isInteger(at) || statement[at] !== ';') return false;
  const rest = statement
    .slice(at + 1)
    .replace(/--[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/;/g, '');
  return /^[A-Za-z]/.test(rest.trim());
}

/**
 * Functions a statement of the query role must not call, as patterns of whole names, with why.
 * PostgreSQL grants the built-in ones to PUBLIC, so no grant can take them from this role alone.
 */
const REFUSED_FUNCTIONS: [name: string, why: string][] = [
  // It could raise its own work_mem past the role's 16MB (and sort gigabytes in the shared
  // database's memory) or lift its statement_timeout.
  ['set_config', "set_config is not allowed: the settings are the query role's"],
  // pg_advisory_lock and the rest: a statement holding the ingest lease's or the migrations'
  // lock, again and again, would keep every replica from ingesting or starting.
  ['pg_(try_)?advisory_\\w*', 'advisory locks are not allowed: the service uses them'],
  // They run SQL given as text, which no check of this text could see: set_config spelt
  // 'set' || '_config', for one. (The last ones come with extensions, when installed.)
  ['query_to_xml\\w*', 'query_to_xml is not allowed: it runs SQL given as text'],
  ['cursor_to_xml\\w*', 'cursor_to_xml is not allowed: it runs SQL given as text'],
  ['ts_stat', 'ts_stat is not allowed: it runs SQL given as text'],
  ['ts_rewrite', 'ts_rewrite is not allowed: it runs SQL given as text'],
  ['dblink\\w*', 'dblink is not allowed: it runs SQL given as text'],
  ['crosstab\\w*', 'crosstab is not allowed: it runs SQL given as text'],
  ['xpath_table', 'xpath_table is not allowed: it runs SQL given as text'],
];

/** Each name with no character of an unquoted SQL name on either side. */
const REFUSED = REFUSED_FUNCTIONS.map(
  ([name, why]) => [new RegExp(`(?<![a-z0-9_$])${name}(?![a-z0-9_$])`), why] as const,
);

/**
 * Refuses a statement naming one of REFUSED_FUNCTIONS as a whole name: in any case, quoted or
 * not (comments cannot split a name: they end a token), so that other names containing theirs
 * (counts_stats) pass. Unicode-escaped names (U&"...") are refused, as they could spell one
 * otherwise.
 */
function assertNoRefusedFunctions(sql: string): void {
  const text = sql.toLowerCase().replaceAll('"', '');
  for (const [pattern, why] of REFUSED) {
    if (pattern.test(text)) throw new SandboxRejection(why);
  }
  if (/u&"/i.test(sql)) {
    throw new SandboxRejection('Unicode-escaped names (U&"...") are not allowed');
  }
}

function sizeOf(value: SqlValue): number {
  return typeof value === 'string' ? value.length + 2 : 8;
}

/** A name as a quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
