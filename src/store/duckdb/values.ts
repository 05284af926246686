import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBDataChunk,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { SqlValue } from '../store.js';

/** The largest instant a JavaScript Date holds, in microseconds. */
const MAX_DATE_MICROS = 8_640_000_000_000_000_000n;

/**
 * Turns the values of one result into what responses show: DATE as YYYY-MM-DD, TIMESTAMP as
 * YYYY-MM-DDTHH:mm:ss.sssZ (UTC), the same text in the rate answers and the query endpoint.
 * Instants a JavaScript Date cannot hold (infinity, year 300000) print as DuckDB writes them.
 * Dates and times repeat on every row of a day: each is formatted once per result.
 */
export function valueReader(): (value: DuckDBValue) => SqlValue {
  const texts = new Map<bigint | number, string>();
  return (value) => {
    if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
      let text = texts.get(value.micros);
      if (text === undefined) {
        text = instantText(value);
        texts.set(value.micros, text);
      }
      return text;
    }
    if (value instanceof DuckDBDateValue) {
      let text = texts.get(value.days);
      if (text === undefined) {
        text = value.toString();
        texts.set(value.days, text);
      }
      return text;
    }
    return plainValue(value);
  };
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
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  return String(value);
}

/** The rows of one chunk, column vectors read item by item (several times faster than getRows). */
export function chunkRows(
  chunk: DuckDBDataChunk,
  read: (value: DuckDBValue) => SqlValue,
): SqlValue[][] {
  const columns = Array.from({ length: chunk.columnCount }, (_, index) =>
    chunk.getColumnVector(index),
  );
  const rows: SqlValue[][] = new Array(chunk.rowCount);
  for (let row = 0; row < chunk.rowCount; row++) {
    const values: SqlValue[] = new Array(columns.length);
    for (let column = 0; column < columns.length; column++) {
      values[column] = read(columns[column]!.getItem(row));
    }
    rows[row] = values;
  }
  return rows;
}
