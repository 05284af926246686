import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, weekdays, yearChunks } from './publisher-fetch.js';
import { isoFromEnglish, midpoint, monthAbbreviation, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** Bank Indonesia's page of transaction rates: today's table, and a search form for history. */
export const BI_URL = 'https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx';

/** The page's form state that a search posts back (SharePoint and ASP.NET hidden fields). */
const POSTED_HIDDEN_FIELDS = [
  'MSOWebPartPage_PostbackSource',
  'MSOTlPn_View',
  'MSOTlPn_ShowSettings',
  'MSOTlPn_Button',
  '__EVENTTARGET',
  '__EVENTARGUMENT',
  '__REQUESTDIGEST',
  'MSOSPWebPartManager_DisplayModeName',
  'MSOSPWebPartManager_ExitingDesignMode',
  'MSOSPWebPartManager_OldDisplayModeName',
  'MSOSPWebPartManager_StartWebPartEditingName',
  'MSOSPWebPartManager_EndWebPartEditing',
  '_maintainWorkspaceScrollPosition',
  '__VIEWSTATE',
  '__VIEWSTATEGENERATOR',
  '__SCROLLPOSITIONX',
  '__SCROLLPOSITIONY',
  '__EVENTVALIDATION',
];

/** What a search needs from the page: its hidden fields, the form's control names, the currencies. */
export interface BiForm {
  hidden: [string, string][];
  /** Prefix of the search controls' names, ending in '$'. */
  prefix: string;
  /** Id of the search button, which the page posts back as the event source. */
  searchButtonId: string;
  /** Option values of the currency list, as the page writes them ("AED  "). */
  currencies: string[];
}

function decodeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined ? undefined : decodeAttribute(value);
}

function requireWholePage(text: string): void {
  if (!/<\/html>\s*$/i.test(text)) throw new Error('the page ends before </html> (cut short?)');
}

/** The search form of the page (pure: from the page's text). */
export function parseBiForm(text: string): BiForm {
  requireWholePage(text);
  const inputs = new Map<string, string>();
  for (const tag of text.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag[0], 'name');
    if (name !== undefined && !inputs.has(name)) inputs.set(name, attribute(tag[0], 'value') ?? '');
  }
  const hidden = POSTED_HIDDEN_FIELDS.map((name): [string, string] => {
    const value = inputs.get(name);
    if (value === undefined) throw new Error(`the page's form lacks ${name}`);
    return [name, value];
  });
  const select = /<select\b[^>]*name="([^"]*\$)ddlmatauang1"[^>]*>([\s\S]*?)<\/select>/.exec(text);
  if (!select) throw new Error("expected the page's currency list (ddlmatauang1)");
  const prefix = select[1]!;
  const currencies = [...select[2]!.matchAll(/<option\b[^>]*>/g)].map(
    (option) => attribute(option[0], 'value') ?? '',
  );
  const button = [...text.matchAll(/<input\b[^>]*>/g)].find(
    (tag) => attribute(tag[0], 'name') === `${prefix}btnSearch1`,
  );
  const searchButtonId = button && attribute(button[0], 'id');
  if (!searchButtonId) throw new Error("expected the page's search button (btnSearch1)");
  return { hidden, prefix, searchButtonId, currencies };
}

/** dd-Mon-yyyy, as the search form takes dates. */
function formDate(date: string): string {
  return `${date.slice(8, 10)}-${monthAbbreviation(Number(date.slice(5, 7)))}-${date.slice(0, 4)}`;
}

/** The form post that searches one currency's rates over a window. */
export function biSearchBody(form: BiForm, currency: string, window: FetchWindow): string {
  return new URLSearchParams([
    ...form.hidden,
    [`${form.prefix}ddlmatauang1`, currency],
    [`${form.prefix}txtFrom`, formDate(window.from)],
    [`${form.prefix}txtTo`, formDate(window.to)],
    [`${form.prefix}txtTanggal`, ''],
    [`${form.prefix}btnSearch1`, 'Search'],
    [`${form.prefix}hidSourceID`, form.searchButtonId],
  ]).toString();
}

