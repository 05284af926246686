import { parse as parseHtml } from 'node-html-parser';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, windowChunks } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

export const RBM_URL = 'https://www.rbm.mw/Statistics/ExchangeRatesFilter/';
const DAYS_PER_REQUEST = 92;

/**
 * Codes the bank lists that are no currency of their own: CMD repeats the US dollar's figures,
 * and IEP's figures are not those of the Irish pound (withdrawn in 2002).
 */
const NOT_CURRENCIES: Record<string, string> = {
  CMD: 'CMD is no ISO 4217 currency',
  IEP: 'IEP (the Irish pound, withdrawn in 2002) is listed with figures that are not its own',
};

const usDate = (date: string): string => {
  const [year, month, day] = date.split('-');
  return `${month}/${day}/${year}`;
};

/** The form the bank's exchange-rate filter posts: dates as MM/DD/YYYY, every rate type. */
export function rbmRequestBody(window: FetchWindow): string {
  return new URLSearchParams({
    RateTypes: '',
    StartDate: usDate(window.from),
    EndDate: usDate(window.to),
  }).toString();
}

/**
 * The filter's HTML: `<table id="exchange-rates">` with Currency (ISO code), Buying, Middle,
 * Selling (MWK per unit) and Date ("Jan 02  2024") columns, one row per currency and day. The
 * middle rate is stored.
 */
export function parseRbmHtml(text: string, source: ObservationSource): Extraction {
  if (!/<\/table>/i.test(text)) throw new Error('no complete exchange-rate table (cut short?)');
  const table = parseHtml(text).querySelector('#exchange-rates');
  if (!table) throw new Error('no table with id exchange-rates in the page');
  const headers = table.querySelectorAll('th').map((th) => th.text.trim().toLowerCase());
  const column = (name: string): number => {
    const index = headers.indexOf(name);
    if (index < 0) throw new Error(`the exchange-rate table has no ${name} column`);
    return index;
  };
  const [codeAt, middleAt, dateAt] = [column('currency'), column('middle'), column('date')];
  const builder = new ObservationBuilder(source);
  for (const row of table.querySelectorAll('tbody tr')) {
    const cells = row.querySelectorAll('td').map((td) => td.text.replace(/\s+/g, ' ').trim());
    if (cells.length === 0) continue;
    const code = cells[codeAt] ?? '';
    const [month = '', day = '', year = ''] = (cells[dateAt] ?? '').split(' ');
    const date = isoFromEnglish(day, month, year) ?? String(cells[dateAt]);
    const reason = NOT_CURRENCIES[code];
    if (reason) builder.drop(`${reason} (${date})`);
    else builder.addPrice(date, code, readDecimal(cells[middleAt]));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'rbm',
  name: 'Reserve Bank of Malawi, exchange rates',
  relativeCurrency: 'MWK',
  url: 'https://www.rbm.mw/Statistics/MajorRates',
  countryCode: 'MW',
  timeZone: 'Africa/Blantyre',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2011-06-20',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches: '`ExchangeRatesFilter` HTML table by POST, middle rates, 92 days per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, DAYS_PER_REQUEST)) {
      const batch = await fetchBatch(context, RBM_URL, (text) => parseRbmHtml(text, publisher), {
        html: true,
        body: rbmRequestBody(chunk),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      yield completing(batch, chunk.to);
    }
  },
};
