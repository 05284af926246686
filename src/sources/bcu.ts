import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  requireXmlRoot,
  xmlChildText,
  yearChunks,
} from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** BCU's SOAP service of quotations (`wsbcucotizaciones`). */
export const BCU_URL = 'https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones';

/**
 * BCU's own currency numbers, in the order it lists them, and their ISO codes: its `CodigoISO`
 * is not always one ("DLS." for the dollar, "EURO").
 */
export const BCU_CURRENCIES: readonly (readonly [string, string])[] = [
  ['2225', 'USD'],
  ['1111', 'EUR'],
  ['1000', 'BRL'],
  ['0500', 'ARS'],
  ['2309', 'CAD'],
  ['1300', 'CLP'],
  ['4150', 'CNY'],
  ['5500', 'COP'],
  ['1800', 'DKK'],
  ['5100', 'HKD'],
  ['4300', 'HUF'],
  ['5700', 'INR'],
  ['2700', 'GBP'],
  ['4900', 'ISK'],
  ['3600', 'JPY'],
  ['5300', 'KRW'],
  ['5600', 'MYR'],
  ['4200', 'MXN'],
  ['4600', 'NOK'],
  ['1490', 'NZD'],
  ['4800', 'PYG'],
  ['4000', 'PEN'],
  ['5400', 'RUB'],
  ['1620', 'ZAR'],
  ['5800', 'SEK'],
  ['5900', 'CHF'],
  ['4400', 'TRY'],
];

const ISO_BY_NUMBER = new Map(BCU_CURRENCIES.map(([number, code]) => [Number(number), code]));

/** `Execute` for one currency over a window (Grupo 0: every market). */
export function bcuRequest(currency: string, window: FetchWindow): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"',
    '                   xmlns:cot="Cotiza">',
    '   <soapenv:Header />',
    '   <soapenv:Body>',
    '      <cot:wsbcucotizaciones.Execute>',
    '         <cot:Entrada>',
    '            <cot:Moneda>',
    `               <cot:item>${currency}</cot:item>`,
    '            </cot:Moneda>',
    `            <cot:FechaDesde>${window.from}</cot:FechaDesde>`,
    `            <cot:FechaHasta>${window.to}</cot:FechaHasta>`,
    '            <cot:Grupo>0</cot:Grupo>',
    '         </cot:Entrada>',
    '      </cot:wsbcucotizaciones.Execute>',
    '   </soapenv:Body>',
    '</soapenv:Envelope>',
    '',
  ].join('\n');
}

/**
 * `datoscotizaciones.dato`: `Fecha`, BCU's currency number `Moneda`, buying `TCC` and selling
 * `TCV` in UYU per unit; the midpoint is stored. `ArbAct` (the arbitrage against the dollar) is
 * not. A `respuestastatus` other than 1 is an error of the service.
 */
export function parseBcuSoap(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'SOAP-ENV:Envelope');
  const status = /<respuestastatus>([\s\S]*?)<\/respuestastatus>/.exec(text)?.[1];
  if (status === undefined)
    throw new Error('expected a wsbcucotizaciones answer (no respuestastatus)');
  if (xmlChildText(status, 'status') !== '1') {
    const message =
      xmlChildText(status, 'mensaje') || `codigoerror ${xmlChildText(status, 'codigoerror')}`;
    throw new Error(`BCU refused the request: ${message}`);
  }
  const builder = new ObservationBuilder(source);
  for (const item of text.matchAll(
    /<datoscotizaciones\.dato[^>]*>([\s\S]*?)<\/datoscotizaciones\.dato>/g,
  )) {
    const field = (tag: string) => xmlChildText(item[1]!, tag) ?? '';
    const code = ISO_BY_NUMBER.get(Number(field('Moneda'))) ?? field('CodigoISO');
    builder.addPrice(
      field('Fecha'),
      code,
      midpoint(readDecimal(field('TCC')), readDecimal(field('TCV'))),
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcu',
  name: 'Banco Central del Uruguay, quotations',
  relativeCurrency: 'UYU',
  url: 'https://www.bcu.gub.uy/Estadisticas-e-Indicadores/Paginas/Cotizaciones.aspx',
  countryCode: 'UY',
  timeZone: 'America/Montevideo',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '15:00', to: '17:30', weekdaysOnly: true },
  fetches: 'SOAP `wsbcucotizaciones`, a currency and a year per request, buy/sell midpoint',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      for (const [index, [currency]] of BCU_CURRENCIES.entries()) {
        const batch = await fetchBatch(context, BCU_URL, (text) => parseBcuSoap(text, publisher), {
          body: bcuRequest(currency, chunk),
          headers: { 'Content-Type': 'text/xml; charset=utf-8' },
        });
        yield index === BCU_CURRENCIES.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
