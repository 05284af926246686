import { parse as parseHtml } from 'node-html-parser';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, windowChunks } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The page of previous rates: a form (GET) that answers a range of dates (POST). */
export const BOTA_URL = 'https://www.bot.go.tz/ExchangeRate/previous_rates';

const usDate = (date: string): string => {
  const [year, month, day] = date.split('-');
  return `${month}/${day}/${year}`;
};

/** The form as posted: the anti-forgery token of the page, then the dates as MM/DD/YYYY. */
export function botaRequestBody(token: string, window: FetchWindow): string {
  return new URLSearchParams({
    __RequestVerificationToken: token,
    dateFrom: usDate(window.from),
    dateTo: usDate(window.to),
  }).toString();
}

export interface BotaForm extends Extraction {
  token: string;
}

/** The form page: its `__RequestVerificationToken`, without which the bank refuses the query. */
export function parseBotaForm(text: string): BotaForm {
  const input = parseHtml(text).querySelector('input[name="__RequestVerificationToken"]');
  const token = input?.getAttribute('value')?.trim();
  if (!token) {
    throw new Error(
      'the rates page offers no __RequestVerificationToken: the bank refused the form',
    );
  }
  return { observations: [], dropped: 0, dropReasons: [], token };
}

/** "19-May-26" as 2026-05-19. */
function isoFromShortDate(text: string): string {
  const match = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(text);
  return (match && isoFromEnglish(match[1]!, match[2]!, `20${match[3]}`)) ?? text;
}

/** Codes the table prints again under a withdrawn name: RUR beside RUB. */
const REPEATED: Readonly<Record<string, string>> = { RUR: 'RUB' };

const HEADER = ['S/N', 'Currency', 'Buy', 'Sell', 'Mean', 'Date'];

/**
 * The answer's `table#myTable`: S/N, Currency (code), Buy, Sell, Mean (TZS per unit), Date
 * (dd-Mon-yy). Figures carry commas in odd places ("2,602.0,545" is 2602.0545): every comma is
 * a separator. The published mean is stored.
 */
export function parseBotaHtml(text: string, source: ObservationSource): Extraction {
  if (!/<\/html>\s*$/i.test(text)) throw new Error('the page ends before </html> (cut short?)');
  const table = parseHtml(text).querySelector('table#myTable');
  const header = table?.querySelectorAll('thead th').map((cell) => cell.text.trim());
  if (!table || header?.join('|') !== HEADER.join('|')) {
    throw new Error(`expected table#myTable with columns ${HEADER.join(', ')}`);
  }
  const builder = new ObservationBuilder(source);
  for (const row of table.querySelectorAll('tbody tr')) {
    const cells = row.querySelectorAll('td').map((cell) => cell.text.trim());
    if (cells.length !== HEADER.length) {
      throw new Error(`a row has ${cells.length} cells, not ${HEADER.length}: ${cells.join(' ')}`);
    }
    const [, code, , , mean, date] = cells as [string, string, string, string, string, string];
    if (REPEATED[code]) {
      builder.drop(`${code} repeats ${REPEATED[code]} under its withdrawn code`);
      continue;
    }
    builder.addPrice(isoFromShortDate(date), code, readDecimal(mean));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bota',
  name: 'Bank of Tanzania, indicative rates',
  relativeCurrency: 'TZS',
  url: 'https://www.bot.go.tz/exchangerate/excrates',
  countryCode: 'TZ',
  timeZone: 'Africa/Dar_es_Salaam',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1999-07-01',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: false },
  fetches:
    'HTML form of previous rates (anti-forgery token, then POST per 31 days), mean of buying and selling',
  async *fetch(window, context) {
    const form = await fetchBatch(context, BOTA_URL, parseBotaForm, { html: true });
    yield form;
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      // The anti-forgery cookie carries the same token as the form.
      cookie: `__RequestVerificationToken=${form.token}; lang=en`,
    };
    for (const chunk of windowChunks(window, 31)) {
      const batch = await fetchBatch(context, BOTA_URL, (text) => parseBotaHtml(text, publisher), {
        html: true,
        body: botaRequestBody(form.token, chunk),
        headers,
      });
      yield completing(batch, chunk.to);
    }
  },
};
