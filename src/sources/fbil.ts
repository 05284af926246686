import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The reference rates published between two dates, both inclusive. */
export function fbilUrl(window: FetchWindow): string {
  return `https://www.fbil.org.in/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=${window.from}&toDate=${window.to}`;
}

interface FbilRecord {
  processRunDate?: string;
  subProdName?: string;
  rate?: number | string;
}

/**
 * A JSON array of reference rates: `subProdName` 'INR / 100 JPY' is INR per 100 yen on the date
 * of `processRunDate` ('2026-03-20 00:00:00'). A name of another shape is dropped and counted.
 */
export function parseFbilJson(text: string, source: ObservationSource): Extraction {
  const records = parseJson(text);
  if (!Array.isArray(records)) throw new Error('expected a JSON array of reference rates');
  const builder = new ObservationBuilder(source);
  for (const record of records as FbilRecord[]) {
    const date = String(record.processRunDate).slice(0, 10);
    const name = /^INR\s*\/\s*(\d+)\s+([A-Z]{3})$/.exec(String(record.subProdName).trim());
    if (!name) {
      builder.drop(`${date}: '${record.subProdName}' is not an INR rate`);
      continue;
    }
    builder.addPrice(date, name[2]!, readDecimal(record.rate), name[1]!);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'fbil',
  name: 'Financial Benchmarks India, FX reference rates',
  relativeCurrency: 'INR',
  url: 'https://www.fbil.org.in/#/refrates',
  countryCode: 'IN',
  timeZone: 'Asia/Kolkata',
  fixingTime: '13:00',
  isDst: false,
  historyStart: '2018-07-10',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: true },
  fetches: '`refrates/fetchfiltered` JSON, units read from the rate names, a month per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, 31)) {
      const batch = await fetchBatch(context, fbilUrl(chunk), (text) =>
        parseFbilJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
