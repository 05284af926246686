import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBatch,
  requireXmlRoot,
  xmlChildText,
  yearChunks,
} from './publisher-fetch.js';
import { perTroyOunce, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The bank's SOAP service; every operation is a POST of an envelope to this address. */
export const CBA_URL = 'https://api.cba.am/exchangerates.asmx';

/** Every currency (and the two metals) the bank quotes, in the order of its own list. */
export const CBA_CODES = [
  ...['USD', 'GBP', 'AUD', 'EUR', 'XDR', 'IRR', 'PLN', 'CAD', 'INR', 'NOK', 'JPY', 'SEK'],
  ...['CHF', 'CZK', 'CNY', 'SGD', 'BRL', 'AED', 'KGS', 'KZT', 'RUB', 'UAH', 'UZS', 'BYN'],
  ...['TJS', 'GEL', 'HKD', 'XAU', 'XAG', 'NZD'],
];

/** The `ExchangeRatesByDateRangeByISO` envelope: every code's rates from `from` to `to`. */
export function cbaRangeEnvelope(window: FetchWindow): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
               xmlns:xsd="http://www.w3.org/2001/XMLSchema"
               xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <ExchangeRatesByDateRangeByISO xmlns="http://www.cba.am/">
      <ISOCodes>${CBA_CODES.join(',')}</ISOCodes>
      <DateFrom>${window.from}</DateFrom>
      <DateTo>${window.to}</DateTo>
    </ExchangeRatesByDateRangeByISO>
  </soap:Body>
</soap:Envelope>
`;
}

/** A SOAP fault's text, for the error a refused request reports. */
function soapFault(text: string): string | undefined {
  return /<soap:Fault>/.test(text)
    ? (xmlChildText(text, 'faultstring') ?? 'SOAP fault')
    : undefined;
}

/**
 * The range operation's answer, a .NET DataSet diffgram: `<ExchangeRatesByRange>` rows with
 * `Rate` (drams per `Amount` units: 100 rials, 10 yen, tenge and sum), `ISO` and `RateDate`
 * (local midnight with its offset). Gold and silver are quoted per gram; ISO's XAU and XAG are
 * troy ounces.
 */
export function parseCbaRange(text: string, source: ObservationSource): Extraction {
  const fault = soapFault(text);
  if (fault) throw new Error(`the service answered with a fault: ${fault}`);
  requireXmlRoot(text, 'soap:Envelope');
  if (!text.includes('<ExchangeRatesByDateRangeByISOResult')) {
    throw new Error('expected an ExchangeRatesByDateRangeByISO response');
  }
  const builder = new ObservationBuilder(source);
  for (const row of text.matchAll(/<ExchangeRatesByRange[\s>][\s\S]*?<\/ExchangeRatesByRange>/g)) {
    const element = row[0];
    const code = xmlChildText(element, 'ISO') ?? '';
    const date = (xmlChildText(element, 'RateDate') ?? '').slice(0, 10);
    const units = readDecimal(xmlChildText(element, 'Amount') ?? '1');
    const price = readDecimal(xmlChildText(element, 'Rate'));
    const metal = code === 'XAU' || code === 'XAG';
    builder.addPrice(date, code, metal ? perTroyOunce(price) : price, units);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cba',
  name: 'Central Bank of Armenia, exchange rates',
  relativeCurrency: 'AMD',
  url: 'https://www.cba.am/en/SitePage/ExchangeArchive.aspx',
  countryCode: 'AM',
  timeZone: 'Asia/Yerevan',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1999-01-04',
  publishWindowUtc: { from: '12:00', to: '14:30', weekdaysOnly: true },
  fetches:
    'SOAP `ExchangeRatesByDateRangeByISO`, a year per request; `Amount` applied, metals per gram',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, CBA_URL, (text) => parseCbaRange(text, publisher), {
        body: cbaRangeEnvelope(chunk),
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: '"http://www.cba.am/ExchangeRatesByDateRangeByISO"',
        },
      });
      yield completing(batch, chunk.to);
    }
  },
};
