import { readCsvTable } from './csv-table.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const SDMX_URL =
  'https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/';

/** Official representative rates (DATA_TYPE OF00) over a date range. */
export function boiUrl(window: FetchWindow): string {
  return `${SDMX_URL}?c%5BDATA_TYPE%5D=OF00&endperiod=${window.to}&format=csv&startperiod=${window.from}`;
}

/** 10^`exponent` as decimal text ('2' gives '100'); no number, for the builder to refuse, otherwise. */
function powerOfTen(exponent: string): string {
  return /^\d{1,3}$/.test(exponent) ? `1${'0'.repeat(Number(exponent))}` : `10^${exponent}`;
}

/**
 * SDMX-CSV: one row per rate, ILS per 10^UNIT_MULT units of BASE_CURRENCY (JPY per 100,
 * LBP per 10). Rows against another counter currency are not the representative rate.
 */
export function parseBoiCsv(text: string, source: ObservationSource): Extraction {
  const builder = new ObservationBuilder(source);
  const table = readCsvTable(text);
  const [base, counter, unitMult, period, value] = [
    'BASE_CURRENCY',
    'COUNTER_CURRENCY',
    'UNIT_MULT',
    'TIME_PERIOD',
    'OBS_VALUE',
  ].map(table.column) as [number, number, number, number, number];
  for (const { fields } of table.rows) {
    if (fields[counter] !== source.relativeCurrency) {
      builder.drop(
        `${fields[base]}/${fields[counter]} is not quoted in ${source.relativeCurrency}`,
      );
      continue;
    }
    const units = powerOfTen(fields[unitMult] || '0');
    builder.addPrice(fields[period]!, fields[base]!, readDecimal(fields[value]), units);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'boi',
  name: 'Bank of Israel, representative rates',
  relativeCurrency: 'ILS',
  url: 'https://www.boi.org.il/en/economic-roles/statistics/foreign-exchange-market/exchange-rates/',
  countryCode: 'IL',
  timeZone: 'Asia/Jerusalem',
  fixingTime: '15:30',
  isDst: true,
  historyStart: '1990-01-01',
  publishWindowUtc: { from: '12:00', to: '14:30', weekdaysOnly: true },
  fetches: 'SDMX CSV, `UNIT_MULT` applied, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, boiUrl(chunk), (text) =>
        parseBoiCsv(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
