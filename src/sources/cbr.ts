import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, requireXmlRoot, xmlAttribute, xmlChildText } from './publisher-fetch.js';
import { isoFromDotted, midpoint, perTroyOunce, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const SCRIPTS = 'https://www.cbr.ru/scripts';
export const CBR_DAILY_URL = `${SCRIPTS}/XML_daily.asp`;
/** The Bank of Russia's XML is declared windows-1251 (Russian currency names). */
const CHARSETS = ['windows-1251', 'utf-8'];

const ruDate = (date: string): string => {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
};

export function cbrDynamicUrl(currencyId: string, window: FetchWindow): string {
  return `${SCRIPTS}/XML_dynamic.asp?VAL_NM_RQ=${currencyId}&date_req1=${ruDate(window.from)}&date_req2=${ruDate(window.to)}`;
}

export function cbrMetalsUrl(window: FetchWindow): string {
  return `${SCRIPTS}/xml_metall.asp?date_req1=${ruDate(window.from)}&date_req2=${ruDate(window.to)}`;
}

export interface CbrDaily extends Extraction {
  /** The bank's internal id of every currency it quotes today, for the history requests. */
  currencies: { id: string; code: string }[];
}

/**
 * XML_daily: `<ValCurs Date>` with one `<Valute ID>` per currency: RUB per `Nominal` units
 * (1 to 1,000,000), decimal comma. The date is the day the rates take effect.
 */
export function parseCbrDaily(text: string, source: ObservationSource): CbrDaily {
  requireXmlRoot(text, 'ValCurs');
  const builder = new ObservationBuilder(source);
  const date = isoFromDotted(xmlAttribute(/<ValCurs\s[^>]*>/.exec(text)?.[0] ?? '', 'Date'));
  const currencies: CbrDaily['currencies'] = [];
  for (const valute of text.matchAll(/<Valute\s[^>]*>[\s\S]*?<\/Valute>/g)) {
    const code = xmlChildText(valute[0], 'CharCode') ?? '';
    const id = xmlAttribute(valute[0], 'ID');
    if (id && code) currencies.push({ id, code });
    builder.addPrice(
      date,
      code,
      readDecimal(xmlChildText(valute[0], 'Value'), true),
      readDecimal(xmlChildText(valute[0], 'Nominal')),
    );
  }
  return { ...builder.result(), currencies };
}

/** XML_dynamic: one currency's `<Record Date>` elements with Nominal and Value, as in XML_daily. */
export function parseCbrDynamic(text: string, code: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'ValCurs');
  const builder = new ObservationBuilder(source);
  for (const record of text.matchAll(/<Record\s[^>]*>[\s\S]*?<\/Record>/g)) {
    builder.addPrice(
      isoFromDotted(xmlAttribute(record[0], 'Date')),
      code,
      readDecimal(xmlChildText(record[0], 'Value'), true),
      readDecimal(xmlChildText(record[0], 'Nominal')),
    );
  }
  return builder.result();
}

const METAL_CODES: Record<string, string> = { '1': 'XAU', '2': 'XAG', '3': 'XPT', '4': 'XPD' };

/** xml_metall: buy and sell prices in RUB per gram; stored as the midpoint per troy ounce. */
export function parseCbrMetals(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'Metall');
  const builder = new ObservationBuilder(source);
  for (const record of text.matchAll(/<Record\s[^>]*>[\s\S]*?<\/Record>/g)) {
    const code = METAL_CODES[xmlAttribute(record[0], 'Code') ?? ''];
    const date = isoFromDotted(xmlAttribute(record[0], 'Date'));
    if (!code) {
      builder.drop(`unknown metal code ${xmlAttribute(record[0], 'Code')}`);
      continue;
    }
    const buy = readDecimal(xmlChildText(record[0], 'Buy'), true);
    const sell = readDecimal(xmlChildText(record[0], 'Sell'), true);
    builder.addPrice(date, code, perTroyOunce(midpoint(buy, sell)));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbr',
  name: 'Central Bank of Russia, official rates',
  relativeCurrency: 'RUB',
  url: 'https://www.cbr.ru/eng/currency_base/daily/',
  countryCode: 'RU',
  timeZone: 'Europe/Moscow',
  fixingTime: '15:30',
  isDst: false,
  historyStart: '1992-07-01',
  publishWindowUtc: { from: '09:00', to: '11:30', weekdaysOnly: true },
  fetches:
    '`XML_daily` (windows-1251, decimal commas, `Nominal`), `XML_dynamic` per currency, `xml_metall` (buy/sell midpoint, per troy ounce)',
  async *fetch(window, context) {
    const options = { charsets: CHARSETS };
    // Today's file names the currencies (by the bank's ids) whose history is then requested.
    const daily = await fetchBatch(
      context,
      CBR_DAILY_URL,
      (text) => parseCbrDaily(text, publisher),
      options,
    );
    yield daily;
    for (const { id, code } of daily.currencies) {
      const url = cbrDynamicUrl(id, window);
      yield await fetchBatch(
        context,
        url,
        (text) => parseCbrDynamic(text, code, publisher),
        options,
      );
    }
    const metals = cbrMetalsUrl(window);
    yield await fetchBatch(context, metals, (text) => parseCbrMetals(text, publisher), options);
  },
};
