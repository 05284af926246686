import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { isoFromDotted, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const EXCHANGE_URL = 'https://bank.gov.ua/NBU_Exchange/exchange_site';

const compact = (date: string): string => date.replaceAll('-', '');

export function nbuUrl(window: FetchWindow): string {
  return `${EXCHANGE_URL}?end=${compact(window.to)}&json=&order=asc&sort=exchangedate&start=${compact(window.from)}`;
}

interface NbuRecord {
  exchangedate?: string;
  cc?: string;
  rate?: number | string;
  units?: number | string;
}

/**
 * The NBU's JSON array: UAH per `units` of `cc` on `exchangedate` (dd.mm.yyyy). The bank sets
 * a rate for every calendar day, weekends included; all are kept as published.
 */
export function parseNbuJson(text: string, source: ObservationSource): Extraction {
  const records = parseJson(text);
  if (!Array.isArray(records)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const record of records as NbuRecord[]) {
    const date = isoFromDotted(record.exchangedate);
    const units = record.units === undefined ? '1' : readDecimal(record.units);
    builder.addPrice(date, String(record.cc ?? ''), readDecimal(record.rate), units);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbu',
  name: 'National Bank of Ukraine, official rates',
  relativeCurrency: 'UAH',
  url: 'https://bank.gov.ua/en/markets/exchangerates',
  countryCode: 'UA',
  timeZone: 'Europe/Kyiv',
  fixingTime: '15:30',
  isDst: true,
  historyStart: '1996-01-06',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: false },
  fetches: '`exchange_site` JSON, `units` applied, every calendar day, a year per request',
  async *fetch(window, context) {
    // About 45 currencies a day: a year is some 16,000 records, a comfortable answer.
    for (const chunk of windowChunks(window, 366)) {
      const batch = await fetchBatch(context, nbuUrl(chunk), (text) =>
        parseNbuJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
