import * as XLSX from '@e965/xlsx';
import { addDays, daysBetween, isWeekend } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBytesBatch, yearChunks } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The year's official buying and selling rates of the US dollar, one spreadsheet a year. */
export function bcboYearUrl(year: number): string {
  return `https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=${year}`;
}

/** The day's table of quotations: the official rate and every other currency in BOB. */
export function bcboDayUrl(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=${year}&qdd=${day}&qmm=${month}`;
}

/** Windows up to this many days (the usual runs) read the daily tables; longer ones the years. */
export const BCBO_DAILY_TABLE_DAYS = 31;

const SPANISH_MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

type Cell = string | number;

function sheetRows(bytes: Uint8Array): Cell[][] {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'array' });
  } catch (error) {
    throw new Error(`not a readable spreadsheet (cut short?): ${(error as Error).message}`);
  }
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) throw new Error('not a readable spreadsheet (cut short?): it has no sheet');
  return XLSX.utils.sheet_to_json<Cell[]>(sheet, { header: 1, raw: true, defval: '' });
}

const text = (cell: Cell | undefined): string => String(cell ?? '').trim();
const figure = (cell: Cell | undefined): string =>
  typeof cell === 'number' ? readDecimal(cell) : text(cell);

/**
 * The year's sheet: a "DIAS" row naming the months, then one row per day of the month (1-31)
 * with VENTA and COMPRA for each month side by side, BOB per USD; empty on days without a
 * rate. The midpoint of the two is stored. The "PROM" row (monthly averages) is not a day.
 */
export function parseBcboYear(
  bytes: Uint8Array,
  year: number,
  source: ObservationSource,
): Extraction {
  const rows = sheetRows(bytes);
  if (!rows.some((row) => row.some((cell) => text(cell).includes(String(year))))) {
    throw new Error(`not the sheet of ${year}`);
  }
  const header = rows.findIndex((row) => text(row[0]).toUpperCase() === 'DIAS');
  if (header < 0 || text(rows[header]?.[1]).toUpperCase() !== 'ENERO') {
    throw new Error('expected a DIAS row with the months from ENERO');
  }
  const builder = new ObservationBuilder(source);
  for (const row of rows.slice(header + 2)) {
    const day = text(row[0]);
    if (!/^\d{1,2}$/.test(day)) continue;
    for (let month = 1; month <= 12; month++) {
      const sell = row[2 * month - 1];
      const buy = row[2 * month];
      if (text(sell) === '' && text(buy) === '') continue;
      const date = `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
      builder.addPrice(date, 'USD', midpoint(figure(buy), figure(sell)));
    }
  }
  return builder.result();
}

/**
 * The day's table ("TABLA DE COTIZACIONES DEL 13 DE JULIO DE 2026"): the official rate
 * (TCO, BOB per USD), then one row per currency with its ISO code and BOB per unit. Rows with
 * a figure but no currency code quoted in BOB are dropped: the UFV (an index), gold and
 * silver and the SDR (in USD); CNH is not an ISO code and is dropped too.
 */
export function parseBcboDay(bytes: Uint8Array, source: ObservationSource): Extraction {
  const rows = sheetRows(bytes);
  const title = rows
    .map((row) => text(row[0]))
    .map((cell) => /COTIZACIONES DEL (\d{1,2}) DE (\p{L}+)\s+DE (\d{4})/iu.exec(cell))
    .find((match) => match !== null);
  const month = title ? SPANISH_MONTHS.indexOf(title[2]!.toLowerCase()) + 1 : 0;
  if (!title || month === 0) throw new Error('expected a "TABLA DE COTIZACIONES DEL ..." title');
  const date = `${title[3]}-${String(month).padStart(2, '0')}-${title[1]!.padStart(2, '0')}`;
  const builder = new ObservationBuilder(source);
  let currencies = 0;
  for (const row of rows) {
    if (typeof row[3] !== 'number') continue;
    const code = text(row[2]);
    if (/^[A-Z]{3}$/.test(code)) {
      currencies++;
      builder.addPrice(date, code, figure(row[3]));
    } else {
      builder.drop(`${text(row[0])} ${text(row[1])} on ${date}: not a currency quoted in BOB`);
    }
  }
  if (currencies === 0) throw new Error(`the table of ${date} quotes no currency`);
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcbo',
  name: 'Banco Central de Bolivia, official rates',
  relativeCurrency: 'BOB',
  url: 'https://www.bcb.gob.bo/?q=cotizaciones_tc',
  countryCode: 'BO',
  timeZone: 'America/La_Paz',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '12:00', to: '14:30', weekdaysOnly: true },
  fetches:
    'daily XLS tables (all currencies) for windows up to 31 days, else yearly XLS (USD buy/sell midpoint)',
  async *fetch(window, context) {
    if (daysBetween(window.from, window.to) < BCBO_DAILY_TABLE_DAYS) {
      for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
        if (isWeekend(date)) continue;
        const batch = await fetchBytesBatch(context, bcboDayUrl(date), (bytes) =>
          parseBcboDay(bytes, publisher),
        );
        yield completing(batch, date);
      }
      return;
    }
    for (const chunk of yearChunks(window)) {
      const year = Number(chunk.from.slice(0, 4));
      const batch = await fetchBytesBatch(context, bcboYearUrl(year), (bytes) =>
        parseBcboYear(bytes, year, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
