import { addDays, isWeekend } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The official rates in force on one date (the latest set on or before it). */
export function nbgUrl(date: string): string {
  return `https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=${date}`;
}

interface NbgCurrency {
  code?: string;
  quantity?: number | string;
  rateFormated?: string;
  rate?: number;
  validFromDate?: string;
}

/**
 * `[{date, currencies[]}]`: GEL per `quantity` units (10, 100, 1000, 10000) of `code`, valid from
 * `validFromDate`. The bank sets a rate on a business day for the next day, so a Friday's rate
 * is dated Saturday and stays in force until Monday's. Dates are written as UTC midnights of
 * the local date; `rateFormated` keeps the published digits (`rate` loses trailing zeros).
 */
export function parseNbgJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of days');
  const builder = new ObservationBuilder(source);
  for (const day of body as { date?: string; currencies?: unknown }[]) {
    if (!Array.isArray(day?.currencies)) throw new Error('expected currencies[] in every day');
    for (const currency of day.currencies as NbgCurrency[]) {
      const date = String(currency.validFromDate ?? day.date).slice(0, 10);
      builder.addPrice(
        date,
        String(currency.code),
        readDecimal(currency.rateFormated ?? currency.rate),
        readDecimal(currency.quantity),
      );
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbg',
  name: 'National Bank of Georgia, official exchange rates',
  relativeCurrency: 'GEL',
  url: 'https://nbg.gov.ge/en/monetary-policy/currency',
  countryCode: 'GE',
  timeZone: 'Asia/Tbilisi',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1995-10-14',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: true },
  fetches: 'JSON of the rates in force on a date, `quantity` applied; a business day per request',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
      if (isWeekend(date)) continue;
      const batch = await fetchBatch(context, nbgUrl(date), (text) =>
        parseNbgJson(text, publisher),
      );
      yield completing(batch, date);
    }
  },
};
