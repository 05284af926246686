import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch } from './publisher-fetch.js';
import { isoFromEnglish } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The whole history in one CSV file, newest day first. */
export const BOB_URL = 'https://www.bankofbotswana.bw/export/exchange-rates.csv?_format=csv&page';

/** The file's column names that are not ISO 4217 codes. */
const COLUMN_CODES: Readonly<Record<string, string>> = { CHN: 'CNY', YEN: 'JPY', SDR: 'XDR' };

/** Every figure has four decimals; anything else (a number cut short) is no figure of this file. */
const FIGURE = /^\d+\.\d{4}$/;

/**
 * `Date,CHN,EUR,GBP,USD,SDR,YEN,ZAR`: a quoted "19 Mar 2026", then units of each currency per
 * 1 BWP with four decimals; 0.0000 where a currency was not quoted (the yuan before 2011). The
 * file has a byte-order mark and no final line break, so a body cut short shows as a short row
 * or a figure without its four decimals. A few days appear twice with different figures
 * (misdated rows); neither row can be trusted, so both are dropped.
 */
export function parseBobCsv(text: string, source: ObservationSource): Extraction {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.split(',').map((name) => name.trim()) ?? [];
  if (header[0] !== 'Date' || header.length < 2) {
    throw new Error(`expected a CSV header starting with Date, got: ${lines[0]?.slice(0, 80)}`);
  }
  const rows: { date: string; fields: string[] }[] = [];
  const seen = new Map<string, string>();
  const conflicting = new Set<string>();
  lines.slice(1).forEach((line, index) => {
    if (line.trim() === '') return;
    const fields = line.split(',').map((field) => field.trim());
    const figures = fields.slice(1);
    if (fields.length !== header.length || !figures.every((figure) => FIGURE.test(figure))) {
      throw new Error(`line ${index + 2} is not a full row of figures (cut short?): ${line}`);
    }
    const [day, month, year] = fields[0]!.replace(/^"|"$/g, '').split(' ');
    const date = isoFromEnglish(day ?? '', month ?? '', year ?? '') ?? fields[0]!;
    const figuresText = figures.join(',');
    const before = seen.get(date);
    if (before === undefined) seen.set(date, figuresText);
    else if (before !== figuresText) conflicting.add(date);
    else return;
    rows.push({ date, fields: figures });
  });
  const builder = new ObservationBuilder(source);
  const codes = header.slice(1).map((name) => COLUMN_CODES[name] ?? name);
  for (const { date, fields } of rows) {
    fields.forEach((figure, column) => {
      const code = codes[column]!;
      if (/^0+\.0+$/.test(figure)) return;
      if (conflicting.has(date)) {
        builder.drop(`${code} on ${date}: the day is printed twice with different figures`);
        return;
      }
      builder.add(date, code, figure);
    });
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bob',
  name: 'Bank of Botswana, exchange rates',
  relativeCurrency: 'BWP',
  url: 'https://www.bankofbotswana.bw/exchange-rates',
  countryCode: 'BW',
  timeZone: 'Africa/Gaborone',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2009-04-27',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: true },
  fetches: 'CSV export of the whole history, units per BWP; misdated duplicate days dropped',
  async *fetch(_window, context) {
    // One file holds every day since 2009; it has no date query.
    yield await fetchBatch(context, BOB_URL, (text) => parseBobCsv(text, publisher));
  },
};
