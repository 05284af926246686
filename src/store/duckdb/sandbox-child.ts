/**
 * The sandbox process of the query endpoint: it runs untrusted SQL on a read-only snapshot that
 * holds only `observations` and `sources`, under operating-system limits set by its parent (no
 * network, bounded memory and CPU, no file writes) and with an empty environment. The parent
 * kills it at the time limit; nothing here has to be trusted to stop.
 */
import {
  DuckDBInstance,
  DuckDBTypeId,
  StatementType,
  type DuckDBConnection,
} from '@duckdb/node-api';
import type { SqlValue } from '../store.js';
import { assertColumnNamesFit } from '../sql-guard.js';
import { REFUSED_TYPES, disallowedReferences } from './sql-allow-list.js';
import { streamFailed, throwStreamFailure } from './streams.js';
import { chunkRows, knownTypes, valueReader } from './values.js';

export interface ChildSettings {
  /** DuckDB memory limit inside the sandbox, e.g. '256MB'. */
  memoryLimit: string;
  threads: number;
}

export interface SandboxRequest {
  id: number;
  sql: string;
  /** The snapshot file to read; the process reopens when it changes. */
  snapshot: string;
  maxRows: number;
  /** Bytes of values returned at most (an estimate of the text they make). */
  maxBytes: number;
  /** Longest text of a single value; longer ones fail the statement before leaving the engine. */
  maxValueBytes: number;
}

export type SandboxReply =
  | {
      id: number;
      ok: true;
      columns: string[];
      rows: SqlValue[][];
      /** Why the rows stop early: more rows or more bytes than allowed. */
      cut: 'rows' | 'bytes' | null;
    }
  | { id: number; ok: false; message: string }
  /** Rows ahead of the reply: the parent takes them in pieces, never all in one message. */
  | { id: number; batch: SqlValue[][] };

/** Rows per message to the parent: each is decoded in one go on the serving process's thread. */
const ROWS_PER_MESSAGE = 4096;

/** DuckDB reports these when the database can no longer be used; the process then ends. */
const FATAL = /FATAL Error|database has been invalidated/i;

/** Column types turned into text inside the engine, where their size can be checked. */
const AS_TEXT = new Set([
  DuckDBTypeId.LIST,
  DuckDBTypeId.STRUCT,
  DuckDBTypeId.MAP,
  DuckDBTypeId.ARRAY,
  DuckDBTypeId.UNION,
  DuckDBTypeId.BLOB,
  DuckDBTypeId.BIT,
  DuckDBTypeId.TIME_TZ,
  DuckDBTypeId.TIME_NS,
  DuckDBTypeId.GEOMETRY,
  DuckDBTypeId.VARIANT,
]);

/**
 * Timestamps of other precisions, turned into TIMESTAMP inside the engine (which keeps the
 * infinities): every instant then reads as the rate answers write theirs (values.ts).
 */
const AS_TIMESTAMP = new Set([
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
]);

const settings = JSON.parse(process.argv[2] ?? '{}') as ChildSettings;
let database: { path: string; instance: DuckDBInstance } | undefined;

/**
 * A result left unread (cut at the caps) keeps its engine buffers until its JavaScript object is
 * collected: collect once the statement is done with, or the next statements run out of memory.
 */
function collect(): void {
  setImmediate(() => (globalThis as { gc?: () => void }).gc?.());
}

process.on('message', (message: SandboxRequest) => {
  run(message, (batch) => process.send!({ id: message.id, batch } satisfies SandboxReply))
    .finally(collect)
    .then(
      (reply) => process.send!(reply),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        process.send!({
          id: message.id,
          ok: false,
          message: firstLine(text),
        } satisfies SandboxReply);
        if (FATAL.test(text)) setImmediate(() => process.exit(70));
      },
    );
});
// The parent is gone (or dropped this process): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });

async function snapshotInstance(path: string): Promise<DuckDBInstance> {
  if (database?.path !== path) {
    database?.instance.closeSync();
    database = undefined;
    const instance = await DuckDBInstance.create(path, {
      access_mode: 'READ_ONLY',
      enable_external_access: 'false',
      autoload_known_extensions: 'false',
      autoinstall_known_extensions: 'false',
      allow_community_extensions: 'false',
      allow_unsigned_extensions: 'false',
      memory_limit: settings.memoryLimit,
      threads: String(settings.threads),
      max_temp_directory_size: '0B',
      lock_configuration: 'true',
    });
    database = { path, instance };
  }
  return database.instance;
}

