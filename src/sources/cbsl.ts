import { parse } from 'node-html-parser';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const EXRATES = 'https://www.cbsl.gov.lk/cbsl_custom/exrates';
/** The look-up form: its check boxes name the currencies the bank publishes. */
export const CBSL_FORM_URL = `${EXRATES}/exrates.php`;
/** Where the form posts: one table per currency for a range of dates. */
export const CBSL_RESULTS_URL = `${EXRATES}/exrates_results.php`;

export interface CbslForm extends Extraction {
  /** The check boxes' values, 'AUD~Australian Dollar', in the form's order. */
  currencies: string[];
}

/** The look-up form's currency check boxes (`chk_cur[]`); a page without them is not the form. */
export function parseCbslForm(text: string): CbslForm {
  const currencies = parse(text)
    .querySelectorAll('input[name="chk_cur[]"]')
    .map((input) => input.getAttribute('value') ?? '')
    .filter((value) => value.includes('~'));
  if (currencies.length === 0) throw new Error('the look-up form lists no currencies');
  return { observations: [], dropped: 0, dropReasons: [], currencies };
}

/** The form as the bank's page posts it: daily rates of every listed currency between two dates. */
export function cbslQuery(window: FetchWindow, currencies: readonly string[]): string {
  return new URLSearchParams([
    ['lookupPage', 'lookup_daily_exchange_rates.php'],
    ['rangeType', 'dates'],
    ['txtStart', window.from],
    ['txtEnd', window.to],
    ...currencies.map((currency): [string, string] => ['chk_cur[]', currency]),
    ['submit_button', 'Submit'],
  ]).toString();
}

/**
 * The results page: per currency an `<h2>` name and a table of Date, '1 AUD -> LKR' and
 * '1 LKR -> AUD'. The first (LKR per unit, four decimals) is stored; the inverse, rounded
 * harder, is not. Gold is quoted per troy ounce (XAU); the offshore yuan (CNH) is no ISO
 * currency and is dropped.
 */
export function parseCbslResults(text: string, source: ObservationSource): Extraction {
  if (!/<\/html>\s*$/i.test(text)) throw new Error('the page ends before </html> (cut short?)');
  const root = parse(text);
  if (!root.querySelector('h2[id^="LOOKUPS"]')) {
    throw new Error('the page holds no currency tables (not the results page?)');
  }
  const builder = new ObservationBuilder(source);
  for (const table of root.querySelectorAll('table.rates')) {
    const header = table.querySelectorAll('thead th').map((cell) => cell.text.trim());
    const quote = header
      .map((cell) => /^(\d+)\s+([A-Z]{3})\s*->\s*LKR$/.exec(cell.replace(/\s+/g, ' ')))
      .findIndex(Boolean);
    if (quote < 0) throw new Error(`a table has no 'n CCY -> LKR' column: ${header.join(' | ')}`);
    const [, units, code] = /^(\d+)\s+([A-Z]{3})/.exec(header[quote]!.replace(/\s+/g, ' '))!;
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = row.querySelectorAll('td').map((cell) => cell.text.trim());
      builder.addPrice(cells[0] ?? '', code!, readDecimal(cells[quote]), units);
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbsl',
  name: 'Central Bank of Sri Lanka, indicative exchange rates',
  relativeCurrency: 'LKR',
  url: 'https://www.cbsl.gov.lk/en/rates-and-indicators/exchange-rates/daily-indicative-exchange-rates',
  countryCode: 'LK',
  timeZone: 'Asia/Colombo',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2011-01-20',
  publishWindowUtc: { from: '04:00', to: '06:30', weekdaysOnly: true },
  fetches:
    'the look-up form, then its HTML results by POST for every listed currency, a year per request',
  async *fetch(window, context) {
    const form = await fetchBatch(context, CBSL_FORM_URL, parseCbslForm, { html: true });
    for (const chunk of windowChunks(window, 366)) {
      const batch = await fetchBatch(
        context,
        CBSL_RESULTS_URL,
        (text) => parseCbslResults(text, publisher),
        {
          html: true,
          body: cbslQuery(chunk, form.currencies),
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        },
      );
      yield completing(batch, chunk.to);
    }
  },
};
