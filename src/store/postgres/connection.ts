import pg from 'pg';
import { replicaName } from '../../replica.js';
import { TYPE_PARSERS } from './values.js';

/** host:port/database of a postgres:// URL, for messages (never the password). */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || process.env.PGHOST || 'localhost';
    const port = parsed.port || '5432';
    const database = decodeURIComponent(parsed.pathname.slice(1)) || parsed.username || 'postgres';
    return `host ${host}, port ${port}, database ${database}`;
  } catch {
    return 'an unreadable postgres:// URL';
  }
}

const SERVER_KEEPALIVES =
  '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 -c tcp_user_timeout=30000';

/** Every connection: UTC session (so TIMESTAMP is UTC), named for pg_stat_activity. */
export function clientConfig(url: string, role: string): pg.ClientConfig {
  // Options the URL gives (`?options=-c search_path=...`) would replace these altogether: they
  // come first, and these after them.
  let connectionString = url;
  let given = '';
  try {
    const parsed = new URL(url);
    given = parsed.searchParams.get('options') ?? '';
    if (given) {
      parsed.searchParams.delete('options');
      connectionString = parsed.toString();
    }
  } catch {
    // Unreadable: the driver says why when it connects.
  }
  return {
    connectionString,
    types: TYPE_PARSERS,
    // Sorts of a long range stay in memory (the query role has its own, smaller limit). No JIT
    // compilation: the planner counts 1,000 days for each generate_series of a range statement,
    // and past its cost threshold compiles the statement for longer than it runs. A one-year ECB
    // range in EUR took 59 ms with it and 37 without, `/all` in EUR 1.30 s and 0.57 s.
    //
    // A peer gone without a word (its machine or network) is found out within about half a
    // minute on both sides, not after the system's two hours: the server probes an idle
    // connection after 10 s, every 5 s, three times (and gives up on data unacknowledged for
    // 30 s), so that the ingest lease of a vanished replica is freed; this side probes too.
    options: [
      given,
      '-c TimeZone=UTC -c DateStyle=ISO',
      role === 'query' ? '' : '-c work_mem=32MB -c jit=off',
      SERVER_KEEPALIVES,
    ]
      .filter((part) => part !== '')
      .join(' '),
    application_name: `fxrates ${role} ${replicaName()}`,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/** One line for a connection problem: what went wrong and where, never a stack trace. */
export function connectionProblem(error: unknown, url: string): Error {
  const where = describeUrl(url);
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused (is PostgreSQL running and listening there?)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code === '28P01' || code === '28000'
          ? `authentication failed (${message})`
          : code === '3D000'
            ? `the database does not exist (create it: createdb)`
            : message;
  return new Error(`cannot connect to PostgreSQL at ${where}: ${why}`);
}

/** Network errors of a connection that cannot be made or broke: the server down or out of reach. */
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server shutting down or not accepting connections yet. */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);
/** What the pg driver says when a connection ends, times out, or broke before (no code). */
const DRIVER_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect$|timeout expired$|Client has encountered a connection error)/;

/**
 * Whether `error` says the database cannot be reached now (refused, reset, terminated, a
 * connect timeout, a server shutting down or starting: SQLSTATE class 08 and 57P01-57P03),
 * rather than that a statement failed: the former passes when the server is back, the latter
 * is a bug to report as one.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string') {
    return (
      NETWORK_ERRORS.has(code) ||
      code.startsWith('08') ||
      SERVER_GOING_AWAY.has(code) ||
      // Any failed connect: a Unix socket whose file is gone with its server too (ENOENT).
      syscall === 'connect'
    );
  }
  return DRIVER_CONNECTION_MESSAGES.test(error.message);
}

/**
 * A pool whose connections never end the process: a connection the server drops (a restart,
 * `pg_terminate_backend`, the network) emits an error event, and on one in use nothing else
 * listens (the pool only listens to idle ones). Its statement fails with its own error, and the
 * pool replaces the connection once it is released.
 */
export function connectionPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const clients = new Set<pg.PoolClient>();
  poolClients.set(pool, clients);
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    clients.add(client);
    client.on('error', () => undefined);
  });
  pool.on('remove', (client) => clients.delete(client));
  return pool;
}

/** The open connections of each pool made by connectionPool. */
const poolClients = new WeakMap<pg.Pool, Set<pg.PoolClient>>();

/**
 * Closes every connection of `pool` on this side at once, in use or idle, without a word to the
 * server, for a network gone silent: the statements waiting on them fail now as connection
 * failures (instead of when the system's keepalives give up, after minutes), and the pool opens
 * new connections for the next ones.
 */
export function dropConnections(pool: pg.Pool): void {
  for (const client of poolClients.get(pool) ?? []) dropClient(client);
}

/** Closes one connection on this side (see dropConnections). */
export function dropClient(client: pg.Client): void {
  (
    client as unknown as { connection?: { stream?: { destroy(): void } } }
  ).connection?.stream?.destroy();
}
