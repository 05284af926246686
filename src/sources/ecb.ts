import { readCsvTable } from './csv-table.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

// The ECB data API: every daily euro reference rate since startPeriod, one CSV row per rate.
const SERIES_URL = 'https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A';

export function ecbUrl(window: FetchWindow): string {
  // No endPeriod: the answer then ends with the newest rate, which is what incremental runs want.
  return `${SERIES_URL}?format=csvdata&startPeriod=${window.from}`;
}

/** The API's `csvdata` rows (FREQ, CURRENCY, TIME_PERIOD, OBS_VALUE and more): units per EUR. */
export function parseEcbCsv(text: string, source: ObservationSource): Extraction {
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

export const publisher: Publisher = {
  key: 'ecb',
  name: 'European Central Bank, euro reference rates',
  relativeCurrency: 'EUR',
  url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
  countryCode: 'EU',
  timeZone: 'Europe/Berlin',
  fixingTime: '16:00',
  isDst: true,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches: 'data API `EXR/D..EUR.SP00.A`, csvdata, from the window start to the newest rate',
  async *fetch(window, context) {
    yield await fetchBatch(context, ecbUrl(window), (text) => parseEcbCsv(text, publisher));
  },
};
