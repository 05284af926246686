import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** Valet's daily group, from a start date to the newest rate. */
export function bocUrl(window: FetchWindow): string {
  return `https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=${window.from}`;
}

interface ValetAnswer {
  seriesDetail?: Record<string, unknown>;
  observations?: Record<string, { v?: string } | string>[];
}

/** Valet JSON: series `FX<CODE>CAD`, CAD per unit, values as strings; empty series are skipped. */
export function parseBocJson(text: string, source: ObservationSource): Extraction {
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

export const publisher: Publisher = {
  key: 'boc',
  name: 'Bank of Canada, daily exchange rates',
  relativeCurrency: 'CAD',
  url: 'https://www.bankofcanada.ca/rates/exchange/daily-exchange-rates/',
  countryCode: 'CA',
  timeZone: 'America/Toronto',
  fixingTime: '16:30',
  isDst: true,
  historyStart: '2017-01-03',
  publishWindowUtc: { from: '20:30', to: '23:00', weekdaysOnly: true },
  fetches: 'Valet `FX_RATES_DAILY` JSON, from the window start to the newest rate',
  async *fetch(window, context) {
    yield await fetchBatch(context, bocUrl(window), (text) => parseBocJson(text, publisher));
  },
};
