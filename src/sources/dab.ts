import { parse, type HTMLElement } from 'node-html-parser';
import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch } from './publisher-fetch.js';
import { isoFromEnglish, midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The exchange-rate page as it stood on one date. */
export function dabUrl(date: string): string {
  return `https://www.dab.gov.af/exchange-rates?field_date_value=${date}`;
}

/**
 * The page's currency names, upper case and letters only, with the ISO code and the units a
 * price is for: the Iranian rate is per toman, ten rials.
 */
const CURRENCY_NAMES: Record<string, [code: string, units: string]> = {
  USD: ['USD', '1'],
  EURO: ['EUR', '1'],
  POUND: ['GBP', '1'],
  SWISS: ['CHF', '1'],
  INDIANRS: ['INR', '1'],
  PAKISTANRS: ['PKR', '1'],
  IRANTOMAN: ['IRR', '10'],
  CNY: ['CNY', '1'],
  UAEDIRHAM: ['AED', '1'],
  SAUDIRIYAL: ['SAR', '1'],
};

const cellText = (cell: HTMLElement | undefined): string => cell?.text.trim() ?? '';

/**
 * The page's first table, under "Exchange Rates ... Last updated: 18 May 2026": AFN per unit
 * of each currency, named in English ('USD$', 'EURO€', 'IRAN Toman'), with cash and transfer
 * selling and buying prices. The transfer midpoint is stored, on the date the page says it was
 * updated. The monthly "Average Rates" table below it is not read.
 */
export function parseDabHtml(text: string, source: ObservationSource): Extraction {
  if (!/<\/html>\s*$/i.test(text)) throw new Error('the page ends before </html> (cut short?)');
  const updated = /Exchange Rates<\/h2>\s*<p[^>]*>\s*Last updated:\s*(\d{1,2}) (\w+) (\d{4})/.exec(
    text,
  );
  if (!updated) throw new Error('no "Exchange Rates ... Last updated" heading on the page');
  const date = isoFromEnglish(updated[1]!, updated[2]!, updated[3]!) ?? updated.slice(1).join(' ');
  const table = parse(text).querySelector('table');
  const header = table?.querySelectorAll('thead th').map(cellText) ?? [];
  const sell = header.indexOf('Transfer (Sell)');
  const buy = header.indexOf('Transfer (Buy)');
  if (!table || sell < 0 || buy < 0) {
    throw new Error('no table with Transfer (Sell) and Transfer (Buy) columns on the page');
  }
  const builder = new ObservationBuilder(source);
  for (const row of table.querySelectorAll('tbody tr')) {
    const cells = row.querySelectorAll('td');
    const name = cellText(cells[0]);
    const currency = CURRENCY_NAMES[name.toUpperCase().replace(/[^A-Z]/g, '')];
    if (!currency) {
      builder.drop(`${date}: unknown currency name '${name}'`);
      continue;
    }
    const price = midpoint(readDecimal(cellText(cells[sell])), readDecimal(cellText(cells[buy])));
    builder.addPrice(date, currency[0], price, currency[1]);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'dab',
  name: 'Da Afghanistan Bank, exchange rates',
  relativeCurrency: 'AFN',
  url: 'https://www.dab.gov.af/exchange-rates',
  countryCode: 'AF',
  timeZone: 'Asia/Kabul',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2019-03-31',
  publishWindowUtc: { from: '05:00', to: '07:30', weekdaysOnly: false },
  fetches:
    'the exchange-rates HTML page of each date, transfer buy/sell midpoint, names mapped to codes',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to;) {
      const batch = await fetchBatch(
        context,
        dabUrl(date),
        (text) => parseDabHtml(text, publisher),
        {
          html: true,
        },
      );
      yield completing(batch, date);
      date = addDays(date, 1);
    }
  },
};
