import { addDays, isWeekend } from '../dates.js';
import { redenominatedCode } from './currencies.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

export const BAM_API_KEY_ENV = 'BAM_API_KEY';

/** The transfer rates (`cours de virement`) of one day, as fixed at 12:30. */
export function bamUrl(date: string): string {
  return `https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=${date}T12:30:00`;
}

/**
 * An array of `{ date, libDevise, moyen, uniteDevise }`: MAD per `uniteDevise` units (100 for
 * JPY, SEK, XOF, 10 for DZD) of the ISO code `libDevise`; `moyen` is the middle rate. Some days
 * list a currency twice with the same figures; the store keeps one.
 */
export function parseBamJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const row of body as {
    date?: string;
    libDevise?: string;
    moyen?: number | string;
    uniteDevise?: number | string;
  }[]) {
    const date = /^(\d{4}-\d{2}-\d{2})T/.exec(row.date ?? '')?.[1] ?? String(row.date);
    builder.addPrice(
      date,
      // BAM still prints MRO for the ouguiya, at the level of the MRU that replaced it in 2018.
      redenominatedCode(String(row.libDevise).trim(), date),
      readDecimal(row.moyen),
      readDecimal(row.uniteDevise),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bam',
  name: 'Bank Al-Maghrib, transfer rates',
  relativeCurrency: 'MAD',
  url: 'https://apihelpdesk.centralbankofmorocco.ma/apis',
  countryCode: 'MA',
  timeZone: 'Africa/Casablanca',
  fixingTime: '12:30',
  isDst: false,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches: '`CoursVirement` JSON per weekday (API key), MAD per `uniteDevise`',
  apiKey: { variables: [BAM_API_KEY_ENV] },
  async *fetch(window, context) {
    const headers = { 'Ocp-Apim-Subscription-Key': context.env[BAM_API_KEY_ENV] ?? '' };
    for (let date = window.from; date <= window.to;) {
      if (!isWeekend(date)) {
        const batch = await fetchBatch(
          context,
          bamUrl(date),
          (text) => parseBamJson(text, publisher),
          { headers },
        );
        yield completing(batch, date);
      }
      date = addDays(date, 1);
    }
  },
};
