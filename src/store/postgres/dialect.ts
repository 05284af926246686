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
  // A group's rows are unique in their time of day, which as seconds since midnight is exact in a
  // double (to far below a microsecond): the smallest or largest pair [seconds, rate] then
  // carries the rate of that time, with no sort per group as array_agg(... ORDER BY) needs.
  rateAtExtremeOfDay: (extreme, rate, time) =>
    `(${extreme}(ARRAY[date_part('epoch', ${time} - date_trunc('day', ${time})), ${rate}]))[2]`,
  oneOf: (column, values) => `${column} IN (${values})`,
  daysFrom: (from, to) =>
    `CAST(generate_series(CAST(${from} AS TIMESTAMP), CAST(${to} AS TIMESTAMP), INTERVAL '1 day') AS DATE)`,
  one: 'CAST(1 AS DOUBLE PRECISION)',
};
