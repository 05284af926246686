import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** Today's rates only: the feed has no history. */
export const FLOAT_RATES_URL = 'https://www.floatrates.com/daily/usd.json';

interface FloatRate {
  code?: string;
  rate?: number | string;
  date?: string;
}

/**
 * The daily feed: an object keyed by lower-case code, each entry with `rate` (units per 1 of
 * the feed's currency) and `date` (RFC 1123). The feed's own currency is never listed, which
 * tells a feed for another currency apart.
 */
export function parseFloatRatesJson(text: string, source: ObservationSource): Extraction {
  const feed = parseJson(text);
  if (feed === null || typeof feed !== 'object' || Array.isArray(feed)) {
    throw new Error('expected a JSON object of rates');
  }
  const entries = Object.values(feed as Record<string, FloatRate>);
  // The feed lists every currency every day: none at all is a failed answer.
  if (entries.length === 0) throw new Error('the feed lists no rates');
  if (entries.some((entry) => entry?.code?.toUpperCase() === source.relativeCurrency)) {
    throw new Error(
      `the feed lists ${source.relativeCurrency}: it is not the ${source.relativeCurrency} feed`,
    );
  }
  const builder = new ObservationBuilder(source);
  for (const entry of entries) {
    const published = Date.parse(entry?.date ?? '');
    const date = Number.isNaN(published)
      ? String(entry?.date)
      : new Date(published).toISOString().slice(0, 10);
    builder.add(date, String(entry?.code ?? '').toUpperCase(), readDecimal(entry?.rate));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'float_rates',
  name: 'FloatRates daily feed',
  relativeCurrency: 'USD',
  url: 'https://www.floatrates.com/json-feeds.html',
  countryCode: null,
  timeZone: 'UTC',
  fixingTime: '00:00',
  isDst: false,
  // The feed keeps no history: whatever the window, a run stores today's rates.
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '00:00', to: '23:30', weekdaysOnly: false },
  fetches: "`daily/usd.json`, today's rates only (the feed keeps no history)",
  async *fetch(_window, context) {
    yield await fetchBatch(context, FLOAT_RATES_URL, (text) =>
      parseFloatRatesJson(text, publisher),
    );
  },
};
