import { readCsvTable } from './csv-table.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** Every business-day spot series against NOK (`B..NOK.SP`) over a window, as SDMX CSV. */
export function nbUrl(window: FetchWindow): string {
  return `https://data.norges-bank.no/api/data/EXR/B..NOK.SP?endPeriod=${window.to}&format=csvdata&startPeriod=${window.from}`;
}

/** Series of the EXR flow that are krone indices, not currencies. */
const INDICES: Record<string, string> = {
  I44: 'the import-weighted krone index (I-44)',
  TWI: 'the trade-weighted krone index (TWI)',
};

/**
 * SDMX `csvdata`: one row per series and day; OBS_VALUE is NOK per 10^UNIT_MULT units of
 * BASE_CUR (UNIT_MULT 2: per 100 JPY, SEK, DKK and such), on TIME_PERIOD.
 */
export function parseNbCsv(text: string, source: ObservationSource): Extraction {
  const table = readCsvTable(text);
  const base = table.column('BASE_CUR');
  const quote = table.column('QUOTE_CUR');
  const multiplier = table.column('UNIT_MULT');
  const period = table.column('TIME_PERIOD');
  const value = table.column('OBS_VALUE');
  const builder = new ObservationBuilder(source);
  for (const { fields } of table.rows) {
    const code = fields[base]!;
    const date = fields[period]!;
    if (INDICES[code]) {
      builder.drop(`${code} on ${date} is ${INDICES[code]}, not a currency`);
      continue;
    }
    if (fields[quote] !== source.relativeCurrency) {
      builder.drop(`${code} on ${date} is quoted in ${fields[quote]}`);
      continue;
    }
    const power = fields[multiplier]!;
    if (!/^\d{1,2}$/.test(power)) {
      builder.drop(`${code} on ${date}: unit multiplier '${power}' is not a power of ten`);
      continue;
    }
    builder.addPrice(date, code, readDecimal(fields[value]), `1${'0'.repeat(Number(power))}`);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nb',
  name: 'Norges Bank, exchange rates',
  relativeCurrency: 'NOK',
  url: 'https://www.norges-bank.no/en/topics/Statistics/exchange_rates/',
  countryCode: 'NO',
  timeZone: 'Europe/Oslo',
  fixingTime: '14:15',
  isDst: true,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches:
    'SDMX CSV of every `B..NOK.SP` series, `UNIT_MULT` applied, indices dropped; a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, nbUrl(chunk), (text) => parseNbCsv(text, publisher));
      yield completing(batch, chunk.to);
    }
  },
};
