import type { SqlDialect } from '../store.js';

/** Years per period whose start PostgreSQL's own date_trunc puts elsewhere (century 21 starts in 2001). */
const YEARS: Partial<Record<string, number>> = { century: 100, millennium: 1000 };

export const postgresDialect: SqlDialect = {
  // ISO weeks start on Monday and decades in years divisible by 10, as CONTRACT §4 has them;
  // centuries and millennia are computed, since date_trunc starts them a year later.
  periodStart: (unit, date) => {
    const years = YEARS[unit];
    if (years === undefined) return `CAST(date_trunc('${unit}', ${date}) AS DATE)`;
    // Year 0 (the period of the years 1-99 or 1-999) is -1 to PostgreSQL, which has no year 0.
    const year = `CAST(floor(extract(year FROM ${date}) / ${years}) * ${years} AS INTEGER)`;
    return `make_date(CASE WHEN ${year} = 0 THEN -1 ELSE ${year} END, 1, 1)`;
  },
  valueAtExtreme: (extreme, value, order, where) =>
    `(array_agg(${value} ORDER BY ${order} ${extreme === 'min' ? 'ASC' : 'DESC'})${where === undefined ? '' : ` FILTER (WHERE ${where})`})[1]`,
  // The scan comes in time order (the index on observation_time), so a sort that starts with
  // the day has little to do, and DISTINCT ON keeps each group's first row in that order: its
  // earliest time, or with DESC its latest. (source, symbol, time) is unique. Grouping with an
  // aggregate that carries the rate took longer: the one-year ECB statement ran in 18.1 ms so
  // and in 15.7 ms this way, a four-year one in 78-81 ms and in 66-69 ms.
  extremeOfEachDay(extreme, where, observations) {
    return `SELECT DISTINCT ON (CAST(o.observation_time AS DATE), o.source, o.symbol)
      ${observations.priority} AS priority, o.symbol, CAST(o.observation_time AS DATE) AS day, o.rate, o.observation_time
    FROM ${observations.from}
    WHERE ${where}
    ORDER BY CAST(o.observation_time AS DATE), o.source, o.symbol, o.observation_time${extreme === 'min' ? '' : ' DESC'}`;
  },
  valueOfLatestDay: (extreme, value) =>
    `(array_agg(${value} ORDER BY ${
      extreme === 'max'
        ? 'o.observation_time DESC'
        : 'CAST(o.observation_time AS DATE) DESC, o.observation_time'
    }))[1]`,
  // Sorted in the answer's order, each group's first row kept: the answer's own sort then has
  // nothing to do. The 4 M set's one-year statement over four sources: 55.6 ms against 62.2
  // ranked with row_number().
  firstOfEachGroup(columns, from, groups, order) {
    return `SELECT DISTINCT ON (${groups.map((group) => group.expression).join(', ')})
      ${columns.map(([expression, name]) => `${expression} AS ${name}`).join(',\n      ')}
    FROM ${from}
    ORDER BY ${[...groups.map((g) => `${g.expression}${g.descending ? ' DESC' : ''}`), order].join(', ')}`;
  },
  oneOf: (column, values) => `${column} IN (${values})`,
  // A window partitioned by series, whose last row has no next: PostgreSQL computes it faster
  // than one sorted window comparing each row with the next (the ECB history's one-year
  // statement 21.8-22.1 ms against 22.4-22.8, a five-year one 116-120 against 121-124; the 1 M
  // set's one-year statement over four sources, with daysFrom below, 36.2-36.6 against 38.0-38.4).
  dayBeforeNextOfSeries: (series, otherwise) => ({
    expression: `coalesce(lead(day) OVER w - 1, ${otherwise})`,
    window: `PARTITION BY ${series.join(', ')} ORDER BY day`,
  }),
  item: (values, index) => `(ARRAY[${values}])[${index} + 1]`,
  // Days as the first one plus each whole number up to the last: faster than a series of
  // timestamps turned into dates (the ECB history's one-year statement 22.5-22.9 ms against
  // 23.2-23.9).
  daysFrom: (from, to) => `${from} + generate_series(0, ${to} - (${from}))`,
  one: 'CAST(1 AS DOUBLE PRECISION)',
  // PostgreSQL sorts slower than it aggregates, so the series-ends form pays from far fewer
  // rows than on DuckDB. Against the sort of every pair (the same rows): over the ECB history
  // 30 days took 1.03 of the time, 91 days 0.91, a year 0.84, two years 0.84; over the
  // generated 1 M set's four sources 1.02, 0.89, 0.80 and 0.77.
  manyPairsFrom: 1_200,
};
