import { readCsvRecords } from '../import/csv-reader.js';
import type { FetchWindow, SourceAdapter } from './adapter.js';
import { fetchBatch, requireCompleteText } from './adapter.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder, readDecimal } from './observation-builder.js';
import type { SourceEntry } from './registry.js';

// The ECB data API: every daily euro reference rate since startPeriod, one CSV row per rate.
const SERIES_URL = 'https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A';

export function ecbUrl(window: FetchWindow): string {
  // No endPeriod: the answer then ends with the newest rate, which is what incremental runs want.
  return `${SERIES_URL}?format=csvdata&startPeriod=${window.from}`;
}

/** The API's `csvdata` rows (FREQ, CURRENCY, TIME_PERIOD, OBS_VALUE and more): units per EUR. */
export function parseEcbCsv(text: string, source: SourceEntry): Extraction {
  requireCompleteText(text);
  const builder = new ObservationBuilder(source);
  const records = readCsvRecords(text);
  const header: string[] = records.next().value?.fields ?? [];
  const currency = header.indexOf('CURRENCY');
  const period = header.indexOf('TIME_PERIOD');
  const value = header.indexOf('OBS_VALUE');
  if (currency < 0 || period < 0 || value < 0) {
    throw new Error('CSV header lacks CURRENCY, TIME_PERIOD or OBS_VALUE');
  }
  for (const record of records) {
    const fields = record.fields;
    if (fields.length === 1 && fields[0] === '') continue;
    if (fields.length !== header.length) {
      throw new Error(
        `line ${record.line} has ${fields.length} fields, the header ${header.length}`,
      );
    }
    if (fields.every((field) => field === '')) {
      builder.drop(`line ${record.line} is empty`);
      continue;
    }
    builder.add(fields[period]!, fields[currency]!, readDecimal(fields[value]));
  }
  return builder.result();
}

export const ecbAdapter: SourceAdapter = {
  key: 'ecb',
  async *fetch(window, context) {
    yield await fetchBatch(context, ecbUrl(window), (text) => parseEcbCsv(text, context.source));
  },
};
