import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The currencies the bank's history service quotes, each asked for on its own. */
export const BNRRW_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'CNY',
  'INR',
  'ZAR',
  'AED',
  'SAR',
  'KES',
  'UGX',
  'TZS',
  'BIF',
] as const;

export function bnrrwUrl(code: string, window: FetchWindow): string {
  return (
    `https://fxrates.bnr.rw/currency_history/?currency_name=${code}` +
    `&end_date=${window.to}&start_date=${window.from}`
  );
}

/** "19-May-26" as 2026-05-19. */
export function isoFromBnrrwDate(text: string): string {
  const match = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(text.trim());
  if (!match) return text;
  const year = `${Number(match[3]) < 70 ? '20' : '19'}${match[3]}`;
  return isoFromEnglish(match[1]!, match[2]!, year) ?? text;
}

/**
 * A JSON array of `{currency_name, buying_rate, average_rate, selling_rate, post_date}`, RWF per
 * unit as decimal text, in no particular date order; the published average rate is stored.
 */
export function parseBnrrwJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const row of body as {
    currency_name?: string;
    average_rate?: string;
    post_date?: string;
  }[]) {
    builder.addPrice(
      isoFromBnrrwDate(String(row.post_date)),
      String(row.currency_name).trim(),
      readDecimal(row.average_rate),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bnrrw',
  name: 'National Bank of Rwanda, reference rates',
  relativeCurrency: 'RWF',
  url: 'https://www.bnr.rw/exchangeRate',
  countryCode: 'RW',
  timeZone: 'Africa/Kigali',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2012-01-02',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches: 'JSON `currency_history` per currency (16), average rates, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      for (const [index, code] of BNRRW_CURRENCIES.entries()) {
        const batch = await fetchBatch(context, bnrrwUrl(code, chunk), (text) =>
          parseBnrrwJson(text, publisher),
        );
        yield index === BNRRW_CURRENCIES.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
