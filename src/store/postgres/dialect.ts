import type { SqlDialect } from '../store.js';

/** Years per period whose start PostgreSQL's own date_trunc puts elsewhere (century 21 starts in 2001). */
const YEARS: Partial<Record<string, number>> = { century: 100, millennium: 1000 };

export const postgresDialect: SqlDialect = {
  // ISO weeks start on Monday and decades in years divisible by 10, as CONTRACT §4 has them;
  // centuries and millennia are computed, since date_trunc starts them a year later.
  periodStart: (unit, date) => {
    const years = YEARS[unit];
    if (years === undefined) return `CAST(date_trunc('${unit}', ${date}) AS DATE)`;
    return `make_date(CAST(floor(extract(year FROM ${date}) / ${years}) * ${years} AS INTEGER), 1, 1)`;
  },
  valueAtExtreme: (extreme, value, order) =>
    `(array_agg(${value} ORDER BY ${order} ${extreme === 'min' ? 'ASC' : 'DESC'}))[1]`,
  daysFrom: (from, to) =>
    `CAST(generate_series(CAST(${from} AS TIMESTAMP), CAST(${to} AS TIMESTAMP), INTERVAL '1 day') AS DATE)`,
  one: 'CAST(1 AS DOUBLE PRECISION)',
};
