import { isCalendarDate, zonedTimeToUtc } from '../dates.js';
import { findSource } from '../sources/registry.js';
import type { Observation } from '../store/store.js';
import { CsvSyntaxError, type CsvRecord } from './csv-reader.js';

export const OBSERVATIONS_HEADER = ['source', 'symbol', 'observation_time', 'rate'];

const INSTANT =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const CURRENCY_CODE = /^[A-Z]{3}$/;
const DECIMAL = /^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Observations of the generic file `source,symbol,observation_time,rate` (CONTRACT §10).
 * Times are ISO 8601; without an offset they are UTC, and a bare date means the source's
 * documented fixing time on that day, as adapters record it.
 */
export function parseObservationsCsv(records: Iterable<CsvRecord>): {
  observations: Observation[];
  skipped: number;
} {
  const observations: Observation[] = [];
  let skipped = 0;
  for (const { line, fields } of records) {
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
    if (!source) throw new CsvSyntaxError(line, `unknown source '${sourceField}'`);
    const symbol = symbolField.toUpperCase();
    if (!CURRENCY_CODE.test(symbol)) {
      throw new CsvSyntaxError(line, `'${symbolField}' is not a three-letter currency code`);
    }
    const observationTime = parseInstant(timeField, source.fixingTime, source.timeZone);
    if (!observationTime) {
      throw new CsvSyntaxError(line, `'${timeField}' is not an ISO 8601 date or time`);
    }
    const rate = parsePositiveRate(rateField);
    if (rate === undefined) {
      throw new CsvSyntaxError(line, `rate '${rateField}' is not a positive finite number`);
    }
    if (symbol === source.relativeCurrency) {
      // 1 unit of the relative currency buys 1 unit of itself: nothing to store (CONTRACT §1).
      if (rate === 1) {
        skipped++;
        continue;
      }
      throw new CsvSyntaxError(
        line,
        `${symbol} is the relative currency of ${source.key}: its rate can only be 1, not ${rateField}`,
      );
    }
    observations.push({ source: source.key, symbol, observationTime, rate });
  }
  return { observations, skipped };
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
