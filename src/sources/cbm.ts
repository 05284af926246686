import { epochMsToDate, timeZoneOffsetMs } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The day's reference rates; the API offers no range of dates. */
export const CBM_URL = 'https://forex.cbm.gov.mm/api/latest';

/**
 * Currencies the Central Bank of Myanmar quotes per 100 units (its site lists them as
 * "JPY 100" and so on); every other rate is kyat per 1 unit.
 */
const PER_HUNDRED = new Set(['IDR', 'JPY', 'KHR', 'KRW', 'LAK', 'VND']);

/** The calendar date of a Unix timestamp (seconds) in the publisher's time zone. */
function localDate(seconds: number, timeZone: string): string {
  const ms = seconds * 1000;
  return epochMsToDate(ms + timeZoneOffsetMs(ms, timeZone));
}

/**
 * `{timestamp, rates: {USD: "2100.00", JPY: "1321.88", ...}}`: kyat per unit (per 100 units for
 * the currencies in PER_HUNDRED), as strings, on the date of `timestamp` in Yangon.
 */
export function parseCbmJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { timestamp?: unknown; rates?: unknown };
  const rates = body?.rates;
  if (rates === null || typeof rates !== 'object' || Array.isArray(rates)) {
    throw new Error('expected JSON with a rates object');
  }
  const seconds = Number(body.timestamp);
  if (!/^\d+$/.test(String(body.timestamp)) || !Number.isSafeInteger(seconds)) {
    throw new Error(`expected a Unix timestamp, got '${String(body.timestamp)}'`);
  }
  const date = localDate(seconds, source.timeZone);
  const builder = new ObservationBuilder(source);
  for (const [code, value] of Object.entries(rates as Record<string, unknown>)) {
    const units = PER_HUNDRED.has(code) ? '100' : '1';
    builder.addPrice(date, code, readDecimal(value as string | number), units);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbm',
  name: 'Central Bank of Myanmar, reference rates',
  relativeCurrency: 'MMK',
  url: 'https://forex.cbm.gov.mm/',
  countryCode: 'MM',
  timeZone: 'Asia/Yangon',
  fixingTime: '00:00',
  isDst: false,
  // Only the latest rates can be fetched: whatever the window, a run stores the current day.
  historyStart: '2012-04-02',
  publishWindowUtc: { from: '04:00', to: '06:30', weekdaysOnly: true },
  fetches: "`api/latest` JSON, the day's reference rates only; per-100 quotes applied",
  async *fetch(_window, context) {
    yield await fetchBatch(context, CBM_URL, (text) => parseCbmJson(text, publisher));
  },
};
