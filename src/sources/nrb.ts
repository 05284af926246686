import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** One day per payload entry: 100 days fill one page of the API's largest page size. */
const DAYS_PER_REQUEST = 100;

export function nrbUrl(window: FetchWindow, page = 1): string {
  return `https://www.nrb.org.np/api/forex/v1/rates?from=${window.from}&page=${page}&per_page=100&to=${window.to}`;
}

export interface NrbPage extends Extraction {
  /** The number of pages the API holds for the request's dates. */
  pages: number;
}

interface NrbRate {
  currency?: { iso3?: string; unit?: number | string };
  buy?: string | number | null;
  sell?: string | number | null;
}

/**
 * `data.payload[]`: one entry per day with `rates[]`, each a buying and a selling price in NPR
 * per `currency.unit` units (100 INR, 10 JPY, 100 KRW); stored as the midpoint per unit.
 */
export function parseNrbJson(text: string, source: ObservationSource): NrbPage {
  const body = parseJson(text) as {
    data?: { payload?: unknown };
    pagination?: { pages?: number };
  };
  const payload = body?.data?.payload;
  if (!Array.isArray(payload)) throw new Error('expected JSON with data.payload[]');
  const builder = new ObservationBuilder(source);
  for (const day of payload as { date?: string; rates?: NrbRate[] }[]) {
    if (!Array.isArray(day?.rates)) throw new Error(`day ${String(day?.date)} has no rates[]`);
    for (const rate of day.rates) {
      builder.addPrice(
        String(day.date),
        String(rate.currency?.iso3),
        midpoint(readDecimal(rate.buy), readDecimal(rate.sell)),
        readDecimal(rate.currency?.unit ?? '1'),
      );
    }
  }
  return { ...builder.result(), pages: Number(body.pagination?.pages ?? 1) };
}

export const publisher: Publisher = {
  key: 'nrb',
  name: 'Nepal Rastra Bank, foreign exchange rates',
  relativeCurrency: 'NPR',
  url: 'https://www.nrb.org.np/forex/',
  countryCode: 'NP',
  timeZone: 'Asia/Kathmandu',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2010-01-01',
  publishWindowUtc: { from: '06:00', to: '08:30', weekdaysOnly: false },
  fetches: 'forex API v1 JSON, buy/sell midpoint, `unit` applied, 100 days per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, DAYS_PER_REQUEST)) {
      let batch = await fetchBatch(context, nrbUrl(chunk), (text) => parseNrbJson(text, publisher));
      for (let page = 2; page <= batch.pages; page++) {
        yield batch;
        batch = await fetchBatch(context, nrbUrl(chunk, page), (text) =>
          parseNrbJson(text, publisher),
        );
      }
      yield completing(batch, chunk.to);
    }
  },
};
