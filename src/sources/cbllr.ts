import { parse } from 'node-html-parser';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch } from './publisher-fetch.js';
import { midpoint, pricePerUnit, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The buying and selling rates page, newest first; `?page=N` goes back in time. */
export function cbllrUrl(page: number): string {
  const base = 'https://www.cbl.org.lr/research/buying-selling-rates';
  return page === 0 ? base : `${base}?page=${page}`;
}

/** Pages walked back at most in one run (the whole history since 2012 is about 105). */
const MAX_PAGES = 400;

/** One page of the table, with what tells the walk where it is. */
export interface CbllrPage extends Extraction {
  /** The oldest date on the page, if any row has one. */
  oldest: string | undefined;
  /** The pager links a further (older) page. */
  hasNext: boolean;
}

/** "L$182.0819/US$1.00": Liberian dollars per `units` US dollars. */
function readQuote(text: string): { price: string; units: string } | undefined {
  const match = /L\$\s*([\d,]*\.?\d+)\s*\/\s*US\$\s*([\d,]*\.?\d+)/.exec(text);
  return match ? { price: readDecimal(match[1]), units: readDecimal(match[2]) } : undefined;
}

/**
 * The page's table: rows of `<time datetime>`, buying and selling rates as "L$182.0819/US$1.00".
 * The rate stored is the midpoint of buying and selling, in Liberian dollars per US dollar.
 */
export function parseCbllrHtml(html: string, source: ObservationSource): CbllrPage {
  if (!/<\/html>\s*$/i.test(html)) throw new Error('the page ends before </html> (cut short?)');
  const root = parse(html);
  const table = root
    .querySelectorAll('table')
    .find((candidate) => /buying/i.test(candidate.querySelector('thead')?.text ?? ''));
  if (!table) throw new Error('the page has no table of buying and selling rates');
  const builder = new ObservationBuilder(source);
  let oldest: string | undefined;
  for (const row of table.querySelectorAll('tbody tr')) {
    const datetime = row.querySelector('time')?.getAttribute('datetime') ?? '';
    const date = datetime.slice(0, 10);
    const cells = row.querySelectorAll('td');
    const buying = readQuote(cells[1]?.text ?? '');
    const selling = readQuote(cells[2]?.text ?? '');
    if (!/^\d{4}-\d{2}-\d{2}/.test(datetime) || !buying || !selling) {
      builder.drop(`row '${row.text.replace(/\s+/g, ' ').trim()}' has no date and two rates`);
      continue;
    }
    if (oldest === undefined || date < oldest) oldest = date;
    if (buying.units !== selling.units) {
      builder.drop(`LRD on ${date}: buying and selling quoted per different amounts`);
      continue;
    }
    builder.add(date, 'LRD', pricePerUnit(midpoint(buying.price, selling.price), buying.units));
  }
  const hasNext = root.querySelector('a[rel="next"]') !== null;
  return { ...builder.result(), oldest, hasNext };
}

export const publisher: Publisher = {
  key: 'cbllr',
  name: 'Central Bank of Liberia, buying and selling rates',
  relativeCurrency: 'USD',
  url: 'https://www.cbl.org.lr/research/buying-selling-rates',
  countryCode: 'LR',
  timeZone: 'Africa/Monrovia',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2012-07-05',
  publishWindowUtc: { from: '13:00', to: '15:30', weekdaysOnly: false },
  fetches: 'the buying/selling rates page (HTML), newest first, back to the window; midpoint',
  async *fetch(window, context) {
    for (let page = 0; page < MAX_PAGES; page++) {
      const batch = await fetchBatch(
        context,
        cbllrUrl(page),
        (html) => parseCbllrHtml(html, publisher),
        {
          html: true,
        },
      );
      const { oldest, hasNext, ...rest } = batch;
      yield rest;
      if (!hasNext || oldest === undefined || oldest <= window.from) return;
    }
  },
};