function cells(row: string): string[] {
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
    cell[1]!
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim(),
  );
}

function addQuote(
  builder: ObservationBuilder,
  date: string,
  code: string,
  [units, sell, buy]: (string | undefined)[],
): void {
  builder.addPrice(date, code, midpoint(readDecimal(buy), readDecimal(sell)), readDecimal(units));
}

/**
 * The page's table of the last update ("Last Update 2 April 2026"): code, Value (units: 100 for
 * JPY), Sell and Buy in IDR with commas between thousands. The midpoint of buy and sell (BI's
 * middle rate) per unit is stored; CNH (offshore yuan) is no ISO code and is dropped.
 */
export function parseBiCurrent(
  text: string,
  source: ObservationSource,
): Extraction & { date: string } {
  requireWholePage(text);
  const updated = /Last Update(?:&nbsp;|\s)*(?:<[^>]*>)?\s*(\d{1,2}) ([A-Za-z]+) (\d{4})/.exec(
    text,
  );
  const date = updated && isoFromEnglish(updated[1]!, updated[2]!, updated[3]!);
  if (!date) throw new Error('expected "Last Update <date>" on the page');
  const start = text.search(
    /\$ListViewKurs\$|<table class="table table-striped table-no-bordered table-lg">/,
  );
  if (start < 0) throw new Error("expected the table of today's rates (ListViewKurs)");
  const tableStart = text.lastIndexOf('<table', start);
  const table = text.slice(tableStart, text.indexOf('</table>', tableStart));
  const builder = new ObservationBuilder(source);
  for (const row of table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
    const [code, ...quote] = cells(row[1]!);
    if (code === undefined) continue;
    addQuote(builder, date, code, quote);
  }
  return { ...builder.result(), date };
}

/**
 * A search's answer for `currency`: the table `gvSearchResult2` of Value (units, "1.00"), Sell,
 * Buy and Date ("5 Mar 2026"); midpoints stored as for today's table. A page without the table
 * found no rates in the window.
 */
export function parseBiHistory(
  text: string,
  currency: string,
  source: ObservationSource,
): Extraction {
  requireWholePage(text);
  if (!/\$txtFrom"/.test(text)) throw new Error('expected the transaction-rates page');
  const builder = new ObservationBuilder(source);
  const table = /<table\b[^>]*gvSearchResult2[\s\S]*?<\/table>/.exec(text)?.[0] ?? '';
  for (const row of table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
    const [units, sell, buy, day] = cells(row[1]!);
    if (day === undefined) continue;
    const parts = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(day);
    const date = parts ? isoFromEnglish(parts[1]!, parts[2]!, parts[3]!) : undefined;
    if (!date) {
      builder.drop(`${currency}: '${day}' is not a date`);
      continue;
    }
    addQuote(builder, date, currency, [units, sell, buy]);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bi',
  name: 'Bank Indonesia, transaction rates',
  relativeCurrency: 'IDR',
  url: 'https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx',
  countryCode: 'ID',
  timeZone: 'Asia/Jakarta',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2024-01-02',
  publishWindowUtc: { from: '01:00', to: '03:30', weekdaysOnly: true },
  fetches:
    "HTML page of today's buy/sell rates, earlier days by form post, a currency and a year each",
  async *fetch(window, context) {
    const page = await fetchBatch(
      context,
      BI_URL,
      (text) => ({ ...parseBiCurrent(text, publisher), form: parseBiForm(text) }),
      { html: true },
    );
    const { form, date: updated, ...current } = page;
    yield current;
    const before = addDays(updated, -1);
    const to = window.to < before ? window.to : before;
    const earlier = { from: window.from, to };
    if (window.from > to || weekdays(earlier).length === 0) return;
    for (const chunk of yearChunks(earlier)) {
      for (const [index, currency] of form.currencies.entries()) {
        const batch = await fetchBatch(
          context,
          BI_URL,
          (text) => parseBiHistory(text, currency.trim(), publisher),
          {
            html: true,
            body: biSearchBody(form, currency, chunk),
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          },
        );
        yield index === form.currencies.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
