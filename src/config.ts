import { parseArgs } from 'node:util';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from './app.js';
import { isCalendarDate } from './dates.js';
import type { Env } from './env.js';
import type { HttpPolicy } from './sources/http-client.js';
import { SOURCES, findSource } from './sources/registry.js';
import { clip } from './params/raw-params.js';
import { ORIGIN_PREFIX, originProblem } from './ingest/ingest-source.js';
import { DEFAULT_MAX_CONCURRENT_RUNS } from './ingest/scheduler.js';
import {
  DEFAULT_MEMORY_LIMIT,
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxSettings,
  type StoreOptions,
} from './store/store.js';
import { DEFAULT_CONNECTION_LIMITS } from './http/server-guards.js';
import { isPostgresUrl, redactUrl } from './store/open.js';

/** A command-line or environment mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** Pino's levels, the values LOG_LEVEL takes. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** How `fxrates serve` writes its log: readable lines, or one JSON object a line. */
export type LogFormat = 'pretty' | 'json';

/** The engine settings every command opens its stores with. */
export interface EngineSettings {
  memoryLimit: string;
  /** DuckDB engine threads (FXRATES_THREADS); the engine's default when unset. */
  threads?: number;
}

/** The store options of a command's engine settings, and no other of its settings. */
export function engineOptions(settings: EngineSettings): StoreOptions {
  return { memoryLimit: settings.memoryLimit, threads: settings.threads };
}

export interface ServeConfig extends EngineSettings {
  db: string;
  port: number;
  host: string;
  ingest: boolean;
  /** DuckDB engine threads: FXRATES_THREADS, else SERVE_THREADS. */
  threads: number;
  query: QueryLimits;
  sandbox: SandboxSettings;
  /** PostgreSQL: a URL that logs in as the query role, when the service may not create it. */
  queryDb?: string;
  /** PostgreSQL: how often a replica that does not ingest tries to take the ingest lease. */
  leaseRetryMs: number;
  /** Sources the scheduler keeps current: every registered one unless FXRATES_INGEST_SOURCES names some. */
  ingestSources?: string[];
  /** Publisher runs at once at most (FXRATES_INGEST_CONCURRENCY). */
  ingestConcurrency: number;
  maxConnections: number;
  http: Partial<HttpPolicy>;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** FXRATES_MALLOC=system: the C library's malloc by choice, which the log at start leaves be. */
  systemMalloc: boolean;
}

export interface IngestConfig extends EngineSettings {
  db: string;
  /** Source keys to ingest, all registered sources when none were named. */
  sources: string[];
  from?: string;
  to?: string;
  http: Partial<HttpPolicy>;
}

export interface ImportConfig extends EngineSettings {
  db: string;
  files: string[];
}

export const DEFAULT_DB = './data/fxrates.duckdb';

