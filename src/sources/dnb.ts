import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, requireCompleteText } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

export const DNB_DATA_URL = 'https://api.statbank.dk/v1/data';

/** The currencies of table DNVALD, in the order the query names them. */
export const DNB_CURRENCIES = [
  ...['EUR', 'USD', 'GBP', 'SEK', 'NOK', 'CHF', 'CAD', 'JPY', 'AUD', 'NZD', 'PLN', 'CZK'],
  ...['HUF', 'HKD', 'SGD', 'ZAR', 'BGN', 'RON', 'TRY', 'KRW', 'THB', 'MYR', 'PHP', 'IDR'],
  ...['CNY', 'BRL', 'MXN', 'INR', 'ILS', 'ISK'],
];

/** Statistics Denmark's period code of a day: 2025-03-03 is 2025M03D03. */
export function dnbPeriod(date: string): string {
  return `${date.slice(0, 4)}M${date.slice(5, 7)}D${date.slice(8, 10)}`;
}

/**
 * The JSON query for table DNVALD: the Nationalbank's daily rates (`KURTYP` KBH) of every
 * currency, for every day from `from` on, as semicolon-separated BULK text.
 */
export function dnbQuery(from: string): string {
  return JSON.stringify({
    table: 'DNVALD',
    format: 'BULK',
    lang: 'en',
    valuePresentation: 'Code',
    variables: [
      { code: 'VALUTA', values: DNB_CURRENCIES },
      { code: 'KURTYP', values: ['KBH'] },
      { code: 'Tid', values: [`>=${dnbPeriod(from)}`] },
    ],
  });
}

/**
 * BULK text `VALUTA;KURTYP;TID;INDHOLD`: DKK per 100 units of `VALUTA` on day `TID`
 * (2025M07D08). `..` marks a day without a rate (the lev since the euro replaced it) and is
 * skipped.
 */
export function parseDnbBulk(text: string, source: ObservationSource): Extraction {
  requireCompleteText(text);
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== 'VALUTA;KURTYP;TID;INDHOLD') {
    throw new Error(`expected the header VALUTA;KURTYP;TID;INDHOLD, not '${lines[0]}'`);
  }
  const builder = new ObservationBuilder(source);
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const fields = line.split(';');
    if (fields.length !== 4)
      throw new Error(`line ${index + 1} has ${fields.length} fields, not 4`);
    const [code, , period, value] = fields as [string, string, string, string];
    if (value.trim() === '..') continue;
    const day = /^(\d{4})M(\d{2})D(\d{2})$/.exec(period);
    const date = day ? `${day[1]}-${day[2]}-${day[3]}` : period;
    builder.addPrice(date, code, readDecimal(value), '100');
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'dnb',
  name: 'Danmarks Nationalbank, exchange rates',
  relativeCurrency: 'DKK',
  url: 'https://www.nationalbanken.dk/en/what-we-do/stable-prices-monetary-policy-and-the-danish-economy/exchange-rates',
  countryCode: 'DK',
  timeZone: 'Europe/Copenhagen',
  fixingTime: '16:00',
  isDst: true,
  historyStart: '1977-01-03',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches:
    'Statbank table DNVALD by POST, BULK text, DKK per 100 units, every day since the window start',
  async *fetch(window, context) {
    const batch = await fetchBatch(context, DNB_DATA_URL, (text) => parseDnbBulk(text, publisher), {
      body: dnbQuery(window.from),
      headers: { 'Content-Type': 'application/json' },
    });
    yield completing(batch, window.to);
  },
};
