import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const PAGE_SIZE = 100;
/** Calendar days per request: fewer business days than a page holds. */
const CHUNK_DAYS = 100;

/** One page of the daily end-of-day rates between two dates, newest first. */
export function hkmaUrl(window: FetchWindow, offset = 0): string {
  return (
    'https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily' +
    `?choose=end_of_day&from=${window.from}&offset=${offset}&pagesize=${PAGE_SIZE}` +
    `&sortby=end_of_day&sortorder=desc&to=${window.to}`
  );
}

/** Field names that are not the lower-case ISO code of their currency. */
const FIELD_CODES: Record<string, string> = { special_drawing_rights: 'XDR' };

export interface HkmaPage extends Extraction {
  /** Records on the page; a full page means the next offset may hold more. */
  records: number;
}

/**
 * `result.records[]`: one record per `end_of_day` date, HKD per unit of each currency under its
 * lower-case code (`usd`, `jpy`, `special_drawing_rights`). Currencies withdrawn or not quoted
 * that day are null and skipped; the effective exchange rate indices (`neeri_*`) are not
 * currencies and are dropped and counted.
 */
export function parseHkmaJson(text: string, source: ObservationSource): HkmaPage {
  const body = parseJson(text) as {
    header?: { success?: boolean; err_msg?: string };
    result?: { records?: unknown };
  };
  if (body?.header?.success === false) {
    throw new Error(`the API refused the request: ${body.header.err_msg ?? 'no reason given'}`);
  }
  const records = body?.result?.records;
  if (!Array.isArray(records)) throw new Error('expected JSON with result.records[]');
  const builder = new ObservationBuilder(source);
  for (const record of records as Record<string, unknown>[]) {
    const date = String(record.end_of_day);
    for (const [field, value] of Object.entries(record)) {
      if (field === 'end_of_day' || value === null || value === undefined) continue;
      if (field.startsWith('neeri')) {
        builder.drop(`${date}: ${field} is an index, not a currency`);
        continue;
      }
      const code = FIELD_CODES[field] ?? field.toUpperCase();
      builder.addPrice(date, code, readDecimal(value as number | string));
    }
  }
  return { ...builder.result(), records: records.length };
}

export const publisher: Publisher = {
  key: 'hkma',
  name: 'Hong Kong Monetary Authority, end-of-day exchange rates',
  relativeCurrency: 'HKD',
  url: 'https://www.hkma.gov.hk/eng/data-publications-and-research/data-and-statistics/daily-monetary-statistics/',
  countryCode: 'HK',
  timeZone: 'Asia/Hong_Kong',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1981-01-02',
  publishWindowUtc: { from: '01:00', to: '10:30', weekdaysOnly: false },
  fetches: 'monthly bulletin API `er-eeri-daily` JSON, end of day, 100 days per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, CHUNK_DAYS)) {
      for (let offset = 0; ; offset += PAGE_SIZE) {
        const page = await fetchBatch(context, hkmaUrl(chunk, offset), (text) =>
          parseHkmaJson(text, publisher),
        );
        if (page.records < PAGE_SIZE) {
          yield completing(page, chunk.to);
          break;
        }
        yield page;
      }
    }
  },
};
