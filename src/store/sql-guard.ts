import { SandboxRejection } from './store.js';

export const MAX_SQL_LENGTH = 100_000;

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
