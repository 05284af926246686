import type { FetchWindow, SourceAdapter } from './adapter.js';
import { completing, fetchBatch, yearChunks } from './adapter.js';
import { readCsvTable } from './csv-table.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder, readDecimal } from './observation-builder.js';
import type { SourceEntry } from './registry.js';

const DATABASE_URL = 'https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp';

/** The Bank's daily spot series, units of the currency per GBP. */
export const BOE_SERIES: Readonly<Record<string, string>> = {
  XUDLUSS: 'USD',
  XUDLERS: 'EUR',
  XUDLJYS: 'JPY',
  XUDLCDS: 'CAD',
  XUDLSFS: 'CHF',
  XUDLADS: 'AUD',
  XUDLNDS: 'NZD',
  XUDLNKS: 'NOK',
  XUDLSKS: 'SEK',
  XUDLDKS: 'DKK',
  XUDLHDS: 'HKD',
  XUDLSGS: 'SGD',
  XUDLSRS: 'SAR',
  XUDLZRS: 'ZAR',
  XUDLTWS: 'TWD',
  XUDLBK25: 'CZK',
  XUDLBK33: 'HUF',
  XUDLBK47: 'PLN',
  XUDLBK78: 'ILS',
  XUDLBK83: 'MYR',
  XUDLBK87: 'THB',
  XUDLBK89: 'CNY',
  XUDLBK93: 'KRW',
  XUDLBK95: 'TRY',
  XUDLBK97: 'INR',
  XUDLZOS4: 'RON',
};

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

function boeDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${MONTHS[Number(month) - 1]}/${year}`;
}

export function boeUrl(window: FetchWindow): string {
  const series = Object.keys(BOE_SERIES).join(',');
  return (
    `${DATABASE_URL}?CSVF=TN&Datefrom=${boeDate(window.from)}&Dateto=${boeDate(window.to)}` +
    `&SeriesCodes=${series}&UsingCodes=Y&csv.x=yes`
  );
}

/** Dates like '17 Mar 2026'. */
function isoFromBoe(text: string): string {
  const match = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(text.trim());
  const month = match ? MONTHS.indexOf(match[2]!) + 1 : 0;
  if (!match || month === 0) return text;
  return `${match[3]}-${String(month).padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
}

/** The database's CSV: `DATE` then one column per series code; empty cells are days without a rate. */
export function parseBoeCsv(text: string, source: SourceEntry): Extraction {
  const builder = new ObservationBuilder(source);
  // A range without any rate is answered with an empty body or a header alone.
  if (text.trim() === '') return builder.result();
  const table = readCsvTable(text);
  if (table.header[0] !== 'DATE') {
    throw new Error(`CSV header starts with '${table.header[0]}', not DATE`);
  }
  for (const { fields } of table.rows) {
    const date = isoFromBoe(fields[0]!);
    table.header.forEach((series, column) => {
      if (column === 0 || fields[column]!.trim() === '') return;
      const code = BOE_SERIES[series];
      if (!code) {
        builder.drop(`unknown series ${series}`);
        return;
      }
      builder.add(date, code, readDecimal(fields[column]));
    });
  }
  return builder.result();
}

export const boeAdapter: SourceAdapter = {
  key: 'boe',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, boeUrl(chunk), (text) =>
        parseBoeCsv(text, context.source),
      );
      yield completing(batch, chunk.to);
    }
  },
};
