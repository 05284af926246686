import { addDays, isWeekend } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  requireXmlRoot,
  xmlAttribute,
  xmlChildText,
} from './publisher-fetch.js';
import { isoFromDotted, perTroyOunce, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

const BNM = 'https://www.bnm.md/en';

const dotted = (date: string): string => date.split('-').reverse().join('.');

/** The official exchange rates of one date. */
export function nbmRatesUrl(date: string): string {
  return `${BNM}/official_exchange_rates?date=${dotted(date)}&get_xml=1`;
}

/** The official prices of gold and silver of one date. */
export function nbmMetalsUrl(date: string): string {
  return `${BNM}/official_metal_rates?date=${dotted(date)}&get_xml=1`;
}

/** `<ValCurs Date>` with one `<Valute>` per currency: MDL per `Nominal` units (1, 10, 100). */
export function parseNbmRates(text: string, source: ObservationSource): Extraction {
  return parseNbmDocument(text, 'ValCurs', 'Valute', source, (value) => value);
}

/**
 * `<MetalPrice Date>` with one `<Metal>` per metal (XAU, XAG): MDL per gram, stored per troy
 * ounce, the unit of ISO 4217's metal codes.
 */
export function parseNbmMetals(text: string, source: ObservationSource): Extraction {
  return parseNbmDocument(text, 'MetalPrice', 'Metal', source, perTroyOunce);
}

function parseNbmDocument(
  text: string,
  root: string,
  element: string,
  source: ObservationSource,
  scale: (price: string) => string,
): Extraction {
  requireXmlRoot(text, root);
  const builder = new ObservationBuilder(source);
  const start = new RegExp(`<${root}\\s[^>]*>`).exec(text)?.[0] ?? '';
  const date = isoFromDotted(xmlAttribute(start, 'Date'));
  for (const entry of text.matchAll(new RegExp(`<${element}[\\s>][\\s\\S]*?</${element}>`, 'g'))) {
    builder.addPrice(
      date,
      xmlChildText(entry[0], 'CharCode') ?? '',
      scale(readDecimal(xmlChildText(entry[0], 'Value'))),
      readDecimal(xmlChildText(entry[0], 'Nominal')),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbm',
  name: 'National Bank of Moldova, official exchange rates',
  relativeCurrency: 'MDL',
  url: 'https://www.bnm.md/en/official_exchange_rates',
  countryCode: 'MD',
  timeZone: 'Europe/Chisinau',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '13:00', to: '15:30', weekdaysOnly: true },
  fetches:
    'XML of one date per request (`Nominal` applied), and the gold and silver prices per gram converted to the troy ounce',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
      if (isWeekend(date)) continue;
      yield await fetchBatch(context, nbmRatesUrl(date), (text) => parseNbmRates(text, publisher));
      const metals = await fetchBatch(context, nbmMetalsUrl(date), (text) =>
        parseNbmMetals(text, publisher),
      );
      yield completing(metals, date);
    }
  },
};
