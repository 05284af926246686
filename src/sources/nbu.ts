import type { FetchWindow, SourceAdapter } from './adapter.js';
import { completing, fetchBatch, parseJson, windowChunks } from './adapter.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { isoFromDotted, readDecimal } from './publisher-text.js';
import type { SourceEntry } from './registry.js';

const EXCHANGE_URL = 'https://bank.gov.ua/NBU_Exchange/exchange_site';

const compact = (date: string): string => date.replaceAll('-', '');

export function nbuUrl(window: FetchWindow): string {
  return `${EXCHANGE_URL}?end=${compact(window.to)}&json=&order=asc&sort=exchangedate&start=${compact(window.from)}`;
}

interface NbuRecord {
  exchangedate?: string;
  cc?: string;
  rate?: number | string;
  units?: number | string;
}

/**
 * The NBU's JSON array: UAH per `units` of `cc` on `exchangedate` (dd.mm.yyyy). The bank sets
 * a rate for every calendar day, weekends included; all are kept as published.
 */
export function parseNbuJson(text: string, source: SourceEntry): Extraction {
  const records = parseJson(text);
  if (!Array.isArray(records)) throw new Error('expected a JSON array of rates');
  const builder = new ObservationBuilder(source);
  for (const record of records as NbuRecord[]) {
    const date = isoFromDotted(record.exchangedate);
    const units = record.units === undefined ? 1 : readDecimal(record.units);
    builder.addPrice(date, String(record.cc ?? ''), readDecimal(record.rate), units);
  }
  return builder.result();
}

export const nbuAdapter: SourceAdapter = {
  key: 'nbu',
  async *fetch(window, context) {
    // About 45 currencies a day: a year is some 16,000 records, a comfortable answer.
    for (const chunk of windowChunks(window, 366)) {
      const batch = await fetchBatch(context, nbuUrl(chunk), (text) =>
        parseNbuJson(text, context.source),
      );
      yield completing(batch, chunk.to);
    }
  },
};
