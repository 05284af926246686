import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** Table BP01D01, the daily rates of the main trading partners' currencies, whole since 1993. */
export const CBC_URL = 'https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01';

/** The table names the New Taiwan dollar NTD; ISO 4217 says TWD. */
const CODE_ALIASES: Record<string, string> = { NTD: 'TWD' };

interface Column {
  code: string;
  /** "USD/GBP": US dollars per unit of the currency, rather than units per US dollar. */
  perUnit: boolean;
}

/** "日圓JPY/USD" is yen per dollar; "英鎊USD/GBP" dollars per pound. */
function readColumn(label: string): Column | string {
  const match = /([A-Z]{3})\/([A-Z]{3})\s*$/.exec(label);
  if (!match) return `column '${label.trim()}' names no currency pair`;
  const [, left, right] = match as unknown as [string, string, string];
  if (right === 'USD') return { code: CODE_ALIASES[left] ?? left, perUnit: false };
  if (left === 'USD') return { code: CODE_ALIASES[right] ?? right, perUnit: true };
  return `column '${label.trim()}' is not against the US dollar`;
}

/**
 * The PX-Web JSON of table BP01D01: `data.structure.Table1` labels the columns ("XXX/USD" are
 * units per dollar, "USD/XXX" dollars per unit) and `data.dataSets` holds rows of
 * [yyyymmdd, figure per column]. A "-" is a day without a figure for that currency (the mark,
 * franc and guilder after 2001, the euro before 1999): there is nothing to store.
 */
export function parseCbcJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as {
    data?: { dataSets?: unknown; structure?: { Table1?: { data?: string }[] } };
  };
  const rows = body?.data?.dataSets;
  const labels = body?.data?.structure?.Table1;
  if (!Array.isArray(rows) || !Array.isArray(labels)) {
    throw new Error('expected PX-Web JSON with data.dataSets and data.structure.Table1');
  }
  const builder = new ObservationBuilder(source);
  const columns = labels.map((label) => readColumn(String(label?.data ?? '')));
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== columns.length + 1) {
      throw new Error(
        `row ${JSON.stringify(row)?.slice(0, 40)} does not have ${columns.length + 1} fields`,
      );
    }
    const match = /^(\d{4})(\d{2})(\d{2})$/.exec(String(row[0]));
    const date = match ? `${match[1]}-${match[2]}-${match[3]}` : String(row[0]);
    columns.forEach((column, index) => {
      const figure = String(row[index + 1] ?? '').trim();
      if (figure === '-') return;
      if (typeof column === 'string') {
        builder.drop(column);
        return;
      }
      const value = readDecimal(figure);
      if (column.perUnit) builder.addPrice(date, column.code, value);
      else builder.add(date, column.code, value);
    });
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbc',
  name: 'Central Bank of the Republic of China (Taiwan), interbank closing rates',
  relativeCurrency: 'USD',
  url: 'https://www.cbc.gov.tw/en/lp-4237-2.html',
  countryCode: 'TW',
  timeZone: 'Asia/Taipei',
  // The table's note: daily figures are the interbank spot rates at 16:00 Taiwan time.
  fixingTime: '16:00',
  isDst: false,
  historyStart: '1993-01-05',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: true },
  fetches: 'table BP01D01 (PX-Web JSON) whole; USD/XXX columns inverted, NTD read as TWD',
  async *fetch(_window, context) {
    // The table is only served whole; one request holds every day since 1993.
    yield await fetchBatch(context, CBC_URL, (text) => parseCbcJson(text, publisher));
  },
};
