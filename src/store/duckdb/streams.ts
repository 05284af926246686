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
 * The error of a statement whose stream failed part way. A stream keeps the engine's reason to
 * itself, so the statement is computed again to a count over a hash of each whole row (every
 * column read and computed, nothing held), which fails with the engine's own message.
 */
export async function streamFailure(connection: DuckDBConnection, sql: string): Promise<Error> {
  try {
    await connection.run(`SELECT count(*) FROM (\n${sql}\n) AS q WHERE hash(q) IS NOT NULL`);
  } catch (error) {
    if (error instanceof Error) return error;
  }
  return new Error(
    'the statement failed while its rows were read, and not when computed again; no partial result is used',
  );
}
