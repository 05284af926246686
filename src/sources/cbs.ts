import { read, utils, type WorkBook } from '@e965/xlsx';
import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBytesBatch, PublisherFormatError } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The daily-rates page links the workbook of the whole history; its name changes with each update. */
export const CBS_PAGE_URL = 'https://cbs.gov.ws/daily-exchange-rates';
const CBS_ORIGIN = 'https://cbs.gov.ws';

/** The workbook's address, from the page's link to it. */
export function cbsWorkbookUrl(html: string): string {
  const path = /href="([^"]*Historical-Daily-Rates[^"]*\.xlsx)"/i.exec(html)?.[1];
  if (!path) throw new Error('the page links no Historical-Daily-Rates workbook');
  return new URL(path, CBS_ORIGIN).href;
}

/**
 * Column labels name the currency against the tala either way round ("TALA/USD" in most years,
 * "US/TALA" in 2009-2012); both mean units of the currency per tala, as the figures show.
 */
const LABEL_CODES: Record<string, string> = {
  USD: 'USD',
  US: 'USD',
  NZD: 'NZD',
  NZ: 'NZD',
  AUD: 'AUD',
  AUS: 'AUD',
  EURO: 'EUR',
  EUR: 'EUR',
  FJD: 'FJD',
  YEN: 'JPY',
  GBP: 'GBP',
  CNY: 'CNY',
  CNH: 'CNH',
};

function labelCode(label: string): string | undefined {
  const parts = label.toUpperCase().replace(/\s+/g, '').split('/');
  if (parts.length !== 2 || !parts.includes('TALA')) return undefined;
  const other = parts[0] === 'TALA' ? parts[1]! : parts[0]!;
  return LABEL_CODES[other] ?? other;
}

/**
 * The workbook: a sheet per year, months in blocks under a `DATE, TALA/USD, ...` header row (a
 * month's own row sometimes repeats the labels), days as Excel date serials, figures as units of
 * the currency per tala. Month and quarter averages (rows named "Jan", "Jun qtr avg") and the
 * working columns right of the labelled ones are not daily figures and are left out. The
 * offshore yuan (CNH) has no ISO 4217 code and is dropped. A day listed again with the same figures
 * (2015-06-30 is in three sheets) is one observation; a day listed twice with different figures is
 * dropped.
 */
export function parseCbsWorkbook(bytes: Uint8Array, source: ObservationSource): Extraction {
  let book: WorkBook;
  try {
    book = read(bytes, { type: 'array' });
  } catch (error) {
    throw new Error(`not a readable workbook (cut short?): ${(error as Error).message}`);
  }
  const builder = new ObservationBuilder(source);
  // Figures by day and currency: a day listed twice with different figures cannot be told apart.
  const figures = new Map<string, string[]>();
  let sheetsRead = 0;
  for (const name of book.SheetNames) {
    // Sheets are named by year (2010 and 2011 swapped); the days themselves carry the dates.
    if (!/^\d{4}$/.test(name.trim())) continue;
    const rows = utils.sheet_to_json<unknown[]>(book.Sheets[name]!, {
      header: 1,
      raw: true,
      defval: null,
    });
    let codes: (string | undefined)[] | undefined;
    for (const row of rows) {
      const labels = row
        .slice(1)
        .map((cell) => (typeof cell === 'string' ? labelCode(cell) : undefined));
      if (labels.some((code) => code !== undefined)) {
        codes = labels;
        continue;
      }
      const serial = row[0];
      if (typeof serial !== 'number' || !Number.isInteger(serial)) continue;
      if (!codes) throw new Error(`sheet ${name}: figures before any header row`);
      const date = addDays('1899-12-30', serial);
      codes.forEach((code, index) => {
        const cell = row[index + 1];
        if (code === undefined || cell === null || cell === undefined) return;
        const key = `${date} ${code}`;
        const figure = readDecimal(cell as number | string);
        const listed = figures.get(key);
        if (listed) listed.push(figure);
        else figures.set(key, [figure]);
      });
    }
    sheetsRead++;
  }
  for (const [key, listed] of figures) {
    const [date, code] = key.split(' ') as [string, string];
    if (listed.every((figure) => figure === listed[0])) {
      builder.add(date, code, listed[0]!);
    } else {
      for (const figure of listed) {
        builder.drop(`${code} on ${date}: ${figure} among different figures for the day`);
      }
    }
  }
  if (sheetsRead === 0) throw new Error('the workbook has no sheet named by a year');
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbs',
  name: 'Central Bank of Samoa, daily indicative rates',
  relativeCurrency: 'WST',
  url: 'https://cbs.gov.ws/daily-exchange-rates',
  countryCode: 'WS',
  timeZone: 'Pacific/Apia',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2008-01-02',
  // Published on Samoan weekday mornings, which are Sunday to Thursday evenings in UTC.
  publishWindowUtc: { from: '19:00', to: '21:30', weekdaysOnly: false },
  fetches: 'the daily-rates page for the workbook link, then the XLSX of the whole history',
  async *fetch(_window, context) {
    // One workbook holds every day since 2008; the page says which file is current.
    const page = await context.http.requestText(CBS_PAGE_URL);
    let url: string;
    try {
      url = cbsWorkbookUrl(page.text);
    } catch (error) {
      throw new PublisherFormatError(`${page.url}: ${(error as Error).message}`);
    }
    yield await fetchBytesBatch(context, url, (bytes) => parseCbsWorkbook(bytes, publisher));
  },
};
