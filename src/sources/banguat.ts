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

export const BANGUAT_URL = 'https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx';
const NAMESPACE = 'http://www.banguat.gob.gt/variables/ws/';

const slashed = (date: string): string => {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
};

/** The SOAP 1.1 request for the reference rates of every day from `from` to `to`. */
export function banguatRangeEnvelope(window: FetchWindow): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">',
    '  <soap:Body>',
    `    <TipoCambioRango xmlns="${NAMESPACE}">`,
    `      <fechainit>${slashed(window.from)}</fechainit>`,
    `      <fechafin>${slashed(window.to)}</fechafin>`,
    '    </TipoCambioRango>',
    '  </soap:Body>',
    '</soap:Envelope>',
    '',
  ].join('\n');
}

/** The service's currency numbers; its range method answers for the US dollar (2). */
const CURRENCIES: Record<string, string> = { '2': 'USD' };

/**
 * `TipoCambioRangoResult`: `<Var>` elements with `moneda` (2 = USD), `fecha` (dd/mm/yyyy, every
 * calendar day), and `venta` and `compra`, GTQ per unit (equal for the reference rate; their
 * midpoint is stored). `TotalItems` must match the elements read, or the body is incomplete.
 */
export function parseBanguatRange(text: string, source: ObservationSource): Extraction {
  const fault = xmlChildText(text, 'faultstring');
  if (fault !== undefined) throw new Error(`SOAP fault: ${fault}`);
  requireXmlRoot(text, 'soap:Envelope');
  const result = /<TipoCambioRangoResult>([\s\S]*)<\/TipoCambioRangoResult>/.exec(text)?.[1];
  if (result === undefined) throw new Error('no TipoCambioRangoResult in the response');
  const builder = new ObservationBuilder(source);
  const vars = [...result.matchAll(/<Var>([\s\S]*?)<\/Var>/g)].map((match) => match[1]!);
  const total = xmlChildText(result, 'TotalItems');
  if (total !== String(vars.length)) {
    throw new Error(`TotalItems says ${total}, the response holds ${vars.length} rates`);
  }
  for (const element of vars) {
    const moneda = xmlChildText(element, 'moneda') ?? '';
    const date = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(xmlChildText(element, 'fecha') ?? '');
    const iso = date ? `${date[3]}-${date[2]}-${date[1]}` : String(xmlChildText(element, 'fecha'));
    const code = CURRENCIES[moneda];
    if (!code) {
      builder.drop(`currency number ${moneda} on ${iso} is not known`);
      continue;
    }
    const buy = readDecimal(xmlChildText(element, 'compra'));
    const sell = readDecimal(xmlChildText(element, 'venta'));
    builder.addPrice(iso, code, midpoint(buy, sell));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'banguat',
  name: 'Banco de Guatemala, reference exchange rate',
  relativeCurrency: 'GTQ',
  url: 'https://www.banguat.gob.gt/tipo_cambio/',
  countryCode: 'GT',
  timeZone: 'America/Guatemala',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '20:00', to: '23:30', weekdaysOnly: true },
  fetches: '`TipoCambioRango` SOAP (USD, buy/sell midpoint), a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(
        context,
        BANGUAT_URL,
        (text) => parseBanguatRange(text, publisher),
        {
          body: banguatRangeEnvelope(chunk),
          headers: {
            'Content-Type': 'text/xml; charset=utf-8',
            SOAPAction: `"${NAMESPACE}TipoCambioRango"`,
          },
        },
      );
      yield completing(batch, chunk.to);
    }
  },
};
