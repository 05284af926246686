import { parse as parseHtml } from 'node-html-parser';
import { addDays, isWeekend } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, PublisherFormatError } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The page shows the latest rates; posting its form with a date shows that date's. */
export const NBC_PAGE_URL = 'https://www.nbc.gov.kh/english/economic_research/exchange_rate.php';

/** The form post for one date; `token` is the page's one-time hidden `tk` field. */
export function nbcFormBody(date: string, token: string): string {
  return `exdate=${date}&tk=${encodeURIComponent(token)}&view=View`;
}

/** Symbols of the table that are not ISO 4217 codes. */
const SYMBOL_CODES: Record<string, string> = { SDR: 'XDR' };
const NOT_CURRENCIES: Record<string, string> = {
  CNH: 'the offshore yuan (CNH) has no ISO 4217 code; CNY is quoted beside it',
};

export interface NbcPage extends Extraction {
  /** The hidden `tk` field of the page's date form, needed to post it. */
  token: string;
}

/**
 * The exchange-rate page: "Exchange Rate on : <date>", the official rate "<n> KHR / USD", and a
 * table (`tbl-responsive`) of Currency, Symbol ("AUD/KHR"), Unit (1, 100, 1000), Bid, Ask and
 * Average in KHR per Unit; the Average (the bid/ask midpoint) is stored.
 */
export function parseNbcPage(text: string, source: ObservationSource): NbcPage {
  if (!/<\/html>\s*$/i.test(text)) throw new Error('the page ends before </html> (cut short?)');
  const date = /Exchange Rate on\s*:\s*<font[^>]*>\s*(\d{4}-\d{2}-\d{2})\s*<\/font>/.exec(
    text,
  )?.[1];
  const usd =
    /Official Exchange Rate\s*:\s*<font[^>]*>\s*([^<]*?)\s*<\/font>\s*KHR\s*\/\s*USD/.exec(
      text,
    )?.[1];
  const root = parseHtml(text);
  const table = root.querySelector('table.tbl-responsive');
  if (!date || usd === undefined || !table) {
    throw new Error('not the exchange-rate page (no date, official rate or rate table)');
  }
  const token = root.querySelector('input[name="tk"]')?.getAttribute('value') ?? '';
  const builder = new ObservationBuilder(source);
  builder.addPrice(date, 'USD', readDecimal(usd));
  const [header, ...rows] = table.querySelectorAll('tr');
  const titles = header?.querySelectorAll('td').map((cell) => cell.text.trim()) ?? [];
  const expected = ['Currency', 'Symbol', 'Unit', 'Bid', 'Ask', 'Average'];
  if (titles.join() !== expected.join()) {
    throw new Error(`unexpected rate table columns: ${titles.join(', ')}`);
  }
  for (const row of rows) {
    const [, symbol = '', unit = '', bid = '', ask = '', average = ''] = row
      .querySelectorAll('td')
      .map((cell) => cell.text.trim());
    const printed = symbol.replace(/\s*\/\s*KHR$/, '');
    if (NOT_CURRENCIES[printed]) {
      builder.drop(`${printed} on ${date}: ${NOT_CURRENCIES[printed]}`);
      continue;
    }
    const price =
      average === '' ? midpoint(readDecimal(bid), readDecimal(ask)) : readDecimal(average);
    builder.addPrice(date, SYMBOL_CODES[printed] ?? printed, price, readDecimal(unit));
  }
  return { ...builder.result(), token };
}

export const publisher: Publisher = {
  key: 'nbc',
  name: 'National Bank of Cambodia, official exchange rates',
  relativeCurrency: 'KHR',
  url: 'https://www.nbc.gov.kh/english/economic_research/exchange_rate.php',
  countryCode: 'KH',
  timeZone: 'Asia/Phnom_Penh',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2008-01-14',
  publishWindowUtc: { from: '09:00', to: '11:30', weekdaysOnly: true },
  fetches:
    'HTML page (latest rates and a one-time form token), then the form posted for each business day; Unit applied, bid/ask average',
  async *fetch(window, context) {
    for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
      if (isWeekend(date)) continue;
      // Every post needs a fresh token from the page, which shows the latest rates.
      const page = await fetchBatch(
        context,
        NBC_PAGE_URL,
        (text) => parseNbcPage(text, publisher),
        {
          html: true,
        },
      );
      yield page;
      if (!page.token) throw new PublisherFormatError(`${page.url}: the page has no form token`);
      const batch = await fetchBatch(
        context,
        NBC_PAGE_URL,
        (text) => parseNbcPage(text, publisher),
        {
          html: true,
          body: nbcFormBody(date, page.token),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      );
      yield completing(batch, date);
    }
  },
};
