import { parseArgs } from 'node:util';
import { DEFAULT_QUERY_MAX_ROWS, DEFAULT_QUERY_TIMEOUT_MS } from './app.js';
import { DEFAULT_MEMORY_LIMIT } from './store/duckdb/duckdb-store.js';

/** A command-line or environment mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export interface ServeConfig {
  db: string;
  port: number;
  host: string;
  ingest: boolean;
  memoryLimit: string;
  queryTimeoutMs: number;
  queryMaxRows: number;
}

export interface ImportConfig {
  db: string;
  memoryLimit: string;
  files: string[];
}

export const DEFAULT_DB = './data/fxrates.duckdb';
type Env = Readonly<Record<string, string | undefined>>;

/** `fxrates serve` settings: flags win over environment variables, which win over defaults. */
export function serveConfig(args: string[], env: Env): ServeConfig {
  const { values, positionals } = parse(args, {
    db: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'no-ingest': { type: 'boolean' },
  });
  if (positionals.length > 0)
    throw new UsageError(`serve takes no arguments, got '${positionals[0]}'`);
  return {
    db: nonEmpty(values.db ?? env.FXRATES_DB, DEFAULT_DB),
    port: integerSetting('port', values.port ?? env.PORT, 8080, 0, 65_535),
    host: nonEmpty(values.host ?? env.HOST, '127.0.0.1'),
    ingest: !values['no-ingest'],
    memoryLimit: memoryLimit(env),
    queryTimeoutMs: integerSetting(
      'FXRATES_QUERY_TIMEOUT_MS',
      env.FXRATES_QUERY_TIMEOUT_MS,
      DEFAULT_QUERY_TIMEOUT_MS,
      1,
      3_600_000,
    ),
    queryMaxRows: integerSetting(
      'FXRATES_QUERY_MAX_ROWS',
      env.FXRATES_QUERY_MAX_ROWS,
      DEFAULT_QUERY_MAX_ROWS,
      1,
      10_000_000,
    ),
  };
}

/** `fxrates import` settings. */
export function importConfig(args: string[], env: Env): ImportConfig {
  const { values, positionals } = parse(args, { db: { type: 'string' } });
  if (positionals.length === 0) throw new UsageError('import needs at least one FILE');
  return {
    db: nonEmpty(values.db ?? env.FXRATES_DB, DEFAULT_DB),
    memoryLimit: memoryLimit(env),
    files: positionals,
  };
}

function parse<T extends Record<string, { type: 'string' | 'boolean' }>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function memoryLimit(env: Env): string {
  const limit = nonEmpty(env.FXRATES_MEMORY_LIMIT, DEFAULT_MEMORY_LIMIT);
  if (!/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(limit)) {
    throw new UsageError(`FXRATES_MEMORY_LIMIT '${limit}' is not a size such as 512MB or 2GB`);
  }
  return limit;
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
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
    throw new UsageError(`${name} '${value}' is not a whole number from ${min} to ${max}`);
  }
  return number;
}
