import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** Days per request: three months of every calendar day are some 0.8 MB of JSON. */
const CHUNK_DAYS = 90;

const dotted = (date: string): string => date.split('-').reverse().join('.');

/** The middle rates in force on every day of a window. */
export function nbrmUrl(window: FetchWindow): string {
  return `https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?EndDate=${dotted(window.to)}&StartDate=${dotted(window.from)}&format=json`;
}

interface NbrmRate {
  datum?: string;
  oznaka?: string;
  nomin?: number | string;
  sreden?: number | string | null;
}

/**
 * One row per currency and calendar day: `sreden` (the middle rate) in MKD per `nomin` units of
 * `oznaka`, in force on `datum` (`datum_f`, the business day it was set on, is earlier).
 */
export function parseNbrmJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const rate of body as NbrmRate[]) {
    builder.addPrice(
      String(rate.datum).slice(0, 10),
      String(rate.oznaka),
      readDecimal(rate.sreden),
      readDecimal(rate.nomin),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbrm',
  name: 'National Bank of the Republic of North Macedonia, middle exchange rates',
  relativeCurrency: 'MKD',
  url: 'https://www.nbrm.mk/kursna_lista-en.nspx',
  countryCode: 'MK',
  timeZone: 'Europe/Skopje',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '1993-01-01',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: false },
  fetches: 'JSON of the middle rates of every calendar day (`nomin` applied), 90 days per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, CHUNK_DAYS)) {
      const batch = await fetchBatch(context, nbrmUrl(chunk), (text) =>
        parseNbrmJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
