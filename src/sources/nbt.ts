import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  requireXmlRoot,
  xmlAttribute,
  xmlChildText,
} from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** One day's official rates; the bank publishes every day, weekends included. */
export function nbtUrl(date: string): string {
  return `https://www.nbt.tj/en/kurs/export_xml.php?date=${date}&export=xmlout`;
}

/**
 * `<ValCurs Date="YYYY-MM-DD">` with one `<Valute>` per currency: TJS per `Nominal` units
 * (1, 10, 100 or 1000) of `CharCode`, decimal point.
 */
export function parseNbtXml(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'ValCurs');
  const date = xmlAttribute(/<ValCurs\s[^>]*>/.exec(text)?.[0] ?? '', 'Date') ?? '';
  const builder = new ObservationBuilder(source);
  for (const valute of text.matchAll(/<Valute[\s>][\s\S]*?<\/Valute>/g)) {
    builder.addPrice(
      date,
      xmlChildText(valute[0], 'CharCode') ?? '',
      readDecimal(xmlChildText(valute[0], 'Value')),
      readDecimal(xmlChildText(valute[0], 'Nominal') ?? '1'),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbt',
  name: 'National Bank of Tajikistan, official rates',
  relativeCurrency: 'TJS',
  url: 'https://www.nbt.tj/en/kurs/',
  countryCode: 'TJ',
  timeZone: 'Asia/Dushanbe',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2001-01-01',
  publishWindowUtc: { from: '04:00', to: '06:30', weekdaysOnly: false },
  fetches: '`export_xml.php` XML, one day per request, `Nominal` applied',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to;) {
      const batch = await fetchBatch(context, nbtUrl(date), (text) => parseNbtXml(text, publisher));
      yield completing(batch, date);
      date = addDays(date, 1);
    }
  },
};
