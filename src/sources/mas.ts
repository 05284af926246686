import { parse } from 'node-html-parser';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, yearChunks } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The ASP.NET page: a GET gives the form, a POST of it with Download gives the CSV file. */
export const MAS_URL = 'https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx';

const FIELD = 'ctl00$ContentPlaceHolder1$';

export interface MasForm extends Extraction {
  /** The page's hidden state fields, which a post back must return. */
  state: [name: string, value: string][];
  /** The currency check boxes, in the page's order. */
  checkBoxes: string[];
}

/** The form's state fields and currency check boxes; a page without them is not the form. */
export function parseMasForm(text: string): MasForm {
  const root = parse(text);
  const state: MasForm['state'] = [];
  for (const name of ['__VIEWSTATE', '__VIEWSTATEGENERATOR', '__EVENTVALIDATION']) {
    const value = root.querySelector(`input[name="${name}"]`)?.getAttribute('value');
    if (value === undefined) throw new Error(`the form has no ${name} field`);
    state.push([name, value]);
  }
  const checkBoxes = root
    .querySelectorAll('input[type="checkbox"]')
    .map((input) => input.getAttribute('name') ?? '')
    .filter((name) => /CheckBoxList\$\d+$/.test(name));
  if (checkBoxes.length === 0) throw new Error('the form lists no currencies');
  return { observations: [], dropped: 0, dropReasons: [], state, checkBoxes };
}

/** The form posted back for daily rates of every currency in the months of `window`. */
export function masQuery(window: FetchWindow, form: Pick<MasForm, 'state' | 'checkBoxes'>): string {
  const month = (date: string) => String(Number(date.slice(5, 7)));
  return new URLSearchParams([
    ...form.state,
    [`${FIELD}StartYearDropDownList`, window.from.slice(0, 4)],
    [`${FIELD}EndYearDropDownList`, window.to.slice(0, 4)],
    [`${FIELD}StartMonthDropDownList`, month(window.from)],
    [`${FIELD}EndMonthDropDownList`, month(window.to)],
    [`${FIELD}FrequencyDropDownList`, 'D'],
    [`${FIELD}DownloadButton`, 'Download'],
    ...form.checkBoxes.map((name): [string, string] => [name, 'on']),
  ]).toString();
}

/** The file's currency names. */
const CURRENCY_NAMES: Record<string, string> = {
  Euro: 'EUR',
  'Pound Sterling': 'GBP',
  'US Dollar': 'USD',
  'Australian Dollar': 'AUD',
  'Canadian Dollar': 'CAD',
  'Chinese Renminbi': 'CNY',
  'Hong Kong Dollar': 'HKD',
  'Indian Rupee': 'INR',
  'Indonesian Rupiah': 'IDR',
  'Japanese Yen': 'JPY',
  'Korean Won': 'KRW',
  'Malaysian Ringgit': 'MYR',
  'New Taiwan Dollar': 'TWD',
  'New Zealand Dollar': 'NZD',
  'Philippine Peso': 'PHP',
  'Qatar Riyal': 'QAR',
  'Saudi Arabia Riyal': 'SAR',
  'Swiss Franc': 'CHF',
  'Thai Baht': 'THB',
  'UAE Dirham': 'AED',
  'Vietnamese Dong': 'VND',
};

/**
 * The CSV download: a few title lines, the header `End of Period,,,S$ Per Unit of Euro,...,S$ Per
 * 100 Units of Japanese Yen,...`, rows of year, month (Mar) and day (year and month only when
 * they change), and closing notes ("Daily figures are values as of noon."). SGD per 1 or 100
 * units; a blank cell is no rate. A file without its notes was cut short.
 */
export function parseMasCsv(text: string, source: ObservationSource): Extraction {
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((line) => line.startsWith('End of Period,'));
  if (headerAt < 0) throw new Error('no "End of Period" header line (not the CSV download?)');
  if (!lines.slice(headerAt + 1).some((line) => /^"\* Daily figures/.test(line))) {
    throw new Error('the file ends before its closing notes (cut short?)');
  }
  const columns = lines[headerAt]!.split(',').map((name, index) => {
    if (index < 3) return undefined;
    const quote = /^S\$ Per (?:(\d+) Units|Unit) of (.+)$/.exec(name.trim());
    return { name, units: quote?.[1] ?? '1', code: quote ? CURRENCY_NAMES[quote[2]!] : undefined };
  });
  const builder = new ObservationBuilder(source);
  let year = '';
  let month = '';
  for (const line of lines.slice(headerAt + 1)) {
    if (line.trim() === '') continue;
    if (line.startsWith('"*')) break;
    const fields = line.split(',');
    if (fields.length !== columns.length) {
      throw new Error(`a row has ${fields.length} fields, the header ${columns.length}: ${line}`);
    }
    year = fields[0]!.trim() || year;
    month = fields[1]!.trim() || month;
    const date = isoFromEnglish(fields[2]!.trim(), month, year) ?? `${year} ${month} ${fields[2]}`;
    for (let index = 3; index < fields.length; index++) {
      const value = fields[index]!.trim();
      const column = columns[index]!;
      if (value === '') continue;
      if (!column.code) {
        builder.drop(`${date}: unknown currency column '${column.name}'`);
        continue;
      }
      builder.addPrice(date, column.code, readDecimal(value), column.units);
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'mas',
  name: 'Monetary Authority of Singapore, exchange rates',
  relativeCurrency: 'SGD',
  url: 'https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx',
  countryCode: 'SG',
  timeZone: 'Asia/Singapore',
  fixingTime: '12:00',
  isDst: false,
  historyStart: '1988-01-01',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: true },
  fetches:
    'the ASP.NET form, then its daily CSV download by POST, SGD per 1 or 100 units, a year per request',
  async *fetch(window, context) {
    const form = await fetchBatch(context, MAS_URL, parseMasForm, { html: true });
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, MAS_URL, (text) => parseMasCsv(text, publisher), {
        body: masQuery(chunk, form),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      yield completing(batch, chunk.to);
    }
  },
};
