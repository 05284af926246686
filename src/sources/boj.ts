import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/**
 * The Tokyo market's 17:00 rates in the Bank of Japan's time-series database (FM08): FXERD04 is
 * yen per US dollar, FXERD34 US dollars per euro (the other way round).
 */
export const BOJ_SERIES: Readonly<Record<string, { code: string; inverted: boolean }>> = {
  FXERD04: { code: 'JPY', inverted: false },
  FXERD34: { code: 'EUR', inverted: true },
};

const month = (date: string): string => date.slice(0, 7).replace('-', '');

/** Both series for the months from `window.from` to `window.to` (YYYYMM, both inclusive). */
export function bojUrl(window: FetchWindow): string {
  return (
    `https://www.stat-search.boj.or.jp/api/v1/getDataCode?code=${Object.keys(BOJ_SERIES).join(',')}` +
    `&db=FM08&endDate=${month(window.to)}&format=json&lang=en&startDate=${month(window.from)}`
  );
}

interface BojSeries {
  SERIES_CODE?: string;
  VALUES?: { SURVEY_DATES?: unknown[]; VALUES?: unknown[] };
}

/**
 * `RESULTSET[]`: one series each, `SURVEY_DATES` (yyyymmdd numbers) beside `VALUES` (numbers, null
 * on days without a fixing). A result split over pages (`NEXTPOSITION`) is refused: a year of two
 * daily series is far below the API's page size.
 */
export function parseBojJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as {
    STATUS?: number;
    MESSAGE?: string;
    NEXTPOSITION?: unknown;
    RESULTSET?: BojSeries[];
  };
  if (body?.STATUS !== 200) {
    throw new Error(`the API answered ${String(body?.STATUS)}: ${String(body?.MESSAGE)}`);
  }
  if (!Array.isArray(body.RESULTSET)) throw new Error('expected JSON with RESULTSET[]');
  if (body.NEXTPOSITION != null) throw new Error('the result is split over several pages');
  const builder = new ObservationBuilder(source);
  for (const series of body.RESULTSET) {
    const known = BOJ_SERIES[String(series.SERIES_CODE)];
    const dates = series.VALUES?.SURVEY_DATES;
    const values = series.VALUES?.VALUES;
    if (!Array.isArray(dates) || !Array.isArray(values) || dates.length !== values.length) {
      throw new Error(`series ${String(series.SERIES_CODE)} has no matching dates and values`);
    }
    if (!known) {
      builder.drop(`unknown series ${String(series.SERIES_CODE)}`);
      continue;
    }
    dates.forEach((day, index) => {
      const value = values[index];
      if (value === null) return;
      const match = /^(\d{4})(\d{2})(\d{2})$/.exec(String(day));
      const date = match ? `${match[1]}-${match[2]}-${match[3]}` : String(day);
      const rate = readDecimal(value as number | string);
      if (known.inverted) builder.addPrice(date, known.code, rate);
      else builder.add(date, known.code, rate);
    });
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'boj',
  name: 'Bank of Japan, Tokyo market 17:00 rates',
  relativeCurrency: 'USD',
  url: 'https://www.stat-search.boj.or.jp/index_en.html',
  countryCode: 'JP',
  timeZone: 'Asia/Tokyo',
  fixingTime: '17:00',
  isDst: false,
  historyStart: '1998-01-05',
  publishWindowUtc: { from: '00:00', to: '02:30', weekdaysOnly: true },
  fetches:
    'time-series API JSON: FXERD04 (JPY per USD) and FXERD34 (USD per EUR, inverted), a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, bojUrl(chunk), (text) =>
        parseBojJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
