import { isCalendarDate, zonedTimeToUtc } from '../dates.js';
import { clip } from '../params/raw-params.js';
import { isCurrencyCode } from '../sources/currencies.js';
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

/**
 * A reader of the rows under that header: units of each currency per euro, one row per day,
 * `N/A` or empty where none was quoted.
 */
export function ecbHistoryRowReader(
  header: readonly string[],
): (record: CsvRecord, into: Observation[]) => void {
  const ecb = findSource('ecb')!;
  const symbols = header.map((field) => field.trim());
  const unknown = symbols.slice(1).find((symbol) => symbol !== '' && !isCurrencyCode(symbol));
  if (unknown !== undefined) {
    throw new CsvSyntaxError(1, `'${clip(unknown)}' in the header is not a currency code`);
  }
  // Two columns of one currency would give each day two figures for it, and keep one of them.
  const named = new Set<string>();
  for (const symbol of symbols.slice(1)) {
    if (named.has(symbol)) throw new CsvSyntaxError(1, `'${symbol}' is named twice in the header`);
    if (symbol !== '') named.add(symbol);
  }
  return ({ line, fields }, into) => {
    const date = fields[0]?.trim() ?? '';
    if (!isCalendarDate(date)) {
      throw new CsvSyntaxError(line, `'${clip(date)}' is not a YYYY-MM-DD date`);
    }
    // Every row has the header's fields: a row with fewer is cut short (a file that ends in the
    // middle of a line), not a day without those rates, which the ECB writes as N/A.
    if (fields.length !== symbols.length) {
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
        throw new CsvSyntaxError(line, `${symbol} '${clip(text)}' is not a positive finite number`);
      }
      into.push({ source: ecb.key, symbol, observationTime, rate });
    }
  };
}