/** Each command's options, as node:util's parser takes them. */
const COMMAND_OPTIONS = {
  serve: {
    db: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'no-ingest': { type: 'boolean' },
  },
  ingest: { db: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  import: { db: { type: 'string' } },
  copy: { from: { type: 'string' }, to: { type: 'string' } },
} as const;

/**
 * True when the arguments of `command` ask for help (--help or -h before a `--` that ends the
 * options). The value of an option is not a request for help: `serve --host -h` is a mistake.
 */
export function asksForHelp(command: string, args: string[]): boolean {
  const options = Object.hasOwn(COMMAND_OPTIONS, command)
    ? COMMAND_OPTIONS[command as keyof typeof COMMAND_OPTIONS]
    : {};
  const { tokens } = parseArgs({
    args,
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  return tokens.some(
    (token) => token.kind === 'option' && token.name === 'help' && token.value === undefined,
  );
}

/**
 * `fxrates serve` settings: flags win over environment variables, which win over defaults.
 * `terminal` says whether the log goes to a terminal (readable lines unless LOG_FORMAT=json).
 */
export function serveConfig(args: string[], env: Env, terminal = false): ServeConfig {
  const { values, positionals } = parse(args, COMMAND_OPTIONS.serve);
  checkOrigins(env);
  if (positionals.length > 0)
    throw new UsageError(`serve takes no arguments, got '${positionals[0]}'`);
  return {
    db: database(values.db, env),
    port: integerSetting('port', values.port ?? env.PORT, 8080, 0, 65_535),
    host: nonEmpty(values.host ?? env.HOST, '127.0.0.1'),
    ingest: !values['no-ingest'],
    memoryLimit: memoryLimit(env),
    threads: threads(env) ?? SERVE_THREADS,
    query: {
      timeoutMs: integerSetting(
        'FXRATES_QUERY_TIMEOUT_MS',
        env.FXRATES_QUERY_TIMEOUT_MS,
        DEFAULT_QUERY_LIMITS.timeoutMs,
        1,
        3_600_000,
      ),
      maxRows: integerSetting(
        'FXRATES_QUERY_MAX_ROWS',
        env.FXRATES_QUERY_MAX_ROWS,
        DEFAULT_QUERY_LIMITS.maxRows,
        1,
        10_000_000,
      ),
      maxBytes: integerSetting(
        'FXRATES_QUERY_MAX_BYTES',
        env.FXRATES_QUERY_MAX_BYTES,
        DEFAULT_QUERY_LIMITS.maxBytes,
        1024,
        1024 ** 3,
      ),
      maxWaiting: integerSetting(
        'FXRATES_QUERY_QUEUE',
        env.FXRATES_QUERY_QUEUE,
        DEFAULT_QUERY_LIMITS.maxWaiting,
        0,
        10_000,
      ),
    },
    sandbox: {
      ...DEFAULT_SANDBOX_SETTINGS,
      workers: integerSetting(
        'FXRATES_QUERY_WORKERS',
        env.FXRATES_QUERY_WORKERS,
        DEFAULT_SANDBOX_SETTINGS.workers,
        1,
        64,
      ),
      // A sandbox process (Node with the engine) needs about 200 MB to start and run.
      memoryBytes: sizeSetting(
        'FXRATES_QUERY_MEMORY',
        env.FXRATES_QUERY_MEMORY,
        DEFAULT_SANDBOX_SETTINGS.memoryBytes,
        256,
      ),
    },
    queryDb: env.FXRATES_QUERY_DB?.trim() || undefined,
    leaseRetryMs: integerSetting(
      'FXRATES_LEASE_RETRY_MS',
      env.FXRATES_LEASE_RETRY_MS,
      10_000,
      100,
      60_000,
    ),
    ingestSources: sourceList('FXRATES_INGEST_SOURCES', env.FXRATES_INGEST_SOURCES),
    ingestConcurrency: integerSetting(
      'FXRATES_INGEST_CONCURRENCY',
      env.FXRATES_INGEST_CONCURRENCY,
      DEFAULT_MAX_CONCURRENT_RUNS,
      1,
      1_000,
    ),
    maxConnections: integerSetting(
      'FXRATES_MAX_CONNECTIONS',
      env.FXRATES_MAX_CONNECTIONS,
      DEFAULT_CONNECTION_LIMITS.maxConnections,
      1,
      1_000_000,
    ),
    http: httpPolicy(env),
    logLevel: logLevel(env.LOG_LEVEL),
    logFormat: logFormat(env.LOG_FORMAT, terminal),
    systemMalloc: env.FXRATES_MALLOC?.trim() === 'system',
  };
}

function logLevel(value: string | undefined): LogLevel {
  if (value === undefined || value.trim() === '') return 'info';
  const level = value.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`LOG_LEVEL '${clip(value)}' is not one of ${LOG_LEVELS.join(', ')}`);
  }
  return level as LogLevel;
}

function logFormat(value: string | undefined, terminal: boolean): LogFormat {
  if (value === undefined || value.trim() === '') return terminal ? 'pretty' : 'json';
  const format = value.trim().toLowerCase();
  if (format !== 'json' && format !== 'pretty') {
    throw new UsageError(`LOG_FORMAT '${clip(value)}' is not one of json, pretty`);
  }
  return format;
}

/** The registered key a source name stands for; a usage error naming the valid keys otherwise. */
function registeredKey(key: string, setting?: string): string {
  const source = findSource(key);
  if (!source) throw unknownSourceError(key, setting);
  return source.key;
}

/**
 * Every `FXRATES_ORIGIN_<KEY>` names a registered source in upper case and holds an http(s)
 * origin (scheme, host and port): a misspelt key, or a value that would be read otherwise than
 * written, is said at start, not found out as requests that go elsewhere or nowhere.
 */
function checkOrigins(env: Env): void {
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(ORIGIN_PREFIX) || !value) continue;
    const written = name.slice(ORIGIN_PREFIX.length);
    const key = registeredKey(written.toLowerCase(), name);
    if (written !== key.toUpperCase()) {
      throw new UsageError(`${name}: write it ${ORIGIN_PREFIX}${key.toUpperCase()}, in upper case`);
    }
    const problem = originProblem(name, value);
    if (problem) throw new UsageError(problem);
  }
}

