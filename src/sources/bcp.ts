import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The currencies of BCP's yearly reference-rate pages, in its order; XAU is a troy ounce. */
export const BCP_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'CNY',
  'BRL',
  'ARS',
  'CLP',
  'MXN',
  'UYU',
  'COP',
  'BOB',
  'NZD',
  'ZAR',
  'SEK',
  'DKK',
  'NOK',
  'AED',
  'PEN',
  'SGD',
  'TWD',
  'XAU',
] as const;

/** One currency's reference rates for a whole year, as an HTML page. */
export function bcpUrl(year: number, currency: string): string {
  return `https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=${year}&moneda=${currency}`;
}

/**
 * "PLANILLA DE COTIZACIONES DEL AÑO yyyy": a grid of days (rows 1 to 31) by months (ENE to DIC)
 * of PYG per unit of `currency`, with dots between thousands and a decimal comma
 * ("7.271,63"). "ND" marks days without a rate (weekends, holidays, days a month lacks).
 */
export function parseBcpHtml(
  text: string,
  currency: string,
  source: ObservationSource,
): Extraction {
  if (!/<\/html>\s*$/i.test(text)) throw new Error('the page ends before </html> (cut short?)');
  const year = /COTIZACIONES DEL A(?:&Ntilde;|Ñ)O (\d{4})/i.exec(text)?.[1];
  if (!year) throw new Error('expected "PLANILLA DE COTIZACIONES DEL AÑO <year>"');
  const start = text.indexOf('<tbody>', text.search(/COTIZACIONES DEL A/i));
  const end = text.indexOf('</tbody>', start);
  if (start < 0 || end < 0) throw new Error('the table of rates is missing');
  const builder = new ObservationBuilder(source);
  let days = 0;
  for (const row of text.slice(start, end).matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
    const day = /<th[^>]*>\s*(\d{1,2})\s*<\/th>/.exec(row[1]!)?.[1];
    if (!day) continue;
    days++;
    const cells = [...row[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]!.trim());
    if (cells.length !== 12) throw new Error(`day ${day} has ${cells.length} months, expected 12`);
    for (const [month, cell] of cells.entries()) {
      if (cell === 'ND') continue;
      const date = `${year}-${String(month + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
      builder.addPrice(date, currency, readDecimal(cell.replaceAll('.', ''), true));
    }
  }
  if (days !== 31) throw new Error(`expected 31 days in the table, found ${days}`);
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcp',
  name: 'Banco Central del Paraguay, reference exchange rates',
  relativeCurrency: 'PYG',
  url: 'https://www.bcp.gov.py/webapps/web/cotizacion/monedas',
  countryCode: 'PY',
  timeZone: 'America/Asuncion',
  fixingTime: '00:00',
  // Paraguay kept summer time until October 2024 (observation times before then follow it).
  isDst: false,
  historyStart: '2001-01-01',
  publishWindowUtc: { from: '19:00', to: '21:30', weekdaysOnly: true },
  fetches: 'yearly HTML page per currency, a day-by-month grid, decimal commas',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const year = Number(chunk.from.slice(0, 4));
      for (const [index, currency] of BCP_CURRENCIES.entries()) {
        const batch = await fetchBatch(
          context,
          bcpUrl(year, currency),
          (text) => parseBcpHtml(text, currency, publisher),
          { html: true },
        );
        yield index === BCP_CURRENCIES.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
