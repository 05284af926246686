import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, xmlAttribute, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The MNB's SOAP web service; every call is a POST of one envelope. */
export const MNB_SERVICE_URL = 'http://www.mnb.hu/arfolyamok.asmx';

/** The currencies the MNB quotes every business day, in the order the service lists them. */
export const MNB_CURRENCIES = [
  ...['AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'IDR', 'ILS'],
  ...['INR', 'ISK', 'JPY', 'KRW', 'MXN', 'MYR', 'NOK', 'NZD', 'PHP', 'PLN', 'RON', 'RSD'],
  ...['RUB', 'SEK', 'SGD', 'THB', 'TRY', 'UAH', 'USD', 'ZAR'],
];

/** The `GetExchangeRates` envelope for one window of dates. */
export function mnbRequestBody(window: FetchWindow): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"
               xmlns:web="http://www.mnb.hu/webservices/">
  <soap:Body>
    <web:GetExchangeRates>
      <web:startDate>${window.from}</web:startDate>
<web:endDate>${window.to}</web:endDate>
<web:currencyNames>${MNB_CURRENCIES.join(',')}</web:currencyNames>
    </web:GetExchangeRates>
  </soap:Body>
</soap:Envelope>
`;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The SOAP answer carries its result as escaped XML text: `<MNBExchangeRates>` with one
 * `<Day date>` per business day holding `<Rate unit curr>` elements, HUF per `unit` units (100
 * for JPY, IDR, KRW) with a decimal comma.
 */
export function parseMnbSoap(text: string, source: ObservationSource): Extraction {
  if (!/<\/(\w+:)?Envelope>\s*$/.test(text)) {
    throw new Error('SOAP response ends before </Envelope> (cut short?)');
  }
  const result = /<GetExchangeRatesResult>([\s\S]*)<\/GetExchangeRatesResult>/.exec(text);
  if (!result) throw new Error('SOAP response has no GetExchangeRatesResult');
  const inner = result[1]!.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, name: string) => ENTITIES[name]!,
  );
  if (!/^\s*<MNBExchangeRates\s*\/?>/.test(inner)) {
    throw new Error('GetExchangeRatesResult is not an MNBExchangeRates document');
  }
  if (!/(<\/MNBExchangeRates>|<MNBExchangeRates\s*\/>)\s*$/.test(inner)) {
    throw new Error('MNBExchangeRates ends early (cut short?)');
  }
  const builder = new ObservationBuilder(source);
  for (const day of inner.matchAll(/<Day\s[^>]*>([\s\S]*?)<\/Day>/g)) {
    const date = xmlAttribute(day[0], 'date') ?? '';
    for (const rate of day[1]!.matchAll(/<Rate\s([^>]*)>([^<]*)<\/Rate>/g)) {
      const attributes = ` ${rate[1]}`;
      builder.addPrice(
        date,
        xmlAttribute(attributes, 'curr') ?? '',
        readDecimal(rate[2], true),
        readDecimal(xmlAttribute(attributes, 'unit') ?? '1'),
      );
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'mnb',
  name: 'Magyar Nemzeti Bank, official exchange rates',
  relativeCurrency: 'HUF',
  url: 'https://www.mnb.hu/en/monetary-policy/the-mpc/exchange-rates',
  countryCode: 'HU',
  timeZone: 'Europe/Budapest',
  fixingTime: '11:00',
  isDst: true,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: true },
  fetches:
    'SOAP `GetExchangeRates` (escaped XML, decimal commas, `unit` applied), a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(
        context,
        MNB_SERVICE_URL,
        (text) => parseMnbSoap(text, publisher),
        {
          body: mnbRequestBody(chunk),
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            soapaction: '"http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates"',
          },
        },
      );
      yield completing(batch, chunk.to);
    }
  },
};