async function run(
  request: SandboxRequest,
  send: (batch: SqlValue[][]) => void,
): Promise<SandboxReply> {
  const instance = await snapshotInstance(request.snapshot);
  const connection = await instance.connect();
  try {
    const refusal = await refusalOf(connection, request.sql);
    if (refusal) return { id: request.id, ok: false, message: refusal };
    const statements = await connection.extractStatements(request.sql);
    if (statements.count !== 1) {
      return { id: request.id, ok: false, message: 'exactly one statement is allowed' };
    }
    const prepared = await statements.prepare(0);
    if (prepared.statementType !== StatementType.SELECT) {
      return { id: request.id, ok: false, message: 'only SELECT statements are allowed' };
    }
    const columns = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
    const namesBytes = assertColumnNamesFit(columns, request.maxBytes);
    const types = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnTypeId(i));
    const refused = types.findIndex((type) => REFUSED_TYPES.has(DuckDBTypeId[type]));
    if (refused >= 0) {
      return {
        id: request.id,
        ok: false,
        message: `column ${columns[refused]} is of type ${DuckDBTypeId[types[refused]!]}, which the query endpoint does not return: cast it to DOUBLE or VARCHAR`,
      };
    }
    const floats = types.flatMap((type, index) => (type === DuckDBTypeId.FLOAT ? [index] : []));
    const statement = await boundedStatement(connection, request, types);
    const result = await (statement ? connection.stream(statement) : prepared.stream());
    const read = valueReader();
    const known = knownTypes(result);
    let rows: SqlValue[][] = [];
    let count = 0;
    let bytes = namesBytes;
    let cut: 'rows' | 'bytes' | null = null;
    reading: for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) {
        if (streamFailed(result)) {
          const failed = statement ?? (await printedBack(connection, request.sql));
          await throwStreamFailure(connection, failed);
        }
        break;
      }
      for (const row of chunkRows(chunk, read, known)) {
        for (const column of floats) row[column] = shortestFloat(row[column]!);
        if (count === request.maxRows) {
          cut = 'rows';
          break reading;
        }
        bytes += sizeOf(row);
        if (bytes > request.maxBytes) {
          cut = 'bytes';
          break reading;
        }
        rows.push(row);
        count++;
      }
      if (rows.length >= ROWS_PER_MESSAGE) {
        send(rows);
        rows = [];
      }
    }
    return { id: request.id, ok: true, columns, rows, cut };
  } finally {
    connection.closeSync();
  }
}

/** Why the statement may not run, from the engine's own parse tree; undefined when it may. */
async function refusalOf(connection: DuckDBConnection, sql: string): Promise<string | undefined> {
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql(CAST($1 AS VARCHAR))', [
    sql,
  ]);
  const problems = disallowedReferences(parsedTree(String(reader.getRows()[0]![0])));
  return problems.length > 0 ? problems.slice(0, 5).join('; ') : undefined;
}

/**
 * The parse tree as JSON: DuckDB writes an infinite or NaN constant (`1e999`) as a bare
 * `Infinity` or `NaN`, which JSON has not; such a value is read as null (only names matter here).
 */
function parsedTree(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Strings are matched first and kept as they are: only bare words outside them change.
    return JSON.parse(
      text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (token) =>
        token.startsWith('"') ? token : 'null',
      ),
    );
  }
}

/**
 * A FLOAT as the shortest decimal that reads back as the same single-precision number: read
 * as a double it shows its binary noise (0.1 as 0.10000000149011612).
 */
function shortestFloat(value: SqlValue): SqlValue {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return shorter;
  }
  return Number(value.toPrecision(9));
}

/**
 * The statement to run in place of the one asked for, with every text and nested value checked
 * against the value cap inside the engine (and nested values turned into text there), so that
 * no oversized value is ever converted in JavaScript, and timestamps of every precision made
 * TIMESTAMP; undefined when its columns are all numbers, dates and the like, and it runs as it is.
 */
async function boundedStatement(
  connection: DuckDBConnection,
  request: SandboxRequest,
  types: DuckDBTypeId[],
): Promise<string | undefined> {
  const capped = types.map((type) => type === DuckDBTypeId.VARCHAR || AS_TEXT.has(type));
  if (!capped.includes(true) && !types.some((type) => AS_TIMESTAMP.has(type))) return undefined;
  const inner = await printedBack(connection, request.sql);
  const names = types.map((_, index) => `c${index}`);
  const select = types.map((type, index) => {
    if (AS_TIMESTAMP.has(type)) return `CAST(${names[index]} AS TIMESTAMP)`;
    if (!capped[index]) return names[index];
    const text = type === DuckDBTypeId.VARCHAR ? names[index] : `CAST(${names[index]} AS VARCHAR)`;
    return `CASE WHEN strlen(${text}) > ${request.maxValueBytes} THEN error('a value in column ${index + 1} is longer than ${request.maxValueBytes} bytes') ELSE ${text} END`;
  });
  return `SELECT ${select.join(', ')} FROM (\n${inner}\n) AS q(${names.join(', ')})`;
}

/**
 * The checked statement, printed back from its parse tree: no trailing comment or semicolon
 * can break a query around it.
 */
async function printedBack(connection: DuckDBConnection, sql: string): Promise<string> {
  try {
    const reader = await connection.runAndReadAll(
      'SELECT json_deserialize_sql(json_serialize_sql(CAST($1 AS VARCHAR)))',
      [sql],
    );
    return String(reader.getRows()[0]![0]);
  } catch (error) {
    // The engine cannot read back a constant past the range of a double, which it wrote as a
    // bare Infinity.
    if (/expected type 'double'/.test((error as Error).message)) {
      throw new Error(
        "a number constant past the range of a double (such as 1e999) cannot be run beside text columns: write CAST('Infinity' AS DOUBLE)",
        { cause: error },
      );
    }
    throw error;
  }
}

/** About the bytes a row makes in a response. */
function sizeOf(row: readonly SqlValue[]): number {
  let size = 2;
  for (const value of row) size += typeof value === 'string' ? value.length + 4 : 12;
  return size;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).slice(0, 500);
}
