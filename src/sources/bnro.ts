import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  requireXmlRoot,
  xmlAttribute,
  yearChunks,
} from './publisher-fetch.js';
import { perTroyOunce, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** One file per year since 2005; the current year's grows every business day. */
export function bnroUrl(year: number): string {
  return `https://curs.bnr.ro/files/xml/years/nbrfxrates${year}.xml`;
}

/**
 * BNR's XML: `<Cube date>` holding `<Rate currency [multiplier]>` elements, RON per unit or per
 * `multiplier` units. Gold (XAU) is quoted per gram; ISO's XAU is a troy ounce.
 */
export function parseBnroXml(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'DataSet');
  const builder = new ObservationBuilder(source);
  for (const cube of text.matchAll(/<Cube\s[^>]*>([\s\S]*?)<\/Cube>/g)) {
    const date = xmlAttribute(cube[0], 'date') ?? '';
    for (const rate of cube[1]!.matchAll(/<Rate\s([^>]*)>([^<]*)<\/Rate>/g)) {
      const attributes = ` ${rate[1]}`;
      const code = xmlAttribute(attributes, 'currency') ?? '';
      const units = readDecimal(xmlAttribute(attributes, 'multiplier') ?? '1');
      const price = readDecimal(rate[2]);
      builder.addPrice(date, code, code === 'XAU' ? perTroyOunce(price) : price, units);
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bnro',
  name: 'National Bank of Romania, reference rates',
  relativeCurrency: 'RON',
  url: 'https://www.bnr.ro/en/561-exchange-rates',
  countryCode: 'RO',
  timeZone: 'Europe/Bucharest',
  fixingTime: '13:00',
  isDst: true,
  historyStart: '2005-01-03',
  publishWindowUtc: { from: '11:00', to: '13:30', weekdaysOnly: true },
  fetches: 'yearly XML files, `multiplier` applied; gold per gram converted to the troy ounce',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, bnroUrl(Number(chunk.from.slice(0, 4))), (text) =>
        parseBnroXml(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
