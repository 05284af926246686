import pg from 'pg';
import { decimalResult } from '../../exact-decimal.js';
import type { SqlValue } from '../store.js';

/** Type OIDs of the values the service reads. */
const OID = { int8: 20, date: 1082, timestamp: 1114, timestamptz: 1184, numeric: 1700 } as const;

/**
 * '2024-03-20 15:00:00.123456' (the session is pinned to UTC) as 2024-03-20T15:00:00.123Z: the
 * text every engine gives for an instant. Instants a JavaScript Date cannot hold (infinity, BC
 * years) print as PostgreSQL writes them.
 */
export function instantText(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:\+00(?::00)?)?$/.exec(text);
  if (!match) return text;
  const millis = (match[3] ?? '').padEnd(3, '0').slice(0, 3);
  return `${match[1]}T${match[2]}.${millis}Z`;
}

/**
 * instantText for result columns. Rates come in time order, and every rate of one publication
 * has the same instant: the last one is kept, so a repeat costs one comparison, not a match.
 */
let lastInstant = '';
let lastInstantResult = '';
function lastInstantText(text: string): string {
  if (text !== lastInstant) {
    lastInstantResult = instantText(text);
    lastInstant = text;
  }
  return lastInstantResult;
}

/**
 * A date as DuckDB writes it: PostgreSQL has no year 0 and writes it `0001-01-01 BC` (the
 * century, millennium or decade that holds the years 1-99); earlier years end in ` (BC)`.
 */
function dateText(text: string): string {
  if (!text.endsWith(' BC')) return text;
  const day = text.slice(0, -3);
  return day.startsWith('0001-') ? `0000${day.slice(4)}` : `${day} (BC)`;
}

function integerValue(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/**
 * How values come back from PostgreSQL: DATE as YYYY-MM-DD text and TIMESTAMP as ISO 8601 UTC
 * text, as from every engine; BIGINT as a number where it is exact; NUMERIC as a number where
 * a double holds it exactly, else its exact text (NaN and Infinity as text too); double
 * precision as the double itself (PostgreSQL sends its shortest exact text).
 */
export const TYPE_PARSERS = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case OID.date:
        return dateText;
      case OID.timestamp:
      case OID.timestamptz:
        return lastInstantText;
      case OID.int8:
        return integerValue;
      case OID.numeric:
        return decimalResult;
      default:
        return pg.types.getTypeParser(oid, format ?? 'text');
    }
  },
};

/** A value from a result row as responses show it: objects and arrays as their JSON text. */
export function plainValue(value: unknown): SqlValue {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  ) {
    return value;
  }
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  return JSON.stringify(value);
}

/** An instant for a parameter: ISO text in UTC, which a TIMESTAMP column takes as is. */
export function timestampParameter(instant: Date): string {
  return instant.toISOString().replace('Z', '');
}
