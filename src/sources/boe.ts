import { readCsvTable } from './csv-table.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, yearChunks } from './publisher-fetch.js';
import { isoFromEnglish, monthAbbreviation, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

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

/** Request dates like '17/Mar/2026'. */
function boeDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${monthAbbreviation(Number(month))}/${year}`;
}

export function boeUrl(window: FetchWindow): string {
  const series = Object.keys(BOE_SERIES).join(',');
  return (
    `${DATABASE_URL}?CSVF=TN&Datefrom=${boeDate(window.from)}&Dateto=${boeDate(window.to)}` +
    `&SeriesCodes=${series}&UsingCodes=Y&csv.x=yes`
  );
}

/** Answer dates like '17 Mar 2026'. */
function isoFromBoe(text: string): string {
  const [day = '', month = '', year = ''] = text.trim().split(' ');
  return isoFromEnglish(day, month, year) ?? text;
}

/** The database's CSV: `DATE` then one column per series code; empty cells are days without a rate. */
export function parseBoeCsv(text: string, source: ObservationSource): Extraction {
  const builder = new ObservationBuilder(source);
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

export const publisher: Publisher = {
  key: 'boe',
  name: 'Bank of England, spot rates against sterling',
  relativeCurrency: 'GBP',
  url: 'https://www.bankofengland.co.uk/boeapps/database/Rates.asp?into=GBP',
  countryCode: 'GB',
  timeZone: 'Europe/London',
  fixingTime: '16:00',
  isDst: true,
  historyStart: '1975-01-02',
  publishWindowUtc: { from: '16:00', to: '18:30', weekdaysOnly: true },
  fetches: 'database CSV of the 26 `XUDL*` spot series, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, boeUrl(chunk), (text) =>
        parseBoeCsv(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
