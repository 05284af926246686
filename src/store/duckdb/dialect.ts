import type { SqlDialect } from '../store.js';

/**
 * The key a range's window sorts each series by: a series is a source's priority (an integer,
 * sorted as it is) and a symbol, whose 64-bit hash stands for its text. Sorted by one integer and
 * the day instead of the texts and the day, the statements took, against the same statements
 * sorted by the texts (bench:statements, two runs): on the ECB history a one-year range 0.88-0.93
 * of the time, five years 0.90-0.95, `/all` 0.90-0.95 and by month 0.93-0.95; on the generated
 * 1 M set over four sources a one-year range 0.97-0.98, five years 0.97-1.02, by month 0.93-0.94,
 * `/all` 0.94-1.02. The same rows every time. Two symbols of one source with the same hash would
 * interleave: the statement then fails (see dayBeforeNextOfSeries) rather than answer wrong, and
 * the store uses the dialect that sorts by the texts whenever two symbols it holds share a hash
 * (seriesKeysCollide).
 */
export const seriesHash: SeriesKey = (symbol) => `hash(${symbol})`;

/** An SQL expression over a series' symbol that a range's window sorts the series by. */
export type SeriesKey = (symbol: string) => string;

/**
 * The DuckDB dialect whose range windows sort series by their priority and `seriesKey` of their
 * symbol, or, with none, by the symbol itself.
 */
export function duckdbDialectOf(seriesKey?: SeriesKey): SqlDialect {
  return { ...duckdbBase, dayBeforeNextOfSeries: nextOfSeries(seriesKey) };
}

/**
 * The next day of a series, from one window sorted by series and day, the next row compared
 * with each: a window partitioned by series took 16% longer for the ECB history's one-year
 * statement (11.1-11.2 ms, 9.6). Sorted by a key of the symbol, a row whose next row is of
 * another symbol of the same source with the same key stops the statement: such rows are not in
 * series order.
 */
function nextOfSeries(seriesKey: SeriesKey | undefined): SqlDialect['dayBeforeNextOfSeries'] {
  return (series, otherwise) => {
    const next = series.map((column) => `lead(${column}) OVER w`);
    const same = (count: number): string[] =>
      series.slice(0, count).map((column, index) => `${next[index]} = ${column}`);
    const symbol = series.at(-1)!;
    const nextSymbol = next.at(-1)!;
    const collision =
      seriesKey === undefined
        ? ''
        : `
          WHEN ${[...same(series.length - 1), `${seriesKey(nextSymbol)} = ${seriesKey(symbol)}`].join(' AND ')}
          THEN error('two series share a sort key: ' || ${symbol} || ', ' || ${nextSymbol})`;
    return {
      expression: `CASE WHEN ${same(series.length).join(' AND ')}
          THEN lead(day) OVER w - 1${collision}
          ELSE ${otherwise} END`,
      window: `ORDER BY ${[...series.slice(0, -1), seriesKey === undefined ? symbol : seriesKey(symbol)].join(', ')}, day`,
    };
  };
}

/**
 * Whether two of the symbols a statement can meet share a sort key: a symbol some source holds,
 * or a source's relative currency (a crossed pair's row). A scalar subquery over `held`, the
 * distinct (source, symbol) of the observations, and the sources.
 */
export function seriesKeysCollide(held: string, seriesKey: SeriesKey = seriesHash): string {
  return `SELECT count(DISTINCT ${seriesKey('symbol')}) < count(*)
      FROM (SELECT symbol FROM ${held}
        UNION SELECT relative_currency FROM sources) AS series`;
}

const duckdbBase: Omit<SqlDialect, 'dayBeforeNextOfSeries'> = {
  // DuckDB starts decades, centuries and millennia in years divisible by 10, 100 and 1000,
  // and ISO weeks on Monday: exactly CONTRACT §4.
  periodStart: (unit, date) => `CAST(date_trunc('${unit}', ${date}) AS DATE)`,
  valueAtExtreme: (extreme, value, order, where) =>
    `${argExtreme(extreme, value, order)}${where === undefined ? '' : ` FILTER (WHERE ${where})`}`,
  // One hash aggregate: arg_min and arg_max carry the rate of the group's first or last time.
  // Grouped by the priority, which stands for the source within the statement.
  extremeOfEachDay(extreme, where, observations) {
    return `SELECT ${observations.priority} AS priority, o.symbol, CAST(o.observation_time AS DATE) AS day,
      ${argExtreme(extreme, 'o.rate', 'o.observation_time')} AS rate,
      ${extreme}(o.observation_time) AS observation_time
    FROM ${observations.from}
    WHERE ${where}
    GROUP BY ALL`;
  },
  // The latest time is on the latest day; the first time of the latest day is the largest
  // (day, -time).
  valueOfLatestDay: (extreme, value) =>
    extreme === 'max'
      ? `arg_max(${value}, o.observation_time)`
      : `arg_max(${value}, struct_pack(day := CAST(o.observation_time AS DATE), before := -epoch_us(o.observation_time)))`,
  // Not `column IN (values)`: DuckDB turns an IN of one value into an equality, which its scan
  // filters with differently. A one-date statement for one source took 2.2 ms so (most of the
  // difference in the scan's filtering) and takes 1.7 ms as list_contains; with more values, and
  // in ranges, the two forms take the same time.
  oneOf: (column, values) => `list_contains(list_value(${values}), ${column})`,
  // One hash aggregate taking each column at the smallest order: faster than ranking the rows
  // (which DuckDB turns into one aggregate of a struct of every column). The 4 M set's one-year
  // statement over four sources: 13.3 ms against 14.3.
  firstOfEachGroup(columns, from, groups, order) {
    const grouped = new Set(groups.map((group) => group.expression));
    const select = columns.map(([expression, name]) =>
      grouped.has(expression)
        ? `${expression} AS ${name}`
        : expression === order
          ? `min(${expression}) AS ${name}`
          : `arg_min_null(${expression}, ${order}) AS ${name}`,
    );
    return `SELECT ${select.join(',\n      ')}
    FROM ${from}
    GROUP BY ${[...grouped].join(', ')}`;
  },
  item: (values, index) => `list_value(${values})[${index} + 1]`,
  // A series of whole days, not of integers added to a DATE: the ECB history's one-year
  // statement took 10.1-10.7 ms with integers, 9.4-10.1 so.
  daysFrom: (from, to) => `CAST(unnest(generate_series(${from}, ${to}, INTERVAL 1 DAY)) AS DATE)`,
  one: 'CAST(1 AS DOUBLE)',
  // Against the sort of every pair (bench/, the same rows): over the ECB history (about 22
  // observations a day) one year took 1.12 of the time, two years 0.97; over the generated 1 M
  // set's four sources (about 29 a day) one year 1.06, two years 0.93.
  manyPairsFrom: 16_000,
};

/** The dialect the store uses: range windows sort series by their hash. */
export const duckdbDialect = duckdbDialectOf(seriesHash);

/** The dialect for a store holding two series that share a hash: windows sort by the texts. */
export const duckdbDialectByText = duckdbDialectOf();

function argExtreme(extreme: 'min' | 'max', value: string, order: string): string {
  return extreme === 'min' ? `arg_min(${value}, ${order})` : `arg_max(${value}, ${order})`;
}
