import { lastDayOfMonth } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The data portal's monthly foreign-exchange cube, whole history in one answer. */
export const SNB_URL = 'https://data.snb.ch/api/cube/devkum/data/json/de';

interface SnbCube {
  timeseries?: {
    metadata?: { key?: string };
    values?: { date?: string; value?: number | string }[];
  }[];
}

/** Last Monday-to-Friday of a month: the day the month-end rate was fixed. */
function lastWeekdayOfMonth(yearMonth: string): string {
  const [year, month] = yearMonth.split('-').map(Number) as [number, number];
  const last = new Date(`${lastDayOfMonth(year, month)}T00:00:00Z`);
  while (last.getUTCDay() === 0 || last.getUTCDay() === 6) last.setUTCDate(last.getUTCDate() - 1);
  return last.toISOString().slice(0, 10);
}

/** The cube's value as decimal text, at 12 significant digits: '0.8384' for 0.8383999999999999. */
function withoutFloatNoise(value: number | string | undefined): string {
  const text = readDecimal(value);
  const number = Number(text);
  return Number.isFinite(number) && text !== '' ? readDecimal(number.toPrecision(12)) : text;
}

/**
 * The SNB cube JSON. Series keys read `EPB@SNB.devkum{M1,JPY100}`: M1 is the month-end rate
 * (kept, dated on the month's last weekday at the 11:00 fixing), M0 the monthly average (an
 * average is no observation, so it is skipped), and the number after the code the units
 * quoted, CHF per 1 or per 100. Values carry binary float noise (0.8383999999999999), rounded
 * away at 12 significant digits before the per-100 point is moved and the quote inverted.
 */
export function parseSnbCube(text: string, source: ObservationSource): Extraction {
  const cube = parseJson(text) as SnbCube;
  if (!Array.isArray(cube?.timeseries)) throw new Error('not an SNB cube: no timeseries');
  const builder = new ObservationBuilder(source);
  for (const series of cube.timeseries) {
    const key = series.metadata?.key ?? '';
    const match = /\{(M[01]),([A-Z]{3})(\d+)\}$/.exec(key);
    if (!match) continue; // forward rates (USD3M) and other series that are no spot rate
    if (match[1] !== 'M1') continue;
    const [, , code, units] = match as unknown as [string, string, string, string];
    for (const point of series.values ?? []) {
      if (!/^\d{4}-\d{2}$/.test(point.date ?? '')) {
        builder.drop(`${code}: '${point.date}' is not a month`);
        continue;
      }
      builder.addPrice(
        lastWeekdayOfMonth(point.date!),
        code,
        withoutFloatNoise(point.value),
        units,
      );
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'snb',
  name: 'Swiss National Bank, foreign exchange rates',
  relativeCurrency: 'CHF',
  url: 'https://data.snb.ch/en/topics/ziredev/cube/devkum',
  countryCode: 'CH',
  timeZone: 'Europe/Zurich',
  fixingTime: '11:00',
  isDst: true,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '08:00', to: '11:00', weekdaysOnly: false },
  fetches:
    "data portal cube `devkum`: month-end rates, dated the month's last weekday (monthly averages are not observations and are skipped); per-100 quotes scaled, then inverted",
  async *fetch(_window, context) {
    yield await fetchBatch(context, SNB_URL, (text) => parseSnbCube(text, publisher));
  },
};
