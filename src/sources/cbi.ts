import { read, type WorkBook, type WorkSheet } from '@e965/xlsx';
import { isCalendarDate } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBytesBatch, PublisherFormatError } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The statistics page that links the workbooks; the workbook's file name changes with updates. */
export const CBI_PAGE_URL = 'https://cbi.iq/page/144';

/**
 * The link to the daily dinar rates against the main currencies and gold (buy, sell): its text
 * reads "أسعار صرف الدينار العراقي اليومية تجاه العملات الرئيسية".
 */
export function cbiWorkbookUrl(html: string): string {
  for (const link of html.matchAll(/<a\s[^>]*href="([^"]+\.xlsx)"[^>]*>([\s\S]*?)<\/a>/g)) {
    const text = link[2]!.replace(/<[^>]*>/g, '');
    if (/اليومية/.test(text) && /العملات الرئيسية/.test(text)) {
      return new URL(link[1]!, CBI_PAGE_URL).href;
    }
  }
  throw new Error('the page links no workbook of daily rates against the main currencies');
}

/** Column labels that are not the ISO code (2024's sheet writes S.FR and UAE). */
const CODE_ALIASES: Record<string, string> = { SDR: 'XDR', 'S.FR': 'CHF', UAE: 'AED' };

const MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ');

type Cell = { t?: string; v?: unknown } | undefined;

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/** A figure cell: a number (its shortest text is the figure) or a plain number typed as text. */
function figure(cell: Cell): string | undefined {
  if (cell === undefined || cell.v === null || cell.v === undefined || cell.v === '') {
    return undefined;
  }
  return readDecimal(typeof cell.v === 'number' ? cell.v : String(cell.v));
}

interface Triple {
  code: string;
  buy: number;
  sell: number;
}

/**
 * One year's sheet: currency labels ("... USD" in row 3, or the code alone in row 4) over columns
 * headed "Buy ID", "Sell ID" (and, from 2026, "Sell ID 2") in row 5; months one under another, each a run of rows numbered by the
 * day and closed by an "Average" row, the next headed "Feb.2026" and so on. Figures are dinars
 * per unit; the rate stored is the midpoint of "Buy ID" and "Sell ID" ("Sell ID 2", the higher
 * selling rate, is left aside). Days without figures (holidays, weekends, a holiday's name
 * written across the row) are skipped. The gold column, a price per ounce typed by hand (with
 * stray separators and figures a thousand times too large), is not stored.
 */
