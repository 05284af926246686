import { readCsvRecords } from '../import/csv-reader.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, requireCompleteText } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** F11.1: every daily rate since 2023 in one file, units of the currency per AUD. */
export const RBA_URL = 'https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv';

/** The RBA labels the SDR by its common name rather than its ISO code. */
const UNIT_TO_CODE: Record<string, string> = { SDR: 'XDR' };

/** Dates like '03-Jan-2023'; undefined for the preamble's labels. */
function isoFromRba(text: string): string | undefined {
  const match = /^(\d{2})-([A-Za-z]{3})-(\d{4})$/.exec(text.trim());
  return match ? isoFromEnglish(match[1]!, match[2]!, match[3]!) : undefined;
}

/**
 * The F11.1 CSV: a preamble of labelled rows (Title, Units, Series ID...), then one row per day.
 * The `Units` row names each column's currency; the trade-weighted index (units `Index`) is not
 * a currency and is skipped.
 */
export function parseRbaCsv(text: string, source: ObservationSource): Extraction {
  requireCompleteText(text);
  const builder = new ObservationBuilder(source);
  let units: string[] | undefined;
  let seriesIds: string[] | undefined;
  for (const record of readCsvRecords(text)) {
    const [label = '', ...cells] = record.fields;
    if (label === 'Units') units = cells;
    if (label === 'Series ID') seriesIds = cells;
    const date = isoFromRba(label);
    if (!date) continue;
    if (!units || !seriesIds) throw new Error('data rows before the Units and Series ID rows');
    if (cells.length !== units.length) {
      throw new Error(
        `line ${record.line} has ${cells.length} values for ${units.length} series (cut short?)`,
      );
    }
    cells.forEach((cell, column) => {
      const unit = units![column]!.trim();
      if (cell.trim() === '' || unit === 'Index') return;
      builder.add(date, UNIT_TO_CODE[unit] ?? unit, readDecimal(cell));
    });
  }
  if (!units) throw new Error('not the F11.1 file: no Units row');
  return builder.result();
}

export const publisher: Publisher = {
  key: 'rba',
  name: 'Reserve Bank of Australia, F11 exchange rates',
  relativeCurrency: 'AUD',
  url: 'https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv',
  countryCode: 'AU',
  timeZone: 'Australia/Sydney',
  fixingTime: '16:00',
  isDst: true,
  historyStart: '2023-01-03',
  publishWindowUtc: { from: '05:00', to: '07:30', weekdaysOnly: true },
  fetches:
    'F11.1 CSV, whole file (2023 onwards; the older F11 history is published as XLS only and is not read)',
  async *fetch(_window, context) {
    yield await fetchBatch(context, RBA_URL, (text) => parseRbaCsv(text, publisher));
  },
};
