import type { Aggregation } from './rate-query.js';

/** What differs between SQL engines in the rate query; each store driver supplies one. */
export interface SqlDialect {
  /** The first day of the `unit` period containing the DATE expression `date`, as a DATE. */
  periodStart(unit: Exclude<Aggregation, 'day'>, date: string): string;
  /** The value of `value` on the row with the smallest (`min`) or largest (`max`) `order`, per group. */
  valueAtExtreme(extreme: 'min' | 'max', value: string, order: string): string;
  /** A select-list expression that turns each row into one row per DATE from `from` to `to`. */
  daysFrom(from: string, to: string): string;
}

export const duckdbDialect: SqlDialect = {
  // DuckDB starts decades, centuries and millennia in years divisible by 10, 100 and 1000,
  // and ISO weeks on Monday: exactly CONTRACT §4.
  periodStart: (unit, date) => `CAST(date_trunc('${unit}', ${date}) AS DATE)`,
  valueAtExtreme: (extreme, value, order) =>
    extreme === 'min' ? `arg_min(${value}, ${order})` : `arg_max(${value}, ${order})`,
  daysFrom: (from, to) => `CAST(unnest(generate_series(${from}, ${to}, INTERVAL 1 DAY)) AS DATE)`,
};