function readSheet(sheet: WorkSheet, year: number, builder: ObservationBuilder): void {
  const ref = sheet['!ref'];
  if (!ref) return;
  const lastRow = Number(/(\d+)$/.exec(ref)?.[1]);
  const cell = (column: number, row: number): Cell => sheet[`${columnName(column)}${row}`] as Cell;
  // Row 5 heads each currency's triple with "Buy"; the label above is somewhere over the triple.
  const triples: Triple[] = [];
  let headerRow = 0;
  for (let row = 1; row <= Math.min(lastRow, 10) && headerRow === 0; row++) {
    if (/buy/i.test(String(cell(1, row)?.v ?? ''))) headerRow = row;
  }
  if (headerRow === 0) return;
  const buyColumns: number[] = [];
  for (let column = 1; column < 300; column++) {
    if (/^\s*buy/i.test(String(cell(column, headerRow)?.v ?? ''))) buyColumns.push(column);
  }
  buyColumns.forEach((column, index) => {
    // The label stands over the currency's own columns (in 2026 not always over the first).
    const end = Math.min(buyColumns[index + 1] ?? column + 3, column + 3);
    let label = '';
    for (let labelColumn = column; labelColumn < end && label === ''; labelColumn++) {
      for (let row = 1; row < headerRow && label === ''; row++) {
        const text = String(cell(labelColumn, row)?.v ?? '').trim();
        label = /(?:^|\s)([A-Z][A-Z.]*[A-Z])$/.exec(text)?.[1] ?? '';
      }
    }
    if (label === '') {
      throw new Error(`sheet ${year}: no currency over column ${columnName(column)}`);
    }
    triples.push({ code: CODE_ALIASES[label] ?? label, buy: column, sell: column + 1 });
  });
  // The gold column: "Gold" (or "الذهب", gold) over a column that is not a currency's.
  const goldColumns: number[] = [];
  for (let column = 1; column < 300; column++) {
    for (let row = 1; row < headerRow; row++) {
      const text = String(cell(column, row)?.v ?? '');
      if (/gold|الذهب/i.test(text) && !buyColumns.includes(column)) {
        goldColumns.push(column);
        break;
      }
    }
  }
  let month = 1;
  for (let row = headerRow + 1; row <= lastRow; row++) {
    const first = cell(0, row)?.v;
    const text = String(first ?? '').trim();
    const named = /^([A-Za-z]{3})[A-Za-z]*\.?\s*(\d{4})$/.exec(text);
    if (named) {
      const index = MONTHS.indexOf(named[1]!.toLowerCase());
      if (index < 0) throw new Error(`sheet ${year}: '${text}' is no month`);
      month = index + 1;
      continue;
    }
    if (/^average/i.test(text)) {
      month++;
      continue;
    }
    if (!/^\d{1,2}$/.test(text)) continue;
    const values = triples.map(({ buy, sell }) => [
      figure(cell(buy, row)),
      figure(cell(sell, row)),
    ]);
    // A day without a single figure: a holiday or a weekend.
    if (!values.some((pair) => pair.some((value) => value !== undefined && /^\d/.test(value)))) {
      continue;
    }
    const date = `${year}-${String(month).padStart(2, '0')}-${text.padStart(2, '0')}`;
    if (!isCalendarDate(date)) {
      throw new Error(`sheet ${year}: day ${text} of month ${month} is no date`);
    }
    for (const column of goldColumns) {
      const price = figure(cell(column, row));
      if (price !== undefined) builder.drop(`gold on ${date}: ${price} per ounce is not stored`);
    }
    triples.forEach(({ code }, index) => {
      const [buy, sell] = values[index]!;
      if (buy === undefined && sell === undefined) return;
      if (buy === undefined || sell === undefined) {
        builder.drop(`${code} on ${date}: buying ${buy ?? '-'}, selling ${sell ?? '-'}`);
        return;
      }
      if (/^\d+(\.\d+)?$/.test(buy) && /^\d+(\.\d+)?$/.test(sell) && Number(buy) > Number(sell)) {
        builder.drop(`${code} on ${date}: buying ${buy} above selling ${sell}`);
        return;
      }
      builder.addPrice(date, code, midpoint(buy, sell));
    });
  }
}

/** The workbook: a sheet per year (2009 onwards), each read as `readSheet` says. */
export function parseCbiWorkbook(bytes: Uint8Array, source: ObservationSource): Extraction {
  let book: WorkBook;
  try {
    book = read(bytes, { type: 'array' });
  } catch (error) {
    throw new Error(`not a readable workbook (cut short?): ${(error as Error).message}`);
  }
  const years = book.SheetNames.filter((name) => /^\d{4}$/.test(name.trim()));
  if (years.length === 0) throw new Error('the workbook has no sheet named by a year');
  const builder = new ObservationBuilder(source);
  for (const name of years) readSheet(book.Sheets[name]!, Number(name.trim()), builder);
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbi',
  name: 'Central Bank of Iraq, daily exchange rates',
  relativeCurrency: 'IQD',
  url: 'https://cbi.iq/page/144',
  countryCode: 'IQ',
  timeZone: 'Asia/Baghdad',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2009-01-01',
  // Iraq's working week is Sunday to Thursday.
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: false },
  fetches:
    'the statistics page for the daily-rates workbook link, then the XLSX (a sheet per year); buy/sell midpoint',
  async *fetch(_window, context) {
    // The workbook holds every year; the page says which file is current.
    const page = await context.http.requestText(CBI_PAGE_URL);
    let url: string;
    try {
      url = cbiWorkbookUrl(page.text);
    } catch (error) {
      throw new PublisherFormatError(`${page.url}: ${(error as Error).message}`);
    }
    yield await fetchBytesBatch(context, url, (bytes) => parseCbiWorkbook(bytes, publisher));
  },
};
