import type { SourceAdapter } from './adapter.js';
import { completing, fetchBatch, parseJson, yearChunks } from './adapter.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { readDecimal } from './publisher-text.js';
import type { SourceEntry } from './registry.js';

/** One year of daily fixings per request; the series starts in 1991. */
export function cnbUrl(year: number): string {
  return `https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=${year}`;
}

/** `rates[]`: CZK per `amount` units of `currencyCode` (100 for JPY, 1000 for IDR) on `validFor`. */
export function parseCnbJson(text: string, source: SourceEntry): Extraction {
  const body = parseJson(text) as { rates?: unknown };
  if (!Array.isArray(body?.rates)) throw new Error('expected JSON with rates[]');
  const builder = new ObservationBuilder(source);
  for (const rate of body.rates as {
    currencyCode?: string;
    amount?: number;
    validFor?: string;
    rate?: number;
  }[]) {
    builder.addPrice(
      String(rate.validFor),
      String(rate.currencyCode),
      readDecimal(rate.rate),
      readDecimal(rate.amount),
    );
  }
  return builder.result();
}

export const cnbAdapter: SourceAdapter = {
  key: 'cnb',
  async *fetch(window, context) {
    // The publisher has no file for years before its history starts.
    const start = context.source.historyStart;
    const from = window.from > start ? window.from : start;
    for (const chunk of yearChunks({ from, to: window.to })) {
      const batch = await fetchBatch(context, cnbUrl(Number(chunk.from.slice(0, 4))), (text) =>
        parseCnbJson(text, context.source),
      );
      yield completing(batch, chunk.to);
    }
  },
};
