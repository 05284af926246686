import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/**
 * The Federal Reserve's H.10 noon rates on FRED. `DEX<xx>US` series are units per USD;
 * `DEXUS<xx>` series are USD per unit, the other way round.
 */
export const FRED_SERIES: Readonly<Record<string, string>> = {
  DEXBZUS: 'BRL',
  DEXCAUS: 'CAD',
  DEXCHUS: 'CNY',
  DEXDNUS: 'DKK',
  DEXHKUS: 'HKD',
  DEXINUS: 'INR',
  DEXJPUS: 'JPY',
  DEXKOUS: 'KRW',
  DEXMAUS: 'MYR',
  DEXMXUS: 'MXN',
  DEXNOUS: 'NOK',
  DEXSDUS: 'SEK',
  DEXSFUS: 'ZAR',
  DEXSIUS: 'SGD',
  DEXSLUS: 'LKR',
  DEXSZUS: 'CHF',
  DEXTAUS: 'TWD',
  DEXTHUS: 'THB',
  DEXUSAL: 'AUD',
  DEXUSEU: 'EUR',
  DEXUSNZ: 'NZD',
  DEXUSUK: 'GBP',
};

export const FRED_API_KEY_ENV = 'FRED_API_KEY';

export function fredUrl(series: string, window: FetchWindow, apiKey: string): string {
  return (
    `https://api.stlouisfed.org/fred/series/observations?api_key=${encodeURIComponent(apiKey)}` +
    `&file_type=json&observation_start=${window.from}&series_id=${series}`
  );
}

/** `observations[]` with `date` and `value` as text; "." marks a day without a rate. */
export function parseFredJson(text: string, series: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { observations?: { date?: string; value?: string }[] };
  if (!Array.isArray(body?.observations)) throw new Error('expected FRED JSON with observations[]');
  const code = FRED_SERIES[series];
  if (!code) throw new Error(`unknown series ${series}`);
  const perUsd = !series.startsWith('DEXUS');
  const builder = new ObservationBuilder(source);
  for (const observation of body.observations) {
    if (observation.value === '.') continue;
    const value = readDecimal(observation.value);
    const date = String(observation.date);
    if (perUsd) builder.add(date, code, value);
    else builder.addPrice(date, code, value);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'fred',
  name: 'Federal Reserve H.10 noon buying rates, via FRED',
  relativeCurrency: 'USD',
  url: 'https://fred.stlouisfed.org/release?rid=17',
  countryCode: 'US',
  timeZone: 'America/New_York',
  fixingTime: '12:00',
  isDst: true,
  historyStart: '1971-01-04',
  publishWindowUtc: { from: '20:00', to: '23:30', weekdaysOnly: true },
  fetches: '22 `DEX*` series (`DEXUS*` inverted)',
  apiKey: { variables: [FRED_API_KEY_ENV] },
  async *fetch(window, context) {
    const apiKey = context.env[FRED_API_KEY_ENV] ?? '';
    for (const series of Object.keys(FRED_SERIES)) {
      yield await fetchBatch(context, fredUrl(series, window, apiKey), (text) =>
        parseFredJson(text, series, publisher),
      );
    }
  },
};
