import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** One year of daily fixings per request; the series starts in 1991. */
export function cnbUrl(year: number): string {
  return `https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=${year}`;
}

/** `rates[]`: CZK per `amount` units of `currencyCode` (100 for JPY, 1000 for IDR) on `validFor`. */
export function parseCnbJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { rates?: unknown };
  if (!Array.isArray(body?.rates)) throw new Error('expected JSON with rates[]');
  const builder = new ObservationBuilder(source);
  for (const rate of body.rates as {
    currencyCode?: string;
    amount?: number;
    validFor?: string;
    rate?: number;
  }[]) {
    builder.addPrice(
      String(rate.validFor),
      String(rate.currencyCode),
      readDecimal(rate.rate),
      readDecimal(rate.amount),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cnb',
  name: 'Czech National Bank, exchange rate fixing',
  relativeCurrency: 'CZK',
  url: 'https://www.cnb.cz/en/financial-markets/foreign-exchange-market/central-bank-exchange-rate-fixing/',
  countryCode: 'CZ',
  timeZone: 'Europe/Prague',
  fixingTime: '14:30',
  isDst: true,
  historyStart: '1991-01-01',
  publishWindowUtc: { from: '12:30', to: '15:00', weekdaysOnly: true },
  fetches: '`daily-year` JSON, `amount` applied, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, cnbUrl(Number(chunk.from.slice(0, 4))), (text) =>
        parseCnbJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
