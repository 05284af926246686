import { read, utils } from '@e965/xlsx';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBytesBatch } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

const DOCUMENTS = 'https://www.sbp.org.pk/assets/document';
/** The current month's rates. */
export const SBP_CURRENT_URL = `${DOCUMENTS}/BFER_Daily.xlsx`;
/** Every rate since July 2013. */
export const SBP_ARCHIVE_URL = `${DOCUMENTS}/BFER_Daily_Arch.xlsx`;

/**
 * The currency names the sheets print (lower case, letters only: the two files spell several
 * differently) and their ISO 4217 codes.
 */
export const SBP_CURRENCIES: Record<string, string> = {
  australiandollar: 'AUD',
  bahrainidinar: 'BHD',
  canadiandollar: 'CAD',
  chineseyuan: 'CNY',
  danishkrone: 'DKK',
  hongkongdollar: 'HKD',
  japaneseyen: 'JPY',
  japneseyen: 'JPY',
  kuwaitidinar: 'KWD',
  malaysianringgit: 'MYR',
  newzealanddollar: 'NZD',
  norwegiankrone: 'NOK',
  omaniriyal: 'OMR',
  qataririyal: 'QAR',
  singaporedollar: 'SGD',
  singaporiandollar: 'SGD',
  swedishkrona: 'SEK',
  swedishkrone: 'SEK',
  swissfranc: 'CHF',
  saudiarabianriyal: 'SAR',
  thaibaht: 'THB',
  thaibhat: 'THB',
  turkishlira: 'TRY',
  uaedirham: 'AED',
  ukpoundsterling: 'GBP',
  usdollar: 'USD',
  euro: 'EUR',
};

export interface SbpSheet extends Extraction {
  /** The first date the sheet holds, YYYY-MM-DD. */
  firstDate: string | undefined;
}

/** An Excel date serial (days since 1899-12-30) as YYYY-MM-DD. */
function excelDate(serial: number): string {
  return new Date(Math.round((serial - 25569) * 86_400_000)).toISOString().slice(0, 10);
}

/**
 * The first sheet: a header row "Country", "Currency" and one date (an Excel date) per column,
 * then one row per currency with PKR per 1 unit, numbers with six decimals. The sheets print
 * four; the stored figure is the cell's number.
 */
export function parseSbpWorkbook(bytes: Uint8Array, source: ObservationSource): SbpSheet {
  const workbook = read(bytes, { type: 'array' });
  const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('the workbook has no sheet');
  const rows = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
  const headerAt = rows.findIndex(
    (row) => String(row[1] ?? '').trim() === 'Currency' && typeof row[2] === 'number',
  );
  if (headerAt < 0) throw new Error('no header row with "Currency" and dates');
  const header = rows[headerAt]!;
  const builder = new ObservationBuilder(source);
  let currencies = 0;
  for (const row of rows.slice(headerAt + 1)) {
    const name = typeof row[1] === 'string' ? row[1].trim() : '';
    if (!name || !row.slice(2).some((value) => value !== null && value !== '')) continue;
    currencies++;
    const code = SBP_CURRENCIES[name.toLowerCase().replace(/[^a-z]/g, '')];
    for (let column = 2; column < header.length; column++) {
      const serial = header[column];
      if (typeof serial !== 'number') continue;
      const date = excelDate(serial);
      const value = row[column];
      if (!code) builder.drop(`${date}: no currency code known for '${name}'`);
      else builder.addPrice(date, code, readDecimal(value as number | string | null));
    }
  }
  if (currencies === 0) throw new Error('the sheet holds no rates (cut short?)');
  const first = header.slice(2).find((value) => typeof value === 'number') as number | undefined;
  return { ...builder.result(), firstDate: first === undefined ? undefined : excelDate(first) };
}

export const publisher: Publisher = {
  key: 'sbp',
  name: "State Bank of Pakistan, daily average banks' floating exchange rates",
  relativeCurrency: 'PKR',
  url: 'https://www.sbp.org.pk/ecodata/index2.asp',
  countryCode: 'PK',
  timeZone: 'Asia/Karachi',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2013-07-02',
  publishWindowUtc: { from: '05:00', to: '15:30', weekdaysOnly: false },
  fetches: '`BFER_Daily.xlsx` (current month) and `BFER_Daily_Arch.xlsx` (history) when needed',
  async *fetch(window, context) {
    // The current month's file first: the archive is fetched only for dates before it.
    const current = await fetchBytesBatch(context, SBP_CURRENT_URL, (bytes) =>
      parseSbpWorkbook(bytes, publisher),
    );
    if (current.firstDate === undefined || window.from < current.firstDate) {
      yield await fetchBytesBatch(context, SBP_ARCHIVE_URL, (bytes) =>
        parseSbpWorkbook(bytes, publisher),
      );
    }
    yield completing(current, window.to);
  },
};
