import {
  DATE,
  DOUBLE,
  DuckDBDateValue,
  DuckDBDateVector,
  DuckDBDecimalValue,
  DuckDBDoubleVector,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimestampVector,
  DuckDBTypeId,
  DuckDBVarCharVector,
  DuckDBVector,
  TIMESTAMP,
  VARCHAR,
  type DuckDBDataChunk,
  type DuckDBResult,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import bindings from '@duckdb/node-bindings';
import { decimalResult } from '../../exact-decimal.js';
import type { SqlValue } from '../store.js';

/** The largest instant a JavaScript Date holds, in microseconds. */
const MAX_DATE_MICROS = 8_640_000_000_000_000_000n;

/**
 * Turns the values of one result into what responses show: DATE as YYYY-MM-DD, TIMESTAMP as
 * YYYY-MM-DDTHH:mm:ss.sssZ (UTC), the same text in the rate answers and the query endpoint.
 * Instants a JavaScript Date cannot hold (infinity, year 300000) print as DuckDB writes them.
 * Dates and times repeat on every row of a day: each is formatted once per reader (a result, or
 * a chunk of a streamed one).
 */
export function valueReader(): ValueReader {
  const read: ValueReader = (value) => {
    if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
      const micros = Number(value.micros);
      // Beyond 2^53 microseconds a double may not tell two instants apart: those are not kept.
      if (!Number.isSafeInteger(micros)) return instantText(value);
      let text = read.instants.get(micros);
      if (text === undefined) {
        text = instantText(value);
        read.instants.set(micros, text);
      }
      return text;
    }
    if (value instanceof DuckDBDateValue) {
      let text = read.dates.get(value.days);
      if (text === undefined) {
        // The driver writes the infinite dates as day numbers of the year 5881580.
        text = value.isFinite ? value.toString() : value.days > 0 ? 'infinity' : '-infinity';
        read.dates.set(value.days, text);
      }
      return text;
    }
    return plainValue(value);
  };
  read.dates = new Map();
  read.instants = new Map();
  read.shortTexts = new Map();
  return read;
}

export interface ValueReader {
  (value: DuckDBValue): SqlValue;
  /** Texts already made by this reader, by day number, by microsecond, by short text's bytes. */
  dates: Map<number, string>;
  instants: Map<number, string>;
  shortTexts: Map<number, string>;
}

function instantText(value: DuckDBTimestampValue | DuckDBTimestampTZValue): string {
  const { micros } = value;
  if (!value.isFinite || micros > MAX_DATE_MICROS || micros < -MAX_DATE_MICROS) {
    return value.toString();
  }
  // Floor division: a microsecond before the epoch belongs to the millisecond before it.
  const millis = micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n);
  return new Date(Number(millis)).toISOString();
}

/** An instant as the store returns it, for code that needs a Date (ingest state, catalog). */
export function instantOf(value: DuckDBValue | undefined): Date | null {
  if (value === null || value === undefined) return null;
  return new Date(instantText(value as DuckDBTimestampValue));
}

function plainValue(value: DuckDBValue): SqlValue {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  ) {
    return value;
  }
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (value instanceof DuckDBDecimalValue) return decimalResult(value.toString());
  return String(value);
}

/** The rows of one chunk (read column by column, see chunkColumns). */
export function chunkRows(
  chunk: DuckDBDataChunk,
  read: ValueReader,
  types?: KnownTypes,
): SqlValue[][] {
  const columns = chunkColumns(chunk, read, types);
  const rowCount = columns[0]?.length ?? 0;
  const rows: SqlValue[][] = new Array(rowCount);
  for (let row = 0; row < rowCount; row++) rows[row] = columns.map((values) => values[row]!);
  return rows;
}

/** The types of a result's columns that chunkColumns reads without asking the engine. */
export type KnownTypes = readonly (DuckDBType | undefined)[];

const KNOWN_TYPES = new Map<DuckDBTypeId, DuckDBType>([
  [DuckDBTypeId.DATE, DATE],
  [DuckDBTypeId.VARCHAR, VARCHAR],
  [DuckDBTypeId.DOUBLE, DOUBLE],
  [DuckDBTypeId.TIMESTAMP, TIMESTAMP],
]);

/** The types of `result`'s columns that are plain dates, texts, doubles or timestamps. */
export function knownTypes(result: DuckDBResult): KnownTypes {
  const types: (DuckDBType | undefined)[] = [];
  for (let column = 0; column < result.columnCount; column++)
    types.push(KNOWN_TYPES.get(result.columnTypeId(column)));
  return types;
}

