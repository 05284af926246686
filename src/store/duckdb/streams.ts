import { ResultReturnType, type DuckDBConnection, type DuckDBResult } from '@duckdb/node-api';

/**
 * Whether a streamed result stopped because its statement failed part way (a corrupt block, a
 * value that does not convert, `error()`), rather than because every row was read: the engine
 * ends both with an empty chunk, and only the result's return type tells them apart.
 */
export function streamFailed(result: DuckDBResult): boolean {
  return result.returnType === ResultReturnType.INVALID;
}

/**
 * Fails with the error of a statement whose stream failed part way. A stream keeps the engine's
 * reason to itself, so the statement is computed again to a count over a hash of each column
 * (every column computed, nothing held), which fails with the engine's own message.
 */
export async function throwStreamFailure(
  connection: DuckDBConnection,
  sql: string,
): Promise<never> {
  await connection.run(`SELECT count(*) FROM (\n${sql}\n) WHERE hash(COLUMNS(*)) IS NOT NULL`);
  // Computed in one piece, it holds next to nothing: what the rows read held was the likely cause.
  throw new Error(
    'the statement failed while its rows were read, possibly for want of memory; no partial result is used',
  );
}
