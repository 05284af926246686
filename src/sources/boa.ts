import { read, utils, type CellObject, type WorkSheet } from '@e965/xlsx';
import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, fetchBytesBatch } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The historical-data page; it links the current workbook of daily rates since 2000. */
export const BOA_PAGE_URL = 'https://www.bank-of-algeria.dz/donnees-historiques/';

export interface BoaPage extends Extraction {
  workbookUrl: string;
}

/** The page's link to the daily workbook ("Cotation-DZD-2000-2026-journalier.xlsx"). */
export function parseBoaPage(text: string, pageUrl = BOA_PAGE_URL): BoaPage {
  const links = [...text.matchAll(/href="([^"]+\.xlsx)"/gi)].map((match) => match[1]!);
  const link =
    links.find((href) => /Cotation-DZD.*journalier/i.test(href)) ??
    links.find((href) => /Cotation-DZD/i.test(href));
  if (!link) throw new Error('the page links no Cotation-DZD workbook');
  return {
    observations: [],
    dropped: 0,
    dropReasons: [],
    workbookUrl: new URL(link, pageUrl).href,
  };
}

/** A date cell: a serial day number (1900 or 1904 system) or dd/mm/yyyy text. */
function cellDate(cell: CellObject | undefined, date1904: boolean): string | undefined {
  if (cell?.t === 'n' && Number.isInteger(cell.v)) {
    return addDays(date1904 ? '1904-01-01' : '1899-12-30', cell.v as number);
  }
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(String(cell?.v ?? '').trim());
  return match ? `${match[3]}-${match[2]}-${match[1]}` : undefined;
}

/** "100 JPY / DZD": how many units a sheet's figures are for, and of which currency. */
export function boaQuote(title: string): { units: string; code: string } | undefined {
  const match = /^\s*(?:(\d+)\s+)?([A-Z]{3,4})\s*\/\s*DZD\s*$/.exec(title);
  if (!match) return undefined;
  return { units: match[1] ?? '1', code: match[2] === 'EURO' ? 'EUR' : match[2]! };
}

function sheetTitle(sheet: WorkSheet): string {
  // Row 2 names the quote with its units ("100 JPY / DZD"), row 4 with the code only.
  return String(sheet.A2?.v ?? sheet.B4?.v ?? '');
}

/**
 * The workbook: one sheet per currency ("USD - DZD"), a title row naming the quote ("100 JPY /
 * DZD" is per 100 yen), then rows of date (a date cell) and DZD per unit (a number). A sheet
 * without rows (the ouguiya, MRO) adds nothing.
 */
export function parseBoaWorkbook(bytes: Uint8Array, source: ObservationSource): Extraction {
  const book = read(bytes, { type: 'array' });
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  if (book.SheetNames.length === 0) throw new Error('the workbook has no sheets');
  const builder = new ObservationBuilder(source);
  for (const name of book.SheetNames) {
    const sheet = book.Sheets[name]!;
    const quote = boaQuote(sheetTitle(sheet));
    if (!quote)
      throw new Error(`sheet '${name}' names no quote against DZD: '${sheetTitle(sheet)}'`);
    const range = utils.decode_range(sheet['!ref'] ?? 'A1');
    for (let row = range.s.r; row <= range.e.r; row++) {
      const dateCell = sheet[utils.encode_cell({ r: row, c: 0 })] as CellObject | undefined;
      const valueCell = sheet[utils.encode_cell({ r: row, c: 1 })] as CellObject | undefined;
      const date = cellDate(dateCell, date1904);
      if (!date || valueCell?.v === undefined || String(valueCell.v).trim() === '') continue;
      const price =
        valueCell.t === 'n' ? readDecimal(valueCell.v as number) : readDecimal(String(valueCell.v));
      builder.addPrice(date, quote.code, price, quote.units);
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'boa',
  name: 'Bank of Algeria, daily rates',
  relativeCurrency: 'DZD',
  url: 'https://www.bank-of-algeria.dz/donnees-historiques/',
  countryCode: 'DZ',
  timeZone: 'Africa/Algiers',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-03',
  publishWindowUtc: { from: '12:00', to: '14:30', weekdaysOnly: true },
  fetches:
    'the XLSX workbook linked from the historical-data page: a sheet per currency since 2000, per 100 JPY applied',
  async *fetch(_window, context) {
    // The workbook holds the whole history; its address changes with each upload.
    const page = await fetchBatch(context, BOA_PAGE_URL, (text) => parseBoaPage(text), {
      html: true,
    });
    yield page;
    yield await fetchBytesBatch(context, page.workbookUrl, (bytes) =>
      parseBoaWorkbook(bytes, publisher),
    );
  },
};
