import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { isPositiveDecimal, isoFromEnglish, midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The counter-rates page; its search table (wpDataTables table 134) is loaded by POST. */
export const BOJA_PAGE_URL = 'https://boj.org.jm/market/foreign-exchange/counter-rates/';
export const BOJA_TABLE_URL =
  'https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134';

/** The table's request: every row (`length=-1`), with the page's nonce. */
export function bojaRequestBody(nonce: string): string {
  return `draw=1&start=0&length=-1&wdtNonce=${encodeURIComponent(nonce)}`;
}

export interface BojaPage extends Extraction {
  nonce: string;
}

/** The page's `wdtNonceFrontendServerSide_134`, which the table request must carry. */
export function parseBojaPage(text: string): BojaPage {
  const input = /<input[^>]*\bname="wdtNonceFrontendServerSide_134"[^>]*>/.exec(text)?.[0];
  const nonce = /\bvalue="([^"]+)"/.exec(input ?? '')?.[1];
  if (!nonce) throw new Error('the counter-rates page has no nonce for its rates table');
  return { observations: [], dropped: 0, dropReasons: [], nonce };
}

/** The table's currency names. */
export const BOJA_CURRENCIES: Readonly<Record<string, string>> = {
  'AUSTRALIAN DOLLAR': 'AUD',
  'BAHAMAS DOLLAR': 'BSD',
  'BARBADOS DOLLAR': 'BBD',
  'BELIZE DOLLAR': 'BZD',
  'CANADA DOLLAR': 'CAD',
  'CAYMAN DOLLAR': 'KYD',
  'DOMINICAN REP. PESO': 'DOP',
  'E. C. DOLLAR': 'XCD',
  EURO: 'EUR',
  'GIBRALTAR POUND': 'GIP',
  'GREAT BRITAIN POUND': 'GBP',
  'GUYANA DOLLAR': 'GYD',
  'HONG KONG DOLLAR': 'HKD',
  'JAPANESE YEN': 'JPY',
  'SWISS FRANC': 'CHF',
  'U.S. DOLLAR': 'USD',
};

/** Names that are no currency of their own. */
const NOT_CURRENCIES: Readonly<Record<string, string>> = {
  'NORTHERN IRELAND POUND': 'Northern Ireland banknotes of the pound sterling (GBP)',
};

/**
 * The table's JSON: `data[]` rows of date ("02 Mar 2026"), currency name, then JMD per unit:
 * buying DMD & TT, buying notes, buying coins (0.0000 where none), and selling (DMD, TT &
 * cash). Stored: the midpoint of buying DMD & TT and selling.
 */
export function parseBojaTable(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { data?: unknown };
  if (!Array.isArray(body?.data)) throw new Error('expected the table JSON with data[]');
  const builder = new ObservationBuilder(source);
  for (const row of body.data as unknown[]) {
    if (!Array.isArray(row) || row.length !== 6) {
      throw new Error(`expected rows of 6 fields: ${JSON.stringify(row)}`);
    }
    const [day, name, buying, , , selling] = (row as unknown[]).map((field) =>
      String(field).trim().replace(/\s+/g, ' '),
    ) as [string, string, string, string, string, string];
    const [d, m, y] = day.split(' ');
    const date = isoFromEnglish(d ?? '', m ?? '', y ?? '') ?? day;
    const code = BOJA_CURRENCIES[name];
    if (!code) {
      builder.drop(`${name} on ${date}: ${NOT_CURRENCIES[name] ?? 'unknown currency name'}`);
      continue;
    }
    const [buy, sell] = [readDecimal(buying), readDecimal(selling)];
    // 0.0000 marks a rate the bank did not quote; half the other one would be no midpoint.
    if (!isPositiveDecimal(buy) || !isPositiveDecimal(sell)) {
      builder.drop(`${code} on ${date}: buying ${buying} and selling ${selling} make no midpoint`);
      continue;
    }
    builder.addPrice(date, code, midpoint(buy, sell));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'boja',
  name: 'Bank of Jamaica, counter rates',
  relativeCurrency: 'JMD',
  url: 'https://boj.org.jm/market/foreign-exchange/counter-rates/',
  countryCode: 'JM',
  timeZone: 'America/Jamaica',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2006-01-03',
  publishWindowUtc: { from: '18:00', to: '20:30', weekdaysOnly: true },
  fetches:
    'counter-rates page (nonce), then its whole table as JSON by POST; midpoint of buying DMD & TT and selling',
  async *fetch(_window, context) {
    // The table answers with its whole history at once; it has no date query.
    const page = await fetchBatch(context, BOJA_PAGE_URL, parseBojaPage, { html: true });
    yield page;
    yield await fetchBatch(context, BOJA_TABLE_URL, (text) => parseBojaTable(text, publisher), {
      body: bojaRequestBody(page.nonce),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  },
};
