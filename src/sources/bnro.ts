import type { SourceAdapter } from './adapter.js';
import { completing, fetchBatch, requireXmlRoot, xmlAttribute, yearChunks } from './adapter.js';
import { GRAMS_PER_TROY_OUNCE } from './currencies.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { readDecimal } from './publisher-text.js';
import type { SourceEntry } from './registry.js';

/** One file per year since 2005; the current year's grows every business day. */
export function bnroUrl(year: number): string {
  return `https://curs.bnr.ro/files/xml/years/nbrfxrates${year}.xml`;
}

/**
 * BNR's XML: `<Cube date>` holding `<Rate currency [multiplier]>` elements, RON per unit or per
 * `multiplier` units. Gold (XAU) is quoted per gram; ISO's XAU is a troy ounce.
 */
export function parseBnroXml(text: string, source: SourceEntry): Extraction {
  requireXmlRoot(text, 'DataSet');
  const builder = new ObservationBuilder(source);
  for (const cube of text.matchAll(/<Cube\s[^>]*>([\s\S]*?)<\/Cube>/g)) {
    const date = xmlAttribute(cube[0], 'date') ?? '';
    for (const rate of cube[1]!.matchAll(/<Rate\s([^>]*)>([^<]*)<\/Rate>/g)) {
      const attributes = ` ${rate[1]}`;
      const code = xmlAttribute(attributes, 'currency') ?? '';
      const units = Number(xmlAttribute(attributes, 'multiplier') ?? 1);
      const price = readDecimal(rate[2]);
      if (code === 'XAU') builder.addPrice(date, code, price * GRAMS_PER_TROY_OUNCE, units);
      else builder.addPrice(date, code, price, units);
    }
  }
  return builder.result();
}

export const bnroAdapter: SourceAdapter = {
  key: 'bnro',
  async *fetch(window, context) {
    // The publisher has no file for years before its history starts.
    const start = context.source.historyStart;
    const from = window.from > start ? window.from : start;
    for (const chunk of yearChunks({ from, to: window.to })) {
      const batch = await fetchBatch(context, bnroUrl(Number(chunk.from.slice(0, 4))), (text) =>
        parseBnroXml(text, context.source),
      );
      yield completing(batch, chunk.to);
    }
  },
};
