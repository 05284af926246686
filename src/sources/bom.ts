import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

export const BOM_URL = 'https://www.mongolbank.mn/en/currency-rate-movement/data';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** The JSON body the rate-movement page posts for a range of dates. */
export function bomRequestBody(window: FetchWindow): string {
  return JSON.stringify({ startDate: window.from, endDate: window.to });
}

/** The bank's codes that are not ISO 4217's. */
const ISO_CODES: Readonly<Record<string, string>> = { SDR: 'XDR' };

/**
 * `{success, data: [{RATE_DATE, USD: "3,576.42", ...}]}`: one object per day, MNT per unit of
 * each code as text with thousands separators; gold and silver (XAU, XAG) per troy ounce.
 */
export function parseBomJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { success?: boolean; data?: Record<string, string>[] };
  if (body?.success !== true || !Array.isArray(body.data)) {
    throw new Error('expected JSON with success: true and data[]');
  }
  const builder = new ObservationBuilder(source);
  for (const day of body.data) {
    const date = String(day.RATE_DATE);
    for (const [code, value] of Object.entries(day)) {
      if (code === 'RATE_DATE') continue;
      // A currency without a rate that day is blank.
      if (value === null || String(value).trim() === '') continue;
      builder.addPrice(date, ISO_CODES[code] ?? code, readDecimal(value));
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bom',
  name: 'Bank of Mongolia, official rates',
  relativeCurrency: 'MNT',
  url: 'https://www.mongolbank.mn/en/currency-rate-movement',
  countryCode: 'MN',
  timeZone: 'Asia/Ulaanbaatar',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2001-01-02',
  publishWindowUtc: { from: '02:00', to: '04:30', weekdaysOnly: true },
  fetches:
    'JSON posted for a date range, MNT per unit with thousands separators, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, BOM_URL, (text) => parseBomJson(text, publisher), {
        body: bomRequestBody(chunk),
        headers: HEADERS,
      });
      yield completing(batch, chunk.to);
    }
  },
};
