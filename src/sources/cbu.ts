import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson } from './publisher-fetch.js';
import { isoFromDotted, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** Every currency's rate in force on one date; the archive answers one date per request. */
export function cbuUrl(date: string): string {
  return `https://cbu.uz/en/arkhiv-kursov-valyut/json/all/${date}/`;
}

interface CbuRecord {
  Ccy?: string;
  Nominal?: string | number;
  Rate?: string | number;
  Date?: string;
}

/**
 * The archive's JSON array: UZS per `Nominal` units of `Ccy` (10 for IDR, IRR and VND) in force
 * from `Date` (dd.mm.yyyy). The date printed in each record is the one stored: a day without new
 * rates answers with the last ones and their own date.
 */
export function parseCbuJson(text: string, source: ObservationSource): Extraction {
  const records = parseJson(text);
  if (!Array.isArray(records)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const record of records as CbuRecord[]) {
    const units = record.Nominal === undefined ? '1' : readDecimal(record.Nominal);
    builder.addPrice(
      isoFromDotted(record.Date),
      String(record.Ccy ?? ''),
      readDecimal(record.Rate),
      units,
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbu',
  name: 'Central Bank of Uzbekistan, official rates',
  relativeCurrency: 'UZS',
  url: 'https://cbu.uz/en/arkhiv-kursov-valyut/',
  countryCode: 'UZ',
  timeZone: 'Asia/Tashkent',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1994-07-01',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: true },
  fetches: 'archive JSON of all currencies, `Nominal` applied, a date per request',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to;) {
      const batch = await fetchBatch(context, cbuUrl(date), (text) =>
        parseCbuJson(text, publisher),
      );
      yield completing(batch, date);
      date = addDays(date, 1);
    }
  },
};
