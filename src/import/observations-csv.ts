import { isCalendarDate, zonedTimeToUtc } from '../dates.js';
import { clip } from '../params/raw-params.js';
import { isCurrencyCode } from '../sources/currencies.js';
import { findSource } from '../sources/registry.js';
import type { Observation } from '../store/store.js';
import { CsvSyntaxError, type CsvRecord } from './csv-reader.js';

export const OBSERVATIONS_HEADER = ['source', 'symbol', 'observation_time', 'rate'];

const INSTANT =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const DECIMAL = /^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** What one record of an import file gives: an observation, or nothing worth storing. */
export type RowResult = Observation | 'skipped';

/** 0001-01-01T00:00:00Z: PostgreSQL has no year 0, so an instant in it could not be copied. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');

/**
 * One record of the generic file `source,symbol,observation_time,rate` (CONTRACT §10). Times
 * are ISO 8601; without an offset they are UTC, and a bare date means the source's documented
 * fixing time on that day, as adapters record it. Symbols are currency codes the service knows
 * (ISO 4217, withdrawn codes, metals); a row saying a source's own currency is worth 1 of
 * itself says nothing and is skipped.
 */
export function observationOfRecord({ line, fields }: CsvRecord): RowResult {
  if (fields.length !== 4) {
    throw new CsvSyntaxError(
      line,
      `expected 4 fields (source,symbol,observation_time,rate), found ${fields.length}`,
    );
  }
  const [sourceField, symbolField, timeField, rateField] = fields.map((f) => f.trim()) as [
    string,
    string,
    string,
    string,
  ];
  const source = findSource(sourceField);
  if (!source) throw new CsvSyntaxError(line, `unknown source '${clip(sourceField)}'`);
  const symbol = symbolField.toUpperCase();
  if (!isCurrencyCode(symbol)) {
    throw new CsvSyntaxError(
      line,
      `'${clip(symbolField)}' is not a currency code (ISO 4217, or a metal such as XAU)`,
    );
  }
  const observationTime = parseInstant(timeField, source.fixingTime, source.timeZone);
  if (!observationTime) {
    throw new CsvSyntaxError(line, `'${clip(timeField)}' is not an ISO 8601 date or time`);
  }
  if (observationTime.getTime() < FIRST_INSTANT) {
    throw new CsvSyntaxError(
      line,
      `'${clip(timeField)}' is before 0001-01-01T00:00:00Z, the earliest time stored`,
    );
  }
  const rate = parsePositiveRate(rateField);
  if (rate === undefined) {
    throw new CsvSyntaxError(line, `rate '${clip(rateField)}' is not a positive finite number`);
  }
  if (symbol === source.relativeCurrency) {
    // 1 unit of the relative currency buys 1 unit of itself: nothing to store (CONTRACT §1).
    if (rate === 1) return 'skipped';
    throw new CsvSyntaxError(
      line,
      `${symbol} is the relative currency of ${source.key}: its rate can only be 1, not ${clip(rateField)}`,
    );
  }
  return { source: source.key, symbol, observationTime, rate };
}

export function parsePositiveRate(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const rate = Number(text);
  return Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

function parseInstant(text: string, fixingTime: string, timeZone: string): Date | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [, date, hours, minutes, seconds = '00', fraction = '', zone] = match;
  if (!isCalendarDate(date!)) return undefined;
  if (hours === undefined) return zonedTimeToUtc(date!, fixingTime, timeZone);
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const offset =
    !zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const instant = new Date(`${date}T${hours}:${minutes}:${seconds}.${millis}${offset}`);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}
