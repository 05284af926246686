import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** Group 130 of the SWEA API: the Riksbank's daily mid rates of SEK against other currencies. */
export function rbUrl(window: FetchWindow): string {
  return `https://api.riksbank.se/swea/v1/Observations/ByGroup/130/${window.from}/${window.to}`;
}

/**
 * A JSON array of `{ seriesId, date, value }`: `SEK<code>PMI` is SEK per 1 unit of `<code>`
 * (JPY and IDR too). The group also holds `SEKETT`, SEK against itself, which is no rate.
 * An empty body is a window without banking days.
 */
export function parseRbJson(text: string, source: ObservationSource): Extraction {
  const builder = new ObservationBuilder(source);
  if (text.trim() === '') return builder.result();
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of observations');
  for (const row of body as { seriesId?: unknown; date?: unknown; value?: unknown }[]) {
    const series = String(row?.seriesId);
    const code = /^SEK([A-Z]{3})PMI$/.exec(series)?.[1];
    if (!code) {
      builder.drop(`series ${series} is not an exchange rate`);
      continue;
    }
    builder.addPrice(String(row.date), code, readDecimal(row.value as number | string | null));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'rb',
  name: 'Sveriges Riksbank, exchange rates',
  relativeCurrency: 'SEK',
  url: 'https://www.riksbank.se/en-gb/statistics/interest-rates-and-exchange-rates/',
  countryCode: 'SE',
  timeZone: 'Europe/Stockholm',
  fixingTime: '16:15',
  isDst: true,
  historyStart: '1993-01-04',
  publishWindowUtc: { from: '15:00', to: '17:30', weekdaysOnly: true },
  fetches: 'SWEA API `Observations/ByGroup/130` JSON, SEK per unit, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, rbUrl(chunk), (text) => parseRbJson(text, publisher));
      yield completing(batch, chunk.to);
    }
  },
};
