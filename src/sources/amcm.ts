import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const compact = (date: string): string => date.replaceAll('-', '');

/** Interbank middle rates of every currency the AMCM quotes, for the days of a window. */
export function amcmUrl(window: FetchWindow): string {
  return (
    `https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=${compact(window.from)}` +
    `&End=${compact(window.to)}&QueryType=1`
  );
}

interface AmcmRow {
  date?: string;
  currency?: string;
  unit?: number;
  usdMean?: string;
}

/**
 * `data[]`: MOP per `unit` units of `currency` (100 for JPY and KRW) in `usdMean`, printed as
 * text, on `date` ("2026-05-22 00:00:00"). `LIQ`, a money-market figure quoted in the same
 * list with unit 0, is no currency and is dropped.
 */
export function parseAmcmJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { code?: number; message?: string; data?: unknown };
  if (body?.code !== 0 || !Array.isArray(body.data)) {
    throw new Error(`expected AMCM JSON with code 0 and data[], got code ${String(body?.code)}`);
  }
  const builder = new ObservationBuilder(source);
  for (const row of body.data as AmcmRow[]) {
    const date =
      /^(\d{4}-\d{2}-\d{2})(?: 00:00:00)?$/.exec(row.date ?? '')?.[1] ?? String(row.date);
    const code = String(row.currency);
    if (code === 'LIQ') {
      builder.drop(`LIQ on ${date}: a liquidity figure, not a currency`);
      continue;
    }
    builder.addPrice(date, code, readDecimal(row.usdMean), readDecimal(row.unit));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'amcm',
  name: 'Monetary Authority of Macao, interbank middle rates',
  relativeCurrency: 'MOP',
  url: 'https://www.amcm.gov.mo/en/financial-information/interbank-midpoint',
  countryCode: 'MO',
  timeZone: 'Asia/Macau',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '1986-01-02',
  publishWindowUtc: { from: '03:00', to: '05:30', weekdaysOnly: true },
  fetches: '`financial_info` JSON, MOP per `unit` (100 for JPY, KRW), a month per request',
  async *fetch(window, context) {
    for (const chunk of windowChunks(window, 31)) {
      const batch = await fetchBatch(context, amcmUrl(chunk), (text) =>
        parseAmcmJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
