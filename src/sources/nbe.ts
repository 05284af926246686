import { addDays, isWeekend } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The rates of one day, as the bank's own site requests them. */
export function nbeUrl(date: string): string {
  return `https://api.nbe.gov.et/api/filter-exchange-rates?date=${date}`;
}

interface NbeRate {
  date?: string;
  buying?: string | number | null;
  selling?: string | number | null;
  weighted_average?: string | number | null;
  currency?: { code?: string; name?: string };
}

/**
 * `{success, data[]}`: ETB per unit of `currency.code` on `date`, as buying, selling and the
 * weighted average of the day's interbank deals, which is the rate stored. A row without a
 * weighted average falls back to the midpoint of buying and selling.
 */
export function parseNbeJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { success?: unknown; message?: unknown; data?: unknown };
  if (body?.success !== true) {
    throw new Error(`the service answered without success: ${String(body?.message)}`);
  }
  if (!Array.isArray(body.data)) throw new Error('expected JSON with data[]');
  const builder = new ObservationBuilder(source);
  for (const rate of body.data as NbeRate[]) {
    const average = rate.weighted_average;
    const price =
      average === null || average === undefined || average === ''
        ? midpoint(readDecimal(rate.buying), readDecimal(rate.selling))
        : readDecimal(average);
    builder.addPrice(String(rate.date), String(rate.currency?.code), price);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbe',
  name: 'National Bank of Ethiopia, weighted average exchange rates',
  relativeCurrency: 'ETB',
  url: 'https://nbe.gov.et/exchange-rate/',
  countryCode: 'ET',
  timeZone: 'Africa/Addis_Ababa',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2024-10-01',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: true },
  fetches: 'JSON of one day per request (weighted average; buying/selling midpoint when absent)',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
      if (isWeekend(date)) continue;
      const batch = await fetchBatch(context, nbeUrl(date), (text) =>
        parseNbeJson(text, publisher),
      );
      yield completing(batch, date);
    }
  },
};