/** The usage mistake of naming a source that is not registered: the valid keys follow. */
export function unknownSourceError(key: string, setting?: string): UsageError {
  return new UsageError(
    `${setting ? `${setting}: ` : ''}unknown source '${clip(key)}'; the sources are ${SOURCES.map(
      (s) => s.key,
    )
      .sort()
      .join(', ')}`,
  );
}

/** `fxrates ingest` settings; `today` is the UTC date (--from after it is a mistake). */
export function ingestConfig(
  args: string[],
  env: Env,
  today = new Date().toISOString().slice(0, 10),
): IngestConfig {
  const { values, positionals } = parse(args, COMMAND_OPTIONS.ingest);
  checkOrigins(env);
  const sources = positionals.map((key) => registeredKey(key));
  for (const [name, value] of [
    ['--from', values.from],
    ['--to', values.to],
  ] as const) {
    if (value !== undefined && !isCalendarDate(value)) {
      throw new UsageError(`${name} '${value}' is not a date (YYYY-MM-DD)`);
    }
  }
  if (values.from && values.from > today) {
    throw new UsageError(
      `--from ${values.from} is in the future (today is ${today} UTC): nothing is published yet`,
    );
  }
  if (values.from && values.to && values.from > values.to) {
    throw new UsageError(`--from ${values.from} is after --to ${values.to}`);
  }
  return {
    db: database(values.db, env),
    memoryLimit: memoryLimit(env),
    threads: threads(env),
    sources: [...new Set(sources)],
    from: values.from,
    to: values.to,
    http: httpPolicy(env),
  };
}

/** A comma-separated list of registered source keys, or undefined when unset. */
function sourceList(name: string, value: string | undefined): string[] | undefined {
  const keys = (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  // Empty, or commas alone: no list, as when it is not set (every source).
  if (keys.length === 0) return undefined;
  return [...new Set(keys.map((key) => registeredKey(key, name)))];
}

/** Request limits for ingestion, from the environment; unset ones keep their defaults. */
function httpPolicy(env: Env): Partial<HttpPolicy> {
  const policy: Partial<HttpPolicy> = {};
  const read = (name: string, min: number, max: number): number | undefined =>
    optionalInteger(name, env[name], min, max);
  const timeoutMs = read('FXRATES_HTTP_TIMEOUT_MS', 1, 3_600_000);
  const retries = read('FXRATES_HTTP_RETRIES', 0, 20);
  const politenessMs = read('FXRATES_POLITENESS_MS', 0, 600_000);
  if (timeoutMs !== undefined) policy.timeoutMs = timeoutMs;
  if (retries !== undefined) policy.retries = retries;
  if (politenessMs !== undefined) policy.politenessMs = politenessMs;
  return policy;
}

/** `fxrates import` settings. */
export function importConfig(args: string[], env: Env): ImportConfig {
  const { values, positionals } = parse(args, COMMAND_OPTIONS.import);
  if (positionals.length === 0) throw new UsageError('import needs at least one FILE');
  return {
    db: database(values.db, env),
    // An import streams through the engine, which spills what it does not hold: a small
    // memory limit keeps the process flat however large the file.
    memoryLimit: memoryLimit(env, IMPORT_MEMORY_LIMIT),
    threads: threads(env),
    files: positionals,
  };
}

function parse<T extends Record<string, { type: 'string' | 'boolean' }>>(
  args: string[],
  options: T,
) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(argumentProblem(error as Error & { code?: string }, args));
  }
  // An empty value is no value: it would otherwise stand for the default without a word.
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' && value.trim() === '') {
      throw new UsageError(`option '--${name}' needs a value`);
    }
  }
  return parsed;
}

