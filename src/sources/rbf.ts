import { read, utils } from '@e965/xlsx';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBytesBatch, PublisherFormatError } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The statistics page links the current workbook, whose file name changes with each upload. */
export const RBF_PAGE_URL = 'https://www.rbf.gov.fj/statistics/economic-and-financial-statistics/';

/** The workbook's column labels and their ISO 4217 codes. */
export const RBF_COLUMNS: Record<string, string> = {
  SDR: 'XDR',
  STG: 'GBP',
  YEN: 'JPY',
  CHF: 'CHF',
  A$: 'AUD',
  NZ$: 'NZD',
  US$: 'USD',
  EURO: 'EUR',
};

/** The link to the "Exchange Rates Daily" workbook on the statistics page. */
export function rbfWorkbookUrl(html: string, pageUrl = RBF_PAGE_URL): string | undefined {
  for (const match of html.matchAll(/href\s*=\s*["']([^"']+\.xlsx)["']/gi)) {
    if (/Exchange-Rates-Daily/i.test(match[1]!)) return new URL(match[1]!, pageUrl).toString();
  }
  return undefined;
}

/** An Excel date serial (days since 1899-12-30) as YYYY-MM-DD. */
function excelDate(serial: number): string {
  return new Date(Math.round((serial - 25569) * 86_400_000)).toISOString().slice(0, 10);
}

/**
 * "DAILY EXCHANGE RATES (RBF Mid-Rate Per Fiji Dollar)": a header row "Period", SDR, STG, YEN,
 * CHF, A$, NZ$, US$, EURO, then one row per day, an Excel date and units per 1 FJD.
 */
export function parseRbfWorkbook(bytes: Uint8Array, source: ObservationSource): Extraction {
  const workbook = read(bytes, { type: 'array' });
  const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('the workbook has no sheet');
  const rows = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
  const headerAt = rows.findIndex((row) => String(row[0] ?? '').trim() === 'Period');
  if (headerAt < 0) throw new Error('no header row starting with "Period"');
  const labels = rows[headerAt]!.map((label) => String(label ?? '').trim());
  const builder = new ObservationBuilder(source);
  let days = 0;
  for (const row of rows.slice(headerAt + 1)) {
    if (row.every((cell) => cell === null || cell === '')) continue;
    if (typeof row[0] !== 'number') {
      builder.drop(`a row without a date: ${String(row[0])}`);
      continue;
    }
    days++;
    const date = excelDate(row[0]);
    for (let column = 1; column < labels.length; column++) {
      if (!labels[column]) continue;
      const code = RBF_COLUMNS[labels[column]!];
      if (!code) builder.drop(`${date}: unknown column '${labels[column]}'`);
      else builder.add(date, code, readDecimal(row[column] as number | string | null));
    }
  }
  if (days === 0) throw new Error('the sheet holds no rates (cut short?)');
  return builder.result();
}

export const publisher: Publisher = {
  key: 'rbf',
  name: 'Reserve Bank of Fiji, daily mid rates',
  relativeCurrency: 'FJD',
  url: RBF_PAGE_URL,
  countryCode: 'FJ',
  timeZone: 'Pacific/Fiji',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2001-01-02',
  publishWindowUtc: { from: '02:00', to: '04:30', weekdaysOnly: true },
  fetches: 'statistics page for the link, then the "Exchange Rates Daily" XLSX (units per FJD)',
  async *fetch(window, context) {
    const page = await context.http.requestText(RBF_PAGE_URL);
    const url = rbfWorkbookUrl(page.text);
    if (!url) {
      throw new PublisherFormatError(`${page.url}: no link to the Exchange Rates Daily workbook`);
    }
    // One workbook holds the whole history.
    const batch = await fetchBytesBatch(context, url, (bytes) =>
      parseRbfWorkbook(bytes, publisher),
    );
    yield completing(batch, window.to);
  },
};
