import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The currencies the Banco Central de Cuba quotes. */
export const BCC_CURRENCIES = [
  'AUD',
  'CAD',
  'CHF',
  'CNY',
  'DKK',
  'EUR',
  'GBP',
  'JPY',
  'MXN',
  'NOK',
  'RUB',
  'SEK',
  'USD',
] as const;

/** The yen is quoted the other way round: yen per peso, in all three rates. */
const QUOTED_PER_CUP = new Set(['JPY']);

export function bccUrl(code: string, window: FetchWindow): string {
  return (
    `https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda=${code}` +
    `&fechaFin=${window.to}&fechaInicio=${window.from}`
  );
}

/**
 * One currency's days: `{ fecha, tasaOficial, tasaPublica, tasaEspecial }`, CUP per unit (yen
 * per CUP for JPY). The three are the segments of the Cuban market: the official rate (24 per
 * USD), the public rate (120) and the floating special rate that started on 2025-12-19, which
 * follows the market and is the one stored.
 */
export function parseBccJson(text: string, code: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of daily rates');
  const builder = new ObservationBuilder(source);
  for (const row of body as { fecha?: string; tasaEspecial?: number | string | null }[]) {
    const date = String(row.fecha);
    const value = readDecimal(row.tasaEspecial);
    if (QUOTED_PER_CUP.has(code)) builder.add(date, code, value);
    else builder.addPrice(date, code, value);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcc',
  name: 'Banco Central de Cuba, floating (special) rate',
  relativeCurrency: 'CUP',
  url: 'https://api.bc.gob.cu/v1/tasas-de-cambio/activas',
  countryCode: 'CU',
  timeZone: 'America/Havana',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '2025-12-19',
  publishWindowUtc: { from: '04:00', to: '06:30', weekdaysOnly: false },
  fetches: '`historico` JSON per currency, `tasaEspecial` (JPY quoted per CUP), a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      for (const code of BCC_CURRENCIES) {
        const batch = await fetchBatch(context, bccUrl(code, chunk), (text) =>
          parseBccJson(text, code, publisher),
        );
        yield code === BCC_CURRENCIES.at(-1) ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