/**
 * The columns of one chunk (see columnValues). A column whose type is known (`types`, from the
 * result) is read without the driver's description of the vector's type, which it builds anew
 * for every column of every chunk: the six columns of a rate answer's chunk took 38 µs so and
 * 10 µs with the types given.
 */
export function chunkColumns(
  chunk: DuckDBDataChunk,
  read: ValueReader,
  types?: KnownTypes,
): SqlValue[][] {
  // (The counts are read from the engine on every access.)
  const rowCount = chunk.rowCount;
  const columnCount = chunk.columnCount;
  const columns: SqlValue[][] = [];
  for (let column = 0; column < columnCount; column++) {
    const type = types?.[column];
    const vector =
      type === undefined
        ? chunk.getColumnVector(column)
        : DuckDBVector.create(bindings.data_chunk_get_vector(chunk.chunk, column), rowCount, type);
    columns.push(columnValues(vector, read, rowCount));
  }
  return columns;
}

/** What the driver's vectors hold, read directly where they have it (checked, never assumed). */
interface VectorInternals {
  items?: unknown;
  dataView?: unknown;
  validity?: { data?: unknown };
}

/**
 * The values of one column. Dates, times and short texts (symbols, source keys) repeat on row
 * after row: they are read from the vector's memory as numbers and turned into text once per
 * distinct value, instead of one value object and one decoding per row; doubles are copied
 * from it. Any vector that is not laid out as expected (or holds NULLs) is read value by value.
 * Each kind has a loop of its own: one loop calling a reader made per column took half as long
 * again, its one call site seeing every kind of reader (the ECB history's 217,000 rows: 34 ms
 * against 23 ms; a one-year range: 1.2 ms against 0.85 ms).
 */
function columnValues(vector: DuckDBVector, read: ValueReader, rowCount: number): SqlValue[] {
  const internals = vector as unknown as VectorInternals;
  const { items, dataView } = internals;
  const noNulls = internals.validity?.data === null;
  if (noNulls && vector instanceof DuckDBDoubleVector && items instanceof Float64Array) {
    // An array of its own: V8 keeps doubles unboxed only in an array that never held anything
    // else, and gives the arrays made at one place in the code the kind of those made there
    // before. Made where the texts' arrays are made, every rate was a heap object of its own,
    // which the collector copied while the answer was written (a one-year range: 17,000).
    const doubles: number[] = new Array(rowCount);
    for (let row = 0; row < rowCount; row++) doubles[row] = items[row]!;
    return doubles;
  }
  const values: SqlValue[] = new Array(rowCount);
  const item = (row: number): SqlValue => read(vector.getItem(row));
  if (!noNulls) {
    for (let row = 0; row < rowCount; row++) values[row] = item(row);
  } else if (vector instanceof DuckDBDateVector && items instanceof Int32Array) {
    // A miss is read as a value: read() keeps its text under the same key (as for instants).
    for (let row = 0; row < rowCount; row++) values[row] = read.dates.get(items[row]!) ?? item(row);
  } else if (vector instanceof DuckDBTimestampVector && items instanceof BigInt64Array) {
    const words = new Int32Array(items.buffer, items.byteOffset, items.length * 2);
    for (let row = 0; row < rowCount; row++) {
      const high = words[2 * row + 1]!;
      // Beyond 2^52 microseconds (the year 2112) a double may not hold the exact count.
      values[row] =
        high >= 1 << 20 || high < -(1 << 20)
          ? item(row)
          : (read.instants.get(high * 4_294_967_296 + (words[2 * row]! >>> 0)) ?? item(row));
    }
  } else if (vector instanceof DuckDBVarCharVector && dataView instanceof DataView) {
    for (let row = 0; row < rowCount; row++) values[row] = shortText(dataView, row, read, item);
  } else {
    for (let row = 0; row < rowCount; row++) values[row] = item(row);
  }
  return values;
}

/**
 * A text of a VARCHAR vector. A string of up to 12 bytes is stored inline after its length:
 * texts of up to 6 bytes are keyed by their length and bytes, exactly.
 */
function shortText(
  dataView: DataView,
  row: number,
  read: ValueReader,
  item: (row: number) => SqlValue,
): SqlValue {
  const offset = row * 16;
  const length = dataView.getUint32(offset, true);
  if (length > 6) return item(row);
  let key = length;
  for (let index = 0; index < length; index++)
    key = key * 256 + dataView.getUint8(offset + 4 + index);
  let text = read.shortTexts.get(key);
  if (text === undefined) {
    text = item(row) as string;
    read.shortTexts.set(key, text);
  }
  return text;
}
