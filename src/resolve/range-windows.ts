import { addDays, dateToEpochMs, daysBetween } from '../dates.js';
import type { PeriodUnit } from '../store/store.js';
import type { RateQuery } from './rate-query.js';

/**
 * About how many rows one window's statement returns: what the engine sorts and the service
 * holds at once for a range, however long the range is.
 */
export const ROWS_PER_WINDOW = 60_000;

/**
 * A range cut into windows, newest first, each the same query over fewer dates: their answers
 * one after the other are the answer of the whole range. `rowsPerDay` is how many rows a day
 * of the answer has at most (symbols times sources per symbol), which sizes the windows.
 * `held`, the first and last dates the requested sources hold, sizes them too: dates outside
 * it have no rows (no source observed on them), so they join the newest and the oldest window
 * instead of being windows of their own; a range from year 1 to 9999 is as many windows as the
 * dates held. `held` null: the sources hold nothing, and the range is one window without rows.
 *
 * A later window's first day is a key only when a source observed on it (`startIsKey` false),
 * as in the whole range. With an aggregation, windows begin on a period's first day, so that
 * no period is split; a period longer than a window (a decade, a century) is one window.
 */
export function rangeWindows(
  query: RateQuery,
  rowsPerDay: number,
  rowsPerWindow = ROWS_PER_WINDOW,
  held?: { first: string; last: string } | null,
): RateQuery[] {
  if (held === null) return [query];
  const days = daysPerWindow(rowsPerDay, rowsPerWindow);
  const { first, last } = heldPart(query.start, query.end, held);
  if (first > last || days > daysBetween(first, last)) return [query];
  const windows: RateQuery[] = [];
  let end = query.end;
  let newest = last;
  for (;;) {
    // The last window is found by counting days, before any date earlier than the range's first
    // is formed: near 0001-01-01 that date would be before the calendar's first year.
    let start = daysBetween(first, newest) < days ? query.start : addDays(newest, 1 - days);
    if (query.aggregation !== 'day') start = periodStartOf(query.aggregation, start);
    if (start <= query.start) {
      windows.push({ ...query, end });
      return windows;
    }
    windows.push({ ...query, start, end, startIsKey: false });
    end = newest = addDays(start, -1);
  }
}

/** How many days a window holds at most, with `rowsPerDay` rows a day (see rangeWindows). */
export function daysPerWindow(rowsPerDay: number, rowsPerWindow = ROWS_PER_WINDOW): number {
  return Math.max(1, Math.floor(rowsPerWindow / Math.max(1, rowsPerDay)));
}

/**
 * The dates from `start` to `end` that lie within `held` (the first and last dates the sources
 * hold; all of them without it): none when `first` comes after `last`.
 */
export function heldPart(
  start: string,
  end: string,
  held?: { first: string; last: string },
): { first: string; last: string } {
  return {
    first: held && held.first > start ? held.first : start,
    last: held && held.last < end ? held.last : end,
  };
}

/**
 * The first day of the period containing `date`, as the dialects compute it (CONTRACT §4):
 * ISO weeks from Monday; decades, centuries and millennia from years divisible by 10, 100, 1000.
 */
export function periodStartOf(unit: PeriodUnit, date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const yearText = (y: number): string => String(y).padStart(4, '0');
  switch (unit) {
    case 'week': {
      // 1970-01-01 was a Thursday: three days after a Monday.
      const days = Math.round(dateToEpochMs(date) / 86_400_000);
      const sinceMonday = (((days + 3) % 7) + 7) % 7;
      return addDays(date, -sinceMonday);
    }
    case 'month':
      return `${date.slice(0, 7)}-01`;
    case 'quarter':
      return `${date.slice(0, 5)}${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
    case 'year':
      return `${date.slice(0, 4)}-01-01`;
    case 'decade':
      return `${yearText(year - (year % 10))}-01-01`;
    case 'century':
      return `${yearText(year - (year % 100))}-01-01`;
    case 'millennium':
      return `${yearText(year - (year % 1000))}-01-01`;
  }
}
