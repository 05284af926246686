import { addDays, isWeekend } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, requireXmlRoot, xmlChildText } from './publisher-fetch.js';
import { isoFromDotted, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The official rates of one date, as the bank's RSS feed serves them (dd.mm.yyyy). */
export function nbkUrl(date: string): string {
  const [year, month, day] = date.split('-');
  return `https://nationalbank.kz/rss/get_rates.cfm?fdate=${day}.${month}.${year}`;
}

/**
 * The RSS-like `<rates>` document: its `<date>` (dd.mm.yyyy), then one `<item>` per currency
 * with the code in `<title>`, KZT per `<quant>` units (10, 100, 1000) in `<description>`.
 */
export function parseNbkXml(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'rates');
  const builder = new ObservationBuilder(source);
  const date = isoFromDotted(xmlChildText(/^[\s\S]*?<item>/.exec(text)?.[0] ?? text, 'date'));
  for (const item of text.matchAll(/<item>([\s\S]*?)<\/item>/g)) {
    builder.addPrice(
      date,
      xmlChildText(item[1]!, 'title') ?? '',
      readDecimal(xmlChildText(item[1]!, 'description')),
      readDecimal(xmlChildText(item[1]!, 'quant')),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbk',
  name: 'National Bank of Kazakhstan, official (market) exchange rates',
  relativeCurrency: 'KZT',
  url: 'https://nationalbank.kz/en/exchangerates/ezhednevnye-oficialnye-rynochnye-kursy-valyut',
  countryCode: 'KZ',
  timeZone: 'Asia/Almaty',
  fixingTime: '00:00',
  // Kazakhstan keeps no summer time (Almaty moved from UTC+6 to UTC+5 for good on 2024-03-01).
  isDst: false,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '09:00', to: '11:30', weekdaysOnly: true },
  fetches: 'RSS XML of one date per request, `quant` applied',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
      if (isWeekend(date)) continue;
      const batch = await fetchBatch(context, nbkUrl(date), (text) => parseNbkXml(text, publisher));
      yield completing(batch, date);
    }
  },
};