/** node:util's parser explains at length; one short line says the same. */
function argumentProblem(error: Error & { code?: string }, args: string[]): string {
  const option = /'(-[^' ]*)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    return `unknown option '${clip(option)}'`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (/does not take an argument/.test(error.message)) return `option '${option}' takes no value`;
    // The parser takes a next argument that starts with '-' for an option, not for this value.
    const at = args.findIndex((arg, i) => arg === option && args[i + 1]?.startsWith('-'));
    if (/ambiguous/.test(error.message) && at >= 0) {
      const next = clip(args[at + 1]!);
      return `option '${option}' needs a value; to give it '${next}', write ${option}=${next}`;
    }
    return `option '${option}' needs a value`;
  }
  return error.message.split('\n')[0]!;
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** A size such as 512MB or 1GiB, in bytes, of at least `minimumMiB`. */
function sizeSetting(
  name: string,
  value: string | undefined,
  fallback: number,
  minimumMiB = 64,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(value.trim());
  const bytes = match
    ? Number(match[1]) * (SIZE_UNITS[match[2]!.toLowerCase()] ?? Number.NaN)
    : Number.NaN;
  if (!(bytes >= minimumMiB * 1024 ** 2)) {
    throw new UsageError(
      `${name} '${value}' is not a size of ${minimumMiB}MiB or more, such as 512MB or 2GB`,
    );
  }
  return Math.floor(bytes);
}

const IMPORT_MEMORY_LIMIT = '256MB';

function memoryLimit(env: Env, fallback = DEFAULT_MEMORY_LIMIT): string {
  const limit = nonEmpty(env.FXRATES_MEMORY_LIMIT, fallback);
  if (!/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(limit)) {
    throw new UsageError(`FXRATES_MEMORY_LIMIT '${limit}' is not a size such as 512MB or 2GB`);
  }
  // Below 64 MiB the engine cannot open the database: refused here in one line.
  sizeSetting('FXRATES_MEMORY_LIMIT', limit, 0);
  return limit;
}

/**
 * DuckDB threads of `fxrates serve`. A statement that answers a request is small: a one-date
 * statement reads one row group, a range window one or two, so a second engine thread has no
 * work to share and only hands the statement's steps between threads; one date took 2.3 ms with
 * one thread and 2.6-3.2 ms with two (`npm run bench:compare`, ECB set). Requests still run at
 * once, each statement on the thread that started it. Offline commands (ingest, import, copy)
 * keep the engine's default, one fewer than the cores: a bulk write has work to share.
 */
export const SERVE_THREADS = 1;

/** FXRATES_THREADS, when set: DuckDB engine threads. */
function threads(env: Env): number | undefined {
  return optionalInteger('FXRATES_THREADS', env.FXRATES_THREADS, 1, 1024);
}

/** The database of --db, else FXRATES_DB, else the default file. */
function database(flag: string | undefined, env: Env): string {
  return location(
    flag === undefined ? 'FXRATES_DB' : '--db',
    nonEmpty(flag ?? env.FXRATES_DB, DEFAULT_DB),
  );
}

/**
 * A store location as given: a DuckDB file path or a postgres:// URL. Any other scheme:// is
 * refused (a typo such as postgress:// would otherwise name a file in a folder 'postgress:').
 */
function location(name: string, value: string): string {
  if (/^[a-z][a-z\d+.-]+:\/\//i.test(value) && !isPostgresUrl(value)) {
    throw new UsageError(
      `${name} '${clip(redactUrl(value))}' is not a DuckDB file path or a postgres:// or postgresql:// URL`,
    );
  }
  return value;
}

function nonEmpty(value: string | undefined, fallback: string): string {
  return value === undefined || value.trim() === '' ? fallback : value;
}

function integerSetting(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  return optionalInteger(name, value, min, max) ?? fallback;
}

/** A whole number from `min` to `max`, or undefined when unset or blank. */
function optionalInteger(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
    throw new UsageError(`${name} '${value}' is not a whole number from ${min} to ${max}`);
  }
  return number;
}

export interface CopyConfig extends EngineSettings {
  from: string;
  to: string;
}

/** `fxrates copy` settings: two store locations, a file path or a postgres:// URL each. */
export function copyConfig(args: string[], env: Env): CopyConfig {
  const { values, positionals } = parse(args, COMMAND_OPTIONS.copy);
  if (positionals.length > 0)
    throw new UsageError(`copy takes no arguments, got '${positionals[0]}'`);
  if (!values.from || !values.to)
    throw new UsageError('copy needs --from LOCATION and --to LOCATION');
  if (values.from === values.to) throw new UsageError('copy --from and --to are the same store');
  return {
    from: location('--from', values.from),
    to: location('--to', values.to),
    memoryLimit: memoryLimit(env, IMPORT_MEMORY_LIMIT),
    threads: threads(env),
  };
}
