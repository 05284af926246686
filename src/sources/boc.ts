import type { FetchWindow, SourceAdapter } from './adapter.js';
import { fetchBatch, parseJson } from './adapter.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { readDecimal } from './publisher-text.js';
import type { SourceEntry } from './registry.js';

/** Valet's daily group, from a start date to the newest rate. */
export function bocUrl(window: FetchWindow): string {
  return `https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=${window.from}`;
}

interface ValetAnswer {
  seriesDetail?: Record<string, unknown>;
  observations?: Record<string, { v?: string } | string>[];
}

/** Valet JSON: series `FX<CODE>CAD`, CAD per unit, values as strings; empty series are skipped. */
export function parseBocJson(text: string, source: SourceEntry): Extraction {
  const answer = parseJson(text) as ValetAnswer;
  if (!Array.isArray(answer?.observations))
    throw new Error('expected Valet JSON with observations[]');
  const builder = new ObservationBuilder(source);
  for (const row of answer.observations) {
    const date = String(row.d ?? '');
    for (const [series, cell] of Object.entries(row)) {
      const match = /^FX([A-Z]{3})CAD$/.exec(series);
      if (!match || typeof cell !== 'object' || cell.v === undefined || cell.v === '') continue;
      builder.addPrice(date, match[1]!, readDecimal(cell.v));
    }
  }
  return builder.result();
}

export const bocAdapter: SourceAdapter = {
  key: 'boc',
  async *fetch(window, context) {
    yield await fetchBatch(context, bocUrl(window), (text) => parseBocJson(text, context.source));
  },
};
