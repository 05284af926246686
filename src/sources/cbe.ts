import { read, type WorkSheet } from '@e965/xlsx';
import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  completing,
  fetchBytesBatch,
  PublisherFormatError,
  windowChunks,
} from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The historical-data page: its form carries the request token and the currency names. */
export const CBE_PAGE_URL =
  'https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data';
/** Where the form posts; `SubmitAction=2` asks for the spreadsheet. */
export const CBE_DATA_URL = 'https://www.cbe.org.eg/api/statistics/GetHistoricalData';

/** The form's currency names. Yen are quoted per 100 ("Japanese Yen 100"). */
const CURRENCIES: Record<string, { code: string; units?: string }> = {
  'us dollar': { code: 'USD' },
  euro: { code: 'EUR' },
  'pound sterling': { code: 'GBP' },
  'canadian dollar': { code: 'CAD' },
  'danish krone': { code: 'DKK' },
  'norwegian krone': { code: 'NOK' },
  'swedish krona': { code: 'SEK' },
  'swiss franc': { code: 'CHF' },
  'japanese yen 100': { code: 'JPY', units: '100' },
  'saudi riyal': { code: 'SAR' },
  'kuwaiti dinar': { code: 'KWD' },
  'uae dirham': { code: 'AED' },
  'australian dollar': { code: 'AUD' },
  'bahraini dinar': { code: 'BHD' },
  'omani riyal': { code: 'OMR' },
  'qatari riyal': { code: 'QAR' },
  'jordanian dinar': { code: 'JOD' },
  'chinese yuan': { code: 'CNY' },
};

/** What the page's form holds: hidden fields in order, and the currency options. */
export interface CbeForm {
  hidden: [string, string][];
  options: string[];
}

const decodeEntities = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Reads the historical-data form: the anti-forgery token and the other hidden fields, and the options. */
export function parseCbeForm(html: string): CbeForm {
  const form = /<form[^>]*id="historicalDataForm"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error('the page has no historical-data form');
  const hidden: [string, string][] = [];
  for (const input of form.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(input[0])?.[1];
    const value = /\svalue="([^"]*)"/.exec(input[0])?.[1] ?? '';
    // The form's uid is filled in by the page's script and not sent.
    if (name && name !== 'uid') hidden.push([name, decodeEntities(value)]);
  }
  if (!hidden.some(([name]) => name === '__RequestVerificationToken')) {
    throw new Error('the historical-data form has no request token');
  }
  const select = /<select[^>]*name="SelectedSelectOptions"[^>]*>([\s\S]*?)<\/select>/.exec(
    form,
  )?.[1];
  const options = [...(select ?? '').matchAll(/<option\s+value="([^"]*)"/g)].map((match) =>
    decodeEntities(match[1]!),
  );
  if (options.length === 0) throw new Error('the historical-data form lists no currencies');
  return { hidden, options };
}

/** dd/mm/yyyy, as the form takes dates. */
const slashed = (date: string): string =>
  `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The form's body for one window: hidden fields, both dates, every currency, and the download action. */
export function cbeRequestBody(form: CbeForm, window: FetchWindow): string {
  const fields: [string, string][] = [
    ...form.hidden,
    ['FromDateRaw', slashed(window.from)],
    ['ToDateRaw', slashed(window.to)],
    ...form.options.map((option): [string, string] => ['SelectedSelectOptions', option]),
    ['SubmitAction', '2'],
  ];
  return new URLSearchParams(fields).toString();
}

/** An Excel day serial (days since 1899-12-30) or a dd/mm/yyyy text cell, as YYYY-MM-DD. */
function cellDate(cell: { t?: string; v?: unknown } | undefined): string {
  if (cell?.t === 'n' && typeof cell.v === 'number' && Number.isInteger(cell.v)) {
    return addDays('1899-12-30', cell.v);
  }
  const text = String(cell?.v ?? '').trim();
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : text;
}

/** A number cell's figure (the shortest text of its double is the publisher's) or a text cell's. */
function cellFigure(cell: { v?: unknown } | undefined): string {
  const value = cell?.v;
  return typeof value === 'number' || typeof value === 'string' ? readDecimal(value) : '';
}

/**
 * The "Official Exchange Rates" sheet: a header row `Date, Currency, Buy, Sell` and rows of
 * pounds per unit (per 100 yen); the official rate stored is the midpoint of buy and sell.
 */
export function parseCbeXlsx(bytes: Uint8Array, source: ObservationSource): Extraction {
  let sheet: WorkSheet | undefined;
  try {
    const book = read(bytes, { type: 'array' });
    sheet = book.Sheets[book.SheetNames[0] ?? ''];
  } catch (error) {
    throw new Error(`not a readable spreadsheet (cut short?): ${(error as Error).message}`);
  }
  const ref = sheet?.['!ref'];
  if (!sheet || !ref) throw new Error('the spreadsheet has no sheet of rates');
  const lastRow = Number(/(\d+)$/.exec(ref)?.[1]);
  const cell = (column: string, row: number) =>
    sheet[`${column}${row}`] as { t?: string; v?: unknown } | undefined;
  let header = 0;
  for (let row = 1; row <= Math.min(lastRow, 10) && header === 0; row++) {
    const names = ['A', 'B', 'C', 'D'].map((column) => String(cell(column, row)?.v ?? '').trim());
    if (names.join(',').toLowerCase() === 'date,currency,buy,sell') header = row;
  }
  if (header === 0) throw new Error('expected a header row Date, Currency, Buy, Sell');
  const builder = new ObservationBuilder(source);
  for (let row = header + 1; row <= lastRow; row++) {
    const name = String(cell('B', row)?.v ?? '').trim();
    if (name === '' && cell('A', row) === undefined) continue;
    const currency = CURRENCIES[name.toLowerCase().replace(/\s+/g, ' ')];
    if (!currency) {
      builder.drop(`'${name}' is not a known currency name`);
      continue;
    }
    const price = midpoint(cellFigure(cell('C', row)), cellFigure(cell('D', row)));
    builder.addPrice(cellDate(cell('A', row)), currency.code, price, currency.units ?? '1');
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbe',
  name: 'Central Bank of Egypt, official exchange rates',
  relativeCurrency: 'EGP',
  url: 'https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data',
  countryCode: 'EG',
  timeZone: 'Africa/Cairo',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '2024-03-01',
  // Egypt's working week is Sunday to Thursday.
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: false },
  fetches:
    'the historical-data form (token from the page), XLSX by POST, 92 days per request; buy/sell midpoint, per-100 yen',
  async *fetch(window, context) {
    const page = await context.http.requestText(CBE_PAGE_URL);
    let form: CbeForm;
    try {
      form = parseCbeForm(page.text);
    } catch (error) {
      throw new PublisherFormatError(`${page.url}: ${(error as Error).message}`);
    }
    for (const chunk of windowChunks(window, 92)) {
      const batch = await fetchBytesBatch(
        context,
        CBE_DATA_URL,
        (bytes) => parseCbeXlsx(bytes, publisher),
        {
          body: cbeRequestBody(form, chunk),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            referer: CBE_PAGE_URL,
          },
        },
      );
      yield completing(batch, chunk.to);
    }
  },
};
