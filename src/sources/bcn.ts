import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  monthEnds,
  requireXmlRoot,
  xmlChildText,
} from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** BCN's SOAP service of the official córdoba/dollar rate. */
export const BCN_URL = 'https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx';

/** `RecuperaTC_Mes`: every day of one month (BCN fixes the whole month's rates in advance). */
export function bcnMonthRequest(year: number, month: number): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"',
    '               xmlns:tns="http://servicios.bcn.gob.ni/">',
    '  <soap:Body>',
    '    <tns:RecuperaTC_Mes>',
    `      <tns:Ano>${year}</tns:Ano>`,
    `      <tns:Mes>${month}</tns:Mes>`,
    '    </tns:RecuperaTC_Mes>',
    '  </soap:Body>',
    '</soap:Envelope>',
    '',
  ].join('\n');
}

/** `<Detalle_TC><Tc><Fecha>YYYY-MM-DD</Fecha><Valor>` NIO per 1 USD. */
export function parseBcnSoap(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'soap:Envelope');
  if (/<soap:Fault[\s>]/.test(text)) {
    throw new Error(`SOAP fault: ${xmlChildText(text, 'faultstring') ?? 'no faultstring'}`);
  }
  if (!/<RecuperaTC_MesResult[\s>/]/.test(text)) {
    throw new Error('expected a RecuperaTC_MesResponse');
  }
  const builder = new ObservationBuilder(source);
  for (const rate of text.matchAll(/<Tc>([\s\S]*?)<\/Tc>/g)) {
    const date = xmlChildText(rate[1]!, 'Fecha') ?? '';
    builder.addPrice(date.slice(0, 10), 'USD', readDecimal(xmlChildText(rate[1]!, 'Valor')));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcn',
  name: 'Banco Central de Nicaragua, official exchange rate',
  relativeCurrency: 'NIO',
  url: 'https://www.bcn.gob.ni/estadisticas/mercados_cambiarios/tipo_cambio/cordoba_dolar',
  countryCode: 'NI',
  timeZone: 'America/Managua',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2012-01-01',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: false },
  fetches: 'SOAP `RecuperaTC_Mes`, córdobas per US dollar, a month per request',
  async *fetch(window, context) {
    for (const monthEnd of monthEnds(window)) {
      const year = Number(monthEnd.slice(0, 4));
      const month = Number(monthEnd.slice(5, 7));
      const batch = await fetchBatch(context, BCN_URL, (text) => parseBcnSoap(text, publisher), {
        body: bcnMonthRequest(year, month),
        headers: {
          'Content-Type': 'text/xml; charset=utf-8',
          SOAPAction: '"http://servicios.bcn.gob.ni/RecuperaTC_Mes"',
        },
      });
      yield completing(batch, monthEnd < window.to ? monthEnd : window.to);
    }
  },
};
