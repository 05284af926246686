import type { SqlDialect } from '../store.js';

export const duckdbDialect: SqlDialect = {
  // DuckDB starts decades, centuries and millennia in years divisible by 10, 100 and 1000,
  // and ISO weeks on Monday: exactly CONTRACT §4.
  periodStart: (unit, date) => `CAST(date_trunc('${unit}', ${date}) AS DATE)`,
  valueAtExtreme: (extreme, value, order) => argExtreme(extreme, value, order),
  rateAtExtremeOfDay: (extreme, rate, time) => argExtreme(extreme, rate, time),
  daysFrom: (from, to) => `CAST(unnest(generate_series(${from}, ${to}, INTERVAL 1 DAY)) AS DATE)`,
  one: 'CAST(1 AS DOUBLE)',
};

function argExtreme(extreme: 'min' | 'max', value: string, order: string): string {
  return extreme === 'min' ? `arg_min(${value}, ${order})` : `arg_max(${value}, ${order})`;
}
