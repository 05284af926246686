import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/**
 * The whole history in one file; `v` (the date, yyyymmdd) only defeats caches between the
 * publisher's site and its readers.
 */
export function mmaUrl(date: string): string {
  return `https://www.mma.gov.mv/JSON/referencerates.json?v=${date.replaceAll('-', '')}`;
}

/**
 * A JSON array of `{"Date": "21 May 2026", "Rate": "15.42"}`, newest first: MVR per US dollar,
 * the one currency the reference rate is set for. A date listed a second time is dropped and
 * counted.
 */
export function parseMmaJson(text: string, source: ObservationSource): Extraction {
  const records = parseJson(text);
  if (!Array.isArray(records)) throw new Error('expected a JSON array of reference rates');
  // The whole history comes with every answer: none at all is a failed answer, not a quiet day.
  if (records.length === 0) throw new Error('an empty list of reference rates');
  const builder = new ObservationBuilder(source);
  const seen = new Set<string>();
  for (const record of records as { Date?: string; Rate?: string | number }[]) {
    const [day = '', month = '', year = ''] = String(record.Date).trim().split(/\s+/);
    const date = isoFromEnglish(day, month, year) ?? String(record.Date);
    if (seen.has(date)) {
      builder.drop(`${date}: listed again`);
      continue;
    }
    seen.add(date);
    builder.addPrice(date, 'USD', readDecimal(record.Rate));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'mma',
  name: 'Maldives Monetary Authority, reference rate',
  relativeCurrency: 'MVR',
  url: 'https://www.mma.gov.mv/#/research/statisticalPublications/referenceRate',
  countryCode: 'MV',
  timeZone: 'Indian/Maldives',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2011-04-21',
  publishWindowUtc: { from: '03:00', to: '05:30', weekdaysOnly: false },
  fetches: '`referencerates.json`, the whole USD history in one file',
  async *fetch(window, context) {
    const batch = await fetchBatch(context, mmaUrl(window.to), (text) =>
      parseMmaJson(text, publisher),
    );
    yield completing(batch, window.to);
  },
};
