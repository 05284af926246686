import type { FetchWindow, SourceAdapter } from './adapter.js';
import { fetchBatch } from './adapter.js';
import { readCsvTable } from './csv-table.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { readDecimal } from './publisher-text.js';
import type { SourceEntry } from './registry.js';

// The ECB data API: every daily euro reference rate since startPeriod, one CSV row per rate.
const SERIES_URL = 'https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A';

export function ecbUrl(window: FetchWindow): string {
  // No endPeriod: the answer then ends with the newest rate, which is what incremental runs want.
  return `${SERIES_URL}?format=csvdata&startPeriod=${window.from}`;
}

/** The API's `csvdata` rows (FREQ, CURRENCY, TIME_PERIOD, OBS_VALUE and more): units per EUR. */
export function parseEcbCsv(text: string, source: SourceEntry): Extraction {
  const table = readCsvTable(text);
  const [currency, period, value] = ['CURRENCY', 'TIME_PERIOD', 'OBS_VALUE'].map(table.column) as [
    number,
    number,
    number,
  ];
  const builder = new ObservationBuilder(source);
  for (const { line, fields } of table.rows) {
    if (fields.every((field) => field === '')) {
      builder.drop(`line ${line} is empty`);
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
