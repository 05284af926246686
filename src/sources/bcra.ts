import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, weekdays } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** One day of quotes per request (`Cotizaciones`, BCRA's exchange-statistics API v1.0). */
export function bcraUrl(date: string): string {
  return `https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones?fecha=${date}`;
}

/**
 * Codes BCRA still prints for currencies ISO 4217 has renamed: MXP for the Mexican peso, VEB for
 * the bolívar it quotes at today's level (a few pesos), which is the VES.
 */
const BCRA_CODES: Record<string, string> = { MXP: 'MXN', VEB: 'VES' };

interface BcraQuote {
  codigoMoneda?: string;
  descripcion?: string;
  tipoPase?: number;
  tipoCotizacion?: number;
}

/**
 * `results.detalle[]`: `tipoCotizacion` is ARS per unit, or per the units the description names
 * ("DONG VIETNAM (C/1.000 UNIDADES)"); `tipoPase` is the USD arbitrage, not stored. Rows with no
 * peso quote (the peso itself, gold and silver, quoted in USD only) and codes that are no
 * currency (REF, the "Comunicación A 3500" reference dollar; CNH, offshore yuan) are dropped.
 */
export function parseBcraJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { results?: { fecha?: string; detalle?: unknown } };
  const results = body?.results;
  if (!results || typeof results.fecha !== 'string' || !Array.isArray(results.detalle)) {
    throw new Error('expected JSON with results.fecha and results.detalle[]');
  }
  const builder = new ObservationBuilder(source);
  const date = results.fecha;
  for (const quote of results.detalle as BcraQuote[]) {
    const printed = String(quote.codigoMoneda);
    const code = BCRA_CODES[printed] ?? printed;
    const price = readDecimal(quote.tipoCotizacion);
    if (code === source.relativeCurrency) {
      builder.drop(`${code}: the source's own currency`);
      continue;
    }
    if (price === '0') {
      builder.drop(`${code} on ${date}: no peso quote (only ${readDecimal(quote.tipoPase)} USD)`);
      continue;
    }
    const units = /C\/\s*([\d.]+)\s*UNIDADES/i.exec(quote.descripcion ?? '')?.[1];
    builder.addPrice(date, code, price, units ? units.replaceAll('.', '') : '1');
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcra',
  name: 'Banco Central de la República Argentina, exchange quotes',
  relativeCurrency: 'ARS',
  url: 'https://www.bcra.gob.ar/en/monetary-and-financial-statistics/exchange-statistics/',
  countryCode: 'AR',
  timeZone: 'America/Argentina/Buenos_Aires',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-03',
  publishWindowUtc: { from: '16:00', to: '18:30', weekdaysOnly: true },
  fetches: '`Cotizaciones` JSON, a business day per request; `C/1.000 UNIDADES` applied',
  async *fetch(window, context) {
    for (const day of weekdays(window)) {
      const batch = await fetchBatch(context, bcraUrl(day), (text) =>
        parseBcraJson(text, publisher),
      );
      yield completing(batch, day);
    }
  },
};
