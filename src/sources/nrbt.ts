import { read, utils } from '@e965/xlsx';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBytesBatch } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

export const NRBT_URL =
  'https://www.reservebank.to/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx';

/** An Excel date serial (days since 1899-12-30) as YYYY-MM-DD. */
function excelDate(serial: number): string {
  return new Date(Math.round((serial - 25569) * 86_400_000)).toISOString().slice(0, 10);
}

const isBlank = (value: unknown): boolean => value === null || value === '';

/**
 * One sheet per two years, each with three blocks side by side, BUY, MID and SELL (their titles
 * end in those words), under a row of currency codes; then one row per day, the date an Excel
 * date in the first column, figures in foreign currency per 1 TOP. Holidays are a row of
 * "Public Holiday: ..." text. The MID block is stored.
 */
export function parseNrbtWorkbook(bytes: Uint8Array, source: ObservationSource): Extraction {
  const workbook = read(bytes, { type: 'array' });
  const builder = new ObservationBuilder(source);
  let blocks = 0;
  for (const name of workbook.SheetNames) {
    const rows = utils.sheet_to_json<unknown[]>(workbook.Sheets[name]!, {
      header: 1,
      raw: true,
      defval: null,
    });
    let start = -1;
    const titleAt = rows.findIndex((row) => {
      start = row.findIndex((cell) => typeof cell === 'string' && /\bMID\s*$/.test(cell));
      return start >= 0;
    });
    if (titleAt < 0) throw new Error(`sheet '${name}' has no MID block`);
    const codesAt = rows.findIndex(
      (row, index) => index > titleAt && /^[A-Z]{3}$/.test(String(row[start] ?? '')),
    );
    if (codesAt < 0) throw new Error(`sheet '${name}' has no row of currency codes`);
    const columns: [number, string][] = [];
    for (let column = start; /^[A-Z]{3}$/.test(String(rows[codesAt]![column] ?? '')); column++) {
      columns.push([column, String(rows[codesAt]![column])]);
    }
    blocks++;
    for (const row of rows.slice(codesAt + 1)) {
      const figures = columns.map(([column]) => row[column]);
      if (figures.every(isBlank)) continue;
      if (figures.some((value) => typeof value === 'string' && /holiday/i.test(value))) continue;
      if (typeof row[0] !== 'number') {
        builder.drop(`sheet '${name}': figures without a date (${String(row[0])})`);
        continue;
      }
      const date = excelDate(row[0]);
      for (const [column, code] of columns) {
        if (isBlank(row[column])) builder.drop(`${code} on ${date}: no figure`);
        else builder.add(date, code, readDecimal(row[column] as number | string));
      }
    }
  }
  if (blocks === 0) throw new Error('the workbook has no sheets (cut short?)');
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nrbt',
  name: "National Reserve Bank of Tonga, authorized persons' average exchange rates",
  relativeCurrency: 'TOP',
  url: 'https://www.reservebank.to/index.php/financial-system/financial-markets/exchange-rates',
  countryCode: 'TO',
  timeZone: 'Pacific/Tongatapu',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2017-01-03',
  publishWindowUtc: { from: '04:00', to: '06:30', weekdaysOnly: true },
  fetches: '`average_daily_exchange_rates.xlsx`, every sheet, MID block (units per TOP)',
  async *fetch(window, context) {
    // One workbook holds the whole history.
    const batch = await fetchBytesBatch(context, NRBT_URL, (bytes) =>
      parseNrbtWorkbook(bytes, publisher),
    );
    yield completing(batch, window.to);
  },
};
