import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/**
 * The euro exchange rate list (since the euro replaced the kuna on 2023-01-01) for the dates of
 * application in a window. The older kuna lists (`tecajn/v2`) quote HRK and are not read.
 */
export function hnbUrl(window: FetchWindow): string {
  return `https://api.hnb.hr/tecajn-eur/v3?datum-primjene-do=${window.to}&datum-primjene-od=${window.from}`;
}

interface HnbRecord {
  datum_primjene?: string;
  valuta?: string;
  srednji_tecaj?: string;
}

/**
 * `tecajn-eur/v3`: one record per currency and date of application (`datum_primjene`), units of
 * `valuta` per 1 EUR with decimal commas. The middle rate (`srednji_tecaj`) is stored; buying
 * and selling rates are not.
 */
export function parseHnbJson(text: string, source: ObservationSource): Extraction {
  const records = parseJson(text);
  if (!Array.isArray(records)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const record of records as HnbRecord[]) {
    builder.add(
      String(record.datum_primjene),
      String(record.valuta ?? ''),
      readDecimal(record.srednji_tecaj, true),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'hnb',
  name: 'Croatian National Bank, euro exchange rate list',
  relativeCurrency: 'EUR',
  url: 'https://www.hnb.hr/en/core-functions/monetary-policy/exchange-rate-list',
  countryCode: 'HR',
  timeZone: 'Europe/Zagreb',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '2023-01-02',
  publishWindowUtc: { from: '12:00', to: '14:30', weekdaysOnly: false },
  fetches: '`tecajn-eur/v3` JSON middle rates (decimal commas), a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, hnbUrl(chunk), (text) =>
        parseHnbJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
