import { FetchError } from './http-client.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { perTroyOunce, readDecimal } from './publisher-text.js';
import type { Batch, Extraction, FetchContext, FetchWindow, Publisher } from './publisher.js';

const API = 'https://api.nbp.pl/api';
/** The API answers at most 93 days per request. */
const MAX_DAYS = 93;

/** Table A (daily, major currencies) or B (weekly, the others). */
export function nbpTableUrl(table: 'A' | 'B', window: FetchWindow): string {
  return `${API}/exchangerates/tables/${table}/${window.from}/${window.to}/?format=json`;
}

export function nbpGoldUrl(window: FetchWindow): string {
  return `${API}/cenyzlota/${window.from}/${window.to}/?format=json`;
}

interface NbpTable {
  effectiveDate?: string;
  rates?: { code?: string; mid?: number | string }[];
}

/** Tables of `mid` rates, PLN per unit of `code`, one table per `effectiveDate`. */
export function parseNbpTables(text: string, source: ObservationSource): Extraction {
  const tables = parseJson(text);
  if (!Array.isArray(tables)) throw new Error('expected a JSON array of tables');
  const builder = new ObservationBuilder(source);
  for (const table of tables as NbpTable[]) {
    for (const rate of table.rates ?? []) {
      builder.addPrice(String(table.effectiveDate), String(rate.code), readDecimal(rate.mid));
    }
  }
  return builder.result();
}

/** Gold prices, PLN per gram; ISO's XAU is a troy ounce. */
export function parseNbpGold(text: string, source: ObservationSource): Extraction {
  const prices = parseJson(text);
  if (!Array.isArray(prices)) throw new Error('expected a JSON array of gold prices');
  const builder = new ObservationBuilder(source);
  for (const price of prices as { data?: string; cena?: number }[]) {
    builder.addPrice(String(price.data), 'XAU', perTroyOunce(readDecimal(price.cena)));
  }
  return builder.result();
}

/** A range without a table (a holiday week) is answered 404 "Brak danych": no data, no failure. */
async function fetchUnlessNoData(
  context: FetchContext,
  url: string,
  parse: (text: string) => Extraction,
): Promise<Batch> {
  try {
    return await fetchBatch(context, url, parse);
  } catch (error) {
    if (!(error instanceof FetchError && error.status === 404)) throw error;
    return { url: context.http.target(url), observations: [], dropped: 0, dropReasons: [] };
  }
}

export const publisher: Publisher = {
  key: 'nbp',
  name: 'Narodowy Bank Polski, average rates (tables A and B)',
  relativeCurrency: 'PLN',
  url: 'https://nbp.pl/en/statistic-and-financial-reporting/rates/',
  countryCode: 'PL',
  timeZone: 'Europe/Warsaw',
  fixingTime: '12:00',
  isDst: true,
  historyStart: '2002-01-02',
  publishWindowUtc: { from: '10:30', to: '13:00', weekdaysOnly: true },
  fetches:
    'tables A and B and gold prices (per gram, converted to the troy ounce), 93 days per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, MAX_DAYS)) {
      for (const table of ['A', 'B'] as const) {
        yield await fetchUnlessNoData(context, nbpTableUrl(table, chunk), (text) =>
          parseNbpTables(text, publisher),
        );
      }
      const gold = await fetchUnlessNoData(context, nbpGoldUrl(chunk), (text) =>
        parseNbpGold(text, publisher),
      );
      yield completing(gold, chunk.to);
    }
  },
};
