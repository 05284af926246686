import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/**
 * The SARB's daily exchange-rate series and their currencies: USD, GBP and EUR are printed as
 * rand per unit, the others as units per rand (the series' names say which).
 */
export const SARB_SERIES: Record<string, string> = {
  EXCX135D: 'USD',
  EXCZ001D: 'GBP',
  EXCZ002D: 'EUR',
  EXCB080D: 'AUD',
  EXCB051D: 'BWP',
  EXCB036D: 'BRL',
  EXCB031D: 'CAD',
  EXCB121D: 'CNY',
  EXCB003D: 'DKK',
  EXCB122D: 'HKD',
  EXCB123D: 'INR',
  EXCB094D: 'ILS',
  EXCB120D: 'JPY',
  EXCB059D: 'KES',
  EXCB063D: 'MWK',
  EXCB081D: 'NZD',
  EXCB013D: 'NOK',
  EXCB015D: 'SEK',
  EXCB016D: 'CHF',
  EXCB126D: 'TWD',
  EXCB115D: 'THB',
  EXCB071D: 'ZMW',
  EXCB118D: 'KRW',
};

export function sarbUrl(series: string, window: FetchWindow): string {
  return `https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations/${series}/${window.from}T00:00:00/${window.to}T00:00:00`;
}

/**
 * One series: a JSON array of `{ Period, Timeseries, Value }`. `Timeseries` reads "Rand per US
 * Dollar" (ZAR per unit, inverted) or "Japan: Yen per Rand" (units per ZAR, stored as is).
 */
export function parseSarbJson(text: string, code: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of observations');
  const builder = new ObservationBuilder(source);
  for (const row of body as { Period?: unknown; Timeseries?: unknown; Value?: unknown }[]) {
    const date = String(row?.Period).slice(0, 10);
    const name = String(row?.Timeseries);
    const value = readDecimal(row?.Value as number | string | null);
    if (/^Rand per /i.test(name)) builder.addPrice(date, code, value);
    else if (/ per Rand$/i.test(name)) builder.add(date, code, value);
    else builder.drop(`${code} on ${date}: series '${name}' is neither rand per unit nor per rand`);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'sarb',
  name: 'South African Reserve Bank, daily exchange rates',
  relativeCurrency: 'ZAR',
  url: 'https://www.resbank.co.za/en/home/what-we-do/statistics/key-statistics/selected-historical-rates',
  countryCode: 'ZA',
  timeZone: 'Africa/Johannesburg',
  fixingTime: '10:30',
  isDst: false,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '09:00', to: '11:30', weekdaysOnly: true },
  fetches: 'Web API `GetTimeseriesObservations` JSON, one series per currency, a year per request',
  async *fetch(window, context) {
    const series = Object.entries(SARB_SERIES);
    for (const chunk of yearChunks(window)) {
      for (const [index, [id, code]] of series.entries()) {
        const batch = await fetchBatch(context, sarbUrl(id, chunk), (text) =>
          parseSarbJson(text, code, publisher),
        );
        yield index === series.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
