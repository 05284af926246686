import { isCalendarDate, zonedTimeToUtc } from '../dates.js';
import { findSource } from '../sources/registry.js';
import type { Observation } from '../store/store.js';
import { CsvSyntaxError, type CsvRecord } from './csv-reader.js';
import { parsePositiveRate } from './observations-csv.js';

/** True for the header of the ECB's eurofxref-hist.csv: `Date,USD,JPY,...` (every line ends with a comma). */
export function isEcbHistoryHeader(fields: readonly string[]): boolean {
  return (
    fields[0]?.trim() === 'Date' && fields.slice(1).every((f) => /^([A-Z]{3})?$/.test(f.trim()))
  );
}

/** Units of each currency per euro, one row per day, `N/A` or empty where none was quoted. */
export function parseEcbHistoryCsv(
  header: readonly string[],
  records: Iterable<CsvRecord>,
): Observation[] {
  const ecb = findSource('ecb')!;
  const symbols = header.map((field) => field.trim());
  const observations: Observation[] = [];
  for (const { line, fields } of records) {
    const date = fields[0]?.trim() ?? '';
    if (!isCalendarDate(date)) throw new CsvSyntaxError(line, `'${date}' is not a YYYY-MM-DD date`);
    if (fields.length > symbols.length) {
      throw new CsvSyntaxError(
        line,
        `${fields.length} fields, but the header names ${symbols.length}`,
      );
    }
    const observationTime = zonedTimeToUtc(date, ecb.fixingTime, ecb.timeZone);
    for (let column = 1; column < fields.length; column++) {
      const text = fields[column]!.trim();
      const symbol = symbols[column]!;
      if (text === '' || text === 'N/A') continue;
      if (symbol === '')
        throw new CsvSyntaxError(line, `a value in column ${column + 1}, which has no currency`);
      if (symbol === ecb.relativeCurrency)
        throw new CsvSyntaxError(line, `a ${symbol} column in euro reference rates`);
      const rate = parsePositiveRate(text);
      if (rate === undefined) {
        throw new CsvSyntaxError(line, `${symbol} '${text}' is not a positive finite number`);
      }
      observations.push({ source: ecb.key, symbol, observationTime, rate });
    }
  }
  return observations;
}
