import { epochMsToDate } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/**
 * The currencies of the indicative-rates page, in its order, as the path names them. Each
 * series is served whole, from its first day.
 */
export const CBG_SERIES = [
  ...['USD', 'EUR', 'GBP', 'CHF', 'SEK', 'CAD', 'XOF', 'NOK', 'DKK', 'SAR', 'JPY', 'AUD'],
  ...['TWD', 'LKR', 'THB', 'PHP', 'NZD', 'AED', 'KWD', 'NGN', 'HKD', 'ZAR', 'EGP', 'CNY'],
  ...['BRL', 'INR', 'GHS', 'SLL', 'TRY', 'GNF', 'XDR', 'SGD'],
] as const;

export function cbgUrl(series: string): string {
  return `https://www.cbg.gm/ajax/indicative-exchange-rates/${series}`;
}

/** Dalasi are quoted per 100 kronor and yen, and per 5,000 CFA francs; the rest per unit. */
const UNITS: Record<string, string> = {
  SEK: '100',
  NOK: '100',
  DKK: '100',
  JPY: '100',
  XOF: '5000',
};

/** Sierra Leone's redenominated leone (1,000 old leones) took over on this day. */
const SLE_FROM = '2022-07-01';

/**
 * One series: `[[epoch ms of the day at 00:00 UTC, dalasi per unit(s)], ...]`, newest first.
 * The series repeats some days: a repeat with the same figure is one observation; days listed
 * with different figures are dropped whole (which one holds cannot be told). The feed prints 1
 * for the kronor it no longer quotes (DKK since August 2024): a price of 1 per 100 or 5,000
 * units is such a placeholder and dropped.
 */
export function parseCbgSeries(
  text: string,
  series: string,
  source: ObservationSource,
): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of [time, rate] pairs');
  const builder = new ObservationBuilder(source);
  const units = UNITS[series] ?? '1';
  const days = new Map<string, string[]>();
  for (const point of body as unknown[]) {
    if (!Array.isArray(point) || point.length !== 2 || typeof point[0] !== 'number') {
      builder.drop(`${series}: ${JSON.stringify(point)} is not a [time, rate] pair`);
      continue;
    }
    const date = epochMsToDate(point[0]);
    const figures = days.get(date);
    const figure = readDecimal(point[1] as number | string | null);
    if (figures) figures.push(figure);
    else days.set(date, [figure]);
  }
  for (const [date, figures] of days) {
    const figure = figures[0]!;
    if (figures.some((other) => other !== figure)) {
      for (const other of figures)
        builder.drop(`${series} on ${date}: ${other} among ${figures.join(', ')}`);
      continue;
    }
    if (units !== '1' && figure === '1') {
      builder.drop(
        `${series} on ${date}: 1 per ${units} is the placeholder of an unquoted currency`,
      );
      continue;
    }
    const code = series === 'SLL' && date >= SLE_FROM ? 'SLE' : series;
    builder.addPrice(date, code, figure, units);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbg',
  name: 'Central Bank of The Gambia, indicative exchange rates',
  relativeCurrency: 'GMD',
  url: 'https://www.cbg.gm/indicative-exchange-rates-latest',
  countryCode: 'GM',
  timeZone: 'Africa/Banjul',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-07',
  publishWindowUtc: { from: '11:00', to: '13:30', weekdaysOnly: true },
  fetches:
    "each currency's whole series (JSON), one request per currency; per-100 and per-5000 quotes applied",
  async *fetch(_window, context) {
    // Each series comes whole; there is no way to ask for a range of dates.
    for (const series of CBG_SERIES) {
      yield await fetchBatch(context, cbgUrl(series), (text) =>
        parseCbgSeries(text, series, publisher),
      );
    }
  },
};
