import { parse as parseHtml } from 'node-html-parser';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The exchange-rate list with a page size beyond its length: the whole history in one page. */
export const RBV_URL = 'https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=100000';

/** "22 May 2026" or, in some rows, "03-Sep-25". */
export function isoFromRbvDate(text: string): string {
  const long = /^(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})$/.exec(text);
  if (long) return isoFromEnglish(long[1]!, long[2]!, long[3]!) ?? text;
  const short = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(text);
  if (short) return isoFromEnglish(short[1]!, short[2]!, `20${short[3]}`) ?? text;
  return text;
}

/**
 * The list's HTML table: a Date column, then one column per currency headed by its code, VUV
 * per 1 unit (JPY too), one row per day, newest first.
 *
 * A row whose date does not lie between those of the rows around it, while they are in order
 * with each other, has a typo in its date: "05 January 2025" between 6 and 2 January 2026. Its
 * figures are dropped (and counted) rather than stored under a day they do not belong to.
 */
export function parseRbvHtml(text: string, source: ObservationSource): Extraction {
  if (!/<\/table>/i.test(text)) throw new Error('no complete exchange-rate table (cut short?)');
  const table = parseHtml(text)
    .querySelectorAll('table')
    .find((candidate) => candidate.querySelector('th')?.text.trim() === 'Date');
  if (!table) throw new Error('no table with a Date column in the page');
  const headers = table.querySelectorAll('thead th').map((th) => th.text.trim());
  const builder = new ObservationBuilder(source);
  const rows = table
    .querySelectorAll('tbody tr.fabrik_row')
    .map((row) => row.querySelectorAll('td').map((td) => td.text.trim()));
  const dates = rows.map((cells) => isoFromRbvDate(cells[0] ?? ''));
  rows.forEach((cells, index) => {
    const [newer, date, older] = [dates[index - 1], dates[index]!, dates[index + 1]];
    if (newer !== undefined && older !== undefined && newer >= older) {
      if (date > newer || date < older) {
        builder.drop(`'${cells[0]}' lies outside ${newer}..${older} around it in the list`);
        return;
      }
    }
    headers.forEach((code, column) => {
      if (column === 0 || !code) return;
      builder.addPrice(date, code, readDecimal(cells[column]));
    });
  });
  return builder.result();
}

export const publisher: Publisher = {
  key: 'rbv',
  name: 'Reserve Bank of Vanuatu, exchange rates',
  relativeCurrency: 'VUV',
  url: 'https://www.rbv.gov.vu/index.php/en/exchange-rates',
  countryCode: 'VU',
  timeZone: 'Pacific/Efate',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2025-08-26',
  // 08:00-10:30 in Port Vila, Monday to Friday, is Sunday to Thursday in UTC.
  publishWindowUtc: { from: '21:00', to: '23:30', weekdaysOnly: false },
  fetches: 'exchange-rate list HTML table, whole history in one page (VUV per unit)',
  async *fetch(window, context) {
    const batch = await fetchBatch(context, RBV_URL, (text) => parseRbvHtml(text, publisher), {
      html: true,
    });
    yield completing(batch, window.to);
  },
};
