import type { SourceAdapter } from './adapter.js';
import { completing, fetchBatch, parseJson } from './adapter.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder, readDecimal } from './observation-builder.js';
import type { SourceEntry } from './registry.js';

/** One year of daily fixings per request; the series starts in 1991. */
export function cnbUrl(year: number): string {
  return `https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=${year}`;
}

export const CNB_FIRST_YEAR = 1991;

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
    const first = Math.max(CNB_FIRST_YEAR, Number(window.from.slice(0, 4)));
    for (let year = first; year <= Number(window.to.slice(0, 4)); year++) {
      const batch = await fetchBatch(context, cnbUrl(year), (text) =>
        parseCnbJson(text, context.source),
      );
      yield completing(batch, `${year}-12-31` < window.to ? `${year}-12-31` : window.to);
    }
  },
};
