import { SandboxRejection } from './store.js';

export const MAX_SQL_LENGTH = 100_000;

/** What a query of several statements (or a SELECT followed by another kind) is told. */
export const ONE_STATEMENT = 'exactly one statement, a read-only SELECT, is allowed';

/** Leading keywords of the statements the sandbox runs: plain queries, nothing that only looks like one. */
const QUERY_STARTS = new Set(['SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE']);

/**
 * The first check on untrusted SQL, before any engine sees it: a size cap and a statement that
 * starts like a query. Engines also rewrite some other statements into SELECTs (DuckDB runs
 * `PRAGMA version` or `SHOW TABLES` as one), which is why the statement type alone is not enough.
 */
export function assertReadOnlySelect(sql: string): void {
  if (sql.length > MAX_SQL_LENGTH) {
    throw new SandboxRejection(`the query is longer than ${MAX_SQL_LENGTH} characters`);
  }
  // The engines read SQL as a C string: a NUL would silently end the statement there.
  if (sql.includes('\0')) {
    throw new SandboxRejection('the query holds a NUL character (%00), which SQL text cannot');
  }
  const keyword = /^[A-Za-z]+/.exec(stripLeadingNoise(sql))?.[0]?.toUpperCase();
  if (!keyword || !QUERY_STARTS.has(keyword)) {
    throw new SandboxRejection(
      `only read-only SELECT statements are allowed${keyword ? `, not ${keyword}` : ''}`,
    );
  }
}

function stripLeadingNoise(sql: string): string {
  let rest = sql;
  for (;;) {
    const trimmed = rest.replace(/^[\s(]+/, '');
    if (trimmed.startsWith('--')) {
      const end = trimmed.indexOf('\n');
      rest = end < 0 ? '' : trimmed.slice(end + 1);
    } else if (trimmed.startsWith('/*')) {
      const end = trimmed.indexOf('*/');
      rest = end < 0 ? '' : trimmed.slice(end + 2);
    } else {
      return trimmed;
    }
  }
}

/**
 * Refuses a result whose column names alone pass the byte cap: they are part of every answer
 * (and of every json row), so they count like the rows do.
 */
export function assertColumnNamesFit(columns: readonly string[], maxBytes: number): number {
  let bytes = 0;
  for (const name of columns) bytes += Buffer.byteLength(name) + 4;
  if (bytes > maxBytes) {
    throw new SandboxRejection(
      `the result's ${columns.length} column names take ${bytes} bytes, more than the ${maxBytes} an answer may hold: name the columns shorter`,
    );
  }
  return bytes;
}
