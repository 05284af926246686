import type { ObservationRows, SqlDialect } from '../store/store.js';
import type { RateQuery, SourceRef } from './rate-query.js';
import { addDays, looksLikeIsoDate } from '../dates.js';
import { dateLiteral, integerLiteral, stringList, stringLiteral } from './sql-literal.js';

/**
 * Above this `up_to_days_before`, the days before a range (or a date) are read as reachedLegs
 * says instead of day by day. Below it the extra steps cost more than they save. A one-year
 * range on DuckDB: 12-27% slower at 4-100 days, from 15% slower to 4% faster at 366; at
 * 700-730, 21-32% faster on DuckDB and 13% slower on PostgreSQL; at 1,500, 23-48% faster on
 * both. One date at 1,000 days: 11-28% faster on both.
 */
export const LONG_LOOK_BACK_DAYS = 1000;

/**
 * The one SQL statement behind every rate response (CONTRACT §3-§4). It returns the rows
 * `date, symbol, source, symbol_rate, base_rate, observation_time`, newest date first, then
 * symbol A-Z, then source priority. The rate is symbol_rate / base_rate: the SQL returns the two
 * legs as stored (the publishers' figures) and the writers divide exactly (CONTRACT §6), so no
 * double division ever touches a published digit. The text is self-contained (values inlined
 * as literals) so that `show_query` can print it and the query endpoint can run it again.
 *
 * How it works, per step:
 * - legs: each source's earliest (or latest) observation of each symbol per UTC day, the source
 *   named by its priority (its place in the request's order): the steps after the scan join,
 *   sort and group integers instead of texts, and the key is written once, in the last step;
 * - pairs: per source and day, the legs of symbol and base where both exist, the relative
 *   currency counting as the constant 1;
 * - for one date, each source's newest pair per symbol in the window is its candidate; for a
 *   range, spans let a pair stand for the days from its own up to `up_to_days_before` later,
 *   or until the source's next pair of that symbol, whichever is first; covered lists those
 *   days that are keys (the start date, then every later day on which a requested source
 *   observed): a pair's own day always is one, the days after it are kept when they are (a
 *   statement that pairs many rows sorts only the series that miss such a day: spansOfSeriesEnds);
 * - ranked: per key and symbol, the first `max_sources_per_symbol` sources in priority order
 *   (when that is one, each group's first row in the dialect's fastest form).
 * One date whose sources are all quoted in the base currency has no pairs to make: ranked reads
 * each source's latest day of each symbol from the observations directly. A look-back longer
 * than LONG_LOOK_BACK_DAYS reads only the days before the range that can reach into it.
 *
 * A long range is answered window by window, newest first, each window this statement over its
 * own dates (range-windows.ts), so that no answer is ever sorted or held whole.
 */
export function buildRatesSql(query: RateQuery, dialect: SqlDialect): string {
  const { base, symbols, sources } = query;
  const baseLiteral = stringLiteral(base);
  const sourceKeys = sourceKeyList(query);
  const wanted = symbols?.filter((symbol) => symbol !== base);
  const symbolFilter = (column: string): string =>
    wanted === undefined
      ? 'TRUE'
      : wanted.length > 0
        ? dialect.oneOf(column, stringList(wanted))
        : 'FALSE';
  // With every symbol wanted, TRUE: DuckDB computed the ECB history's one-year statement 4% faster
  // with this term than without it (a one date 1% slower).
  const legSymbolFilter =
    wanted === undefined ? 'TRUE' : dialect.oneOf('o.symbol', stringList([...wanted, base]));
  const extreme = query.selection === 'earliest' ? 'min' : 'max';
  const windowStart = midnight(query.start, -query.upToDaysBefore);
  const dayAfterEnd = midnight(query.end, 1);

  // The statement holds only what the sources need: a source quoted in the base currency pairs
  // each symbol with 1; any other divides by its base leg of the same day, and gives a row for
  // its own relative currency. (No source observes its relative currency: CONTRACT §1.)
  const direct = sources.filter((source) => source.relativeCurrency === base);
  const crossed = sources.filter((source) => source.relativeCurrency !== base);
  const relativeRows = crossed.filter(
    (source) => wanted === undefined || wanted.includes(source.relativeCurrency),
  );
  const oneDay = query.start === query.end && query.startIsKey;
  const pairs: string[] = [];
  let crossedPairs: CrossedPairs | undefined;
  if (crossed.length > 0) {
    // One join of the legs with the same day's base leg gives both the symbols' pairs and, from
    // the base leg paired with itself, the row of the source's relative currency (the legs hold
    // only the wanted symbols and the base already).
    const baseRowsWanted =
      relativeRows.length === crossed.length
        ? ''
        : relativeRows.length === 0
          ? `\n    WHERE l.symbol <> ${baseLiteral}`
          : `\n    WHERE (l.symbol <> ${baseLiteral} OR l.priority IN (${prioritiesOf(query, relativeRows)}))`;
    crossedPairs = {
      symbol: `CASE WHEN l.symbol = ${baseLiteral} THEN ${relativeCurrencyOf(query, crossed, 'l.priority')} ELSE l.symbol END`,
      symbolRate: `CASE WHEN l.symbol = ${baseLiteral} THEN ${dialect.one} ELSE l.rate END`,
      observationTime: 'greatest(l.observation_time, b.observation_time)',
      // (Of one source, every leg has its priority: the join leaves it out.)
      from: `legs AS l JOIN legs AS b ON ${prioritized(query) ? 'b.priority = l.priority AND ' : ''}b.day = l.day AND b.symbol = ${baseLiteral}${baseRowsWanted}`,
    };
    pairs.push(`SELECT l.priority, ${crossedPairs.symbol} AS symbol, l.day,
      ${crossedPairs.symbolRate} AS symbol_rate, b.rate AS base_rate,
      ${crossedPairs.observationTime} AS observation_time
    FROM ${crossedPairs.from}`);
  }
  if (direct.length > 0) {
    pairs.push(`SELECT l.priority, l.symbol, l.day, l.rate AS symbol_rate, ${dialect.one} AS base_rate, l.observation_time
    FROM legs AS l
    WHERE ${crossed.length > 0 ? `l.priority IN (${prioritiesOf(query, direct)}) AND ` : ''}l.symbol <> ${baseLiteral} AND ${symbolFilter('l.symbol')}`);
  }
  if (pairs.length === 0) {
    pairs.push(`SELECT l.priority, l.symbol, l.day, l.rate AS symbol_rate, l.rate AS base_rate, l.observation_time
    FROM legs AS l WHERE FALSE`);
  }

  const scanOf = (
    from: string,
    to: string,
    keys = sourceKeys,
  ): string => `${dialect.oneOf('o.source', keys)}
      AND o.observation_time >= ${from}
      AND o.observation_time < ${to}`;
  const scanFilter = scanOf(windowStart, dayAfterEnd);
  const reaching = sources.length > 0 && query.upToDaysBefore > LONG_LOOK_BACK_DAYS;
  const startTime = midnight(query.start, 0);
  const observed = oneDay && crossed.length === 0 && direct.length > 0;
  // One date with every source quoted in the base reads the observations, whose rows have a
  // source key; the other statements' rows carry their source's priority from the legs on.
  const keyed = keyedPriority(query);
  const priority = observed ? keyed : carriedPriority(query);
  // The legs' scans: each row with its source's priority.
  const legObservations = { from: keyed.from('observations', 'o'), priority: keyed.of('o') };
  const sourceKey = (column: string): string => sourceKeyOf(query, dialect, column);
  // One date with every candidate shown (no more sources than shown per symbol).
  const everyCandidateShown = oneDay && !ranks(query) && query.aggregation === 'day';
  // Of one source quoted in another currency than the base: its pairs are taken in that step
  // straight from the join that makes them.
  const crossedInStep =
    everyCandidateShown && !observed && sources.length === 1 ? crossedPairs : undefined;
  const ctes = [
    ...(keyed.joinsSrc
      ? [
          `src(key, priority) AS (VALUES ${sources
            .map((s, priority) => `(${stringLiteral(s.key)}, ${priority})`)
            .join(', ')})`,
        ]
      : []),
    // One date with every source quoted in the base currency needs no pairs.
    ...(observed
      ? []
      : [
          ...(reaching
            ? reachedLegs(
                dialect,
                extreme,
                legObservations,
                (keys, from, to) => `${scanOf(from, to, keys)}\n      AND ${legSymbolFilter}`,
                { from: windowStart, start: startTime, dayAfterEnd, oneDay },
                {
                  all: sourceKeys,
                  direct: direct.length > 0 ? stringList(direct.map((s) => s.key)) : undefined,
                  crossed: crossed.length > 0 ? stringList(crossed.map((s) => s.key)) : undefined,
                },
                baseLiteral,
              )
            : [
                `legs AS (
    ${legsOf(
      sources,
      dialect,
      extreme,
      legObservations,
      (keys) => `${scanOf(windowStart, dayAfterEnd, keys)}\n      AND ${legSymbolFilter}`,
    )}
  )`,
              ]),
          // One date over sources quoted in the base and in other currencies aggregates the
          // union of both kinds of pairs. Computed once into a step of its own (MATERIALIZED,
          // which both engines take), the 4 M set's one date in USD (one source quoted in it,
          // three crossed) took 5.42 and 6.33 ms on DuckDB against 5.86 and 6.90 inline, and
          // 1.28 against 1.32 ms on PostgreSQL. Ranges, and a single kind, are faster inline.
          ...(crossedInStep
            ? []
            : [
                `pairs AS ${oneDay && pairs.length > 1 ? 'MATERIALIZED ' : ''}(
    ${pairs.join('\n    UNION ALL\n    ')}
  )`,
              ]),
          ...(oneDay ? [] : latestPairsOfEachKey(query, dialect, priority)),
        ]),
  ];

  // One date: the step that takes each source's candidate for each symbol.
  const oneDayStep = observed
    ? latestObservationOfOneDay(
        query,
        dialect,
        priority,
        extreme,
        // Wanted symbols leave the base out already. The base is left out with the dialect's
        // list test, not `<>`, which DuckDB pushes into its scan: the scan then took 0.73 ms
        // for 99 rows instead of 0.11, and the ECB one-date statement in EUR 2.17 ms, 1.64 now.
        `${scanFilter}\n      AND ${wanted === undefined ? `NOT ${dialect.oneOf('o.symbol', baseLiteral)}` : symbolFilter('o.symbol')}`,
        everyCandidateShown,
      )
    : crossedInStep
      ? latestCrossedPairOfOneDay(query, dialect, crossedInStep, sourceKey)
      : oneDay
        ? latestPairOfOneDay(query, dialect, priority, everyCandidateShown, sourceKey)
        : undefined;
  // Terms that are constant (one date; the symbol when at most one is wanted; the priority of
  // one source, or of the one source shown per symbol) are left out of the order, and with them
  // all, the sort: a one-date statement for one symbol on DuckDB took 7-9% less time without it
  // (ECB history, in EUR and in JPY).
  const orderBy = (symbol: string, priorityOf: string): string => {
    const order = [
      ...(query.start === query.end ? [] : ['r.date DESC']),
      ...(wanted !== undefined && wanted.length <= 1 ? [] : [symbol]),
      ...(prioritized(query) && query.maxSourcesPerSymbol > 1 ? [priorityOf] : []),
    ];
    return order.length > 0 ? `\nORDER BY ${order.join(', ')}` : '';
  };
  if (oneDayStep !== undefined && everyCandidateShown) {
    // Every candidate is shown: the step is the statement. On DuckDB, a one date in JPY over the
    // ECB history took 4% less engine time so than as a step read by the statement.
    const alias = observed ? 'o' : crossedInStep ? 'l' : 'p';
    const statement = oneDayStep.replaceAll('\n    ', '\n');
    const order = orderBy(crossedInStep?.symbol ?? `${alias}.symbol`, priority.of(alias));
    return `${ctes.length > 0 ? `WITH ${ctes.join(',\n  ')}\n` : ''}${statement}${order}`;
  }
  if (oneDayStep !== undefined) ctes.push(`ranked AS (\n    ${oneDayStep}\n  )`);

  // With no more sources than may be shown per symbol, every candidate is shown: no ranking.
  // (A range showing one source per symbol took the first already.)
  const shown =
    ranks(query) && (oneDay || !firstSourceOnly(query))
      ? `(SELECT * FROM ranked WHERE rank <= ${integerLiteral(query.maxSourcesPerSymbol)})`
      : undefined;
  let rows = shown ?? 'ranked';
  if (query.aggregation !== 'day') {
    // Each period shows, per symbol, the entries of its first (earliest) or last (latest) key
    // that has that symbol, under the period's first day (CONTRACT §4).
    ctes.push(
      `daily AS ${shown ?? '(SELECT * FROM ranked)'}`,
      `picked AS (
    SELECT ${dialect.periodStart(query.aggregation, 'date')} AS period, symbol, ${extreme}(date) AS date
    FROM daily GROUP BY 1, symbol
  )`,
    );
    rows = `(SELECT p.period AS date, d.symbol, d.symbol_rate, d.base_rate, d.observation_time, d.priority
    FROM daily AS d JOIN picked AS p ON p.symbol = d.symbol AND p.date = d.date)`;
  }

  return `WITH ${ctes.join(',\n  ')}
SELECT r.date, r.symbol, ${sourceKey('r.priority')} AS source, r.symbol_rate, r.base_rate, r.observation_time
FROM ${rows} AS r${orderBy('r.symbol', 'r.priority')}`;
}

/**
 * The start of the day `days` after `date`, as a TIMESTAMP: a literal within years 1-9999 (DuckDB
 * plans a one-date statement 2-3% faster than with the expression it folds), else computed in
 * SQL, whose date range is wider.
 */
function midnight(date: string, days: number): string {
  const day = addDays(date, days);
  if (looksLikeIsoDate(day) && day >= '0001-01-01') return `TIMESTAMP '${day} 00:00:00'`;
  const shift = days === 0 ? '' : ` ${days < 0 ? '-' : '+'} ${integerLiteral(Math.abs(days))}`;
  return `CAST(${dateLiteral(date)}${shift} AS TIMESTAMP)`;
}

/**
 * The legs: each source's observation of each symbol and day, the day's first or last
 * (`extreme`), from the observations `scan` (of the source keys given) finds. A source that never
 * observed a symbol twice on one day (SourceRef.oneObservationPerDay) is read as it is stored,
 * without the step per day: on DuckDB (bench:statements, the same rows) a one date in JPY took 8%
 * less engine time so, a one-year range 8-10% less, `/all` 10% less, over the ECB history and
 * over four sources of the generated 1 M set. A write that gives such a source a second
 * observation of a day after the catalog was read is caught by the store (Store.sharedDaysSince)
 * and the rates route, which then runs the statement with the step instead.
 */
function legsOf(
  sources: readonly SourceRef[],
  dialect: SqlDialect,
  extreme: 'min' | 'max',
  observations: ObservationRows,
  scan: (keys: string) => string,
): string {
  const keysOf = (some: readonly SourceRef[]): string => stringList(some.map((s) => s.key));
  const once = sources.filter((source) => source.oneObservationPerDay);
  const more = sources.filter((source) => !source.oneObservationPerDay);
  const legs: string[] = [];
  if (once.length > 0) {
    legs.push(`SELECT ${observations.priority} AS priority, o.symbol, CAST(o.observation_time AS DATE) AS day, o.rate, o.observation_time
    FROM ${observations.from}
    WHERE ${scan(keysOf(once))}`);
  }
  // With no source at all, the step per day over none (NULL matches no key).
  if (more.length > 0 || once.length === 0)
    legs.push(
      dialect.extremeOfEachDay(
        extreme,
        scan(more.length > 0 ? keysOf(more) : 'NULL'),
        observations,
      ),
    );
  return legs.join('\n    UNION ALL\n    ');
}

/**
 * The legs when the look-back is long: of the days before the range (or, for one date, of the
 * whole window), only a series' newest pair can reach into the range, so only the days on which
 * some series has its newest pair are read day by day. `reach` finds each series' newest such
 * day in aggregates over few groups: the newest day its symbol was observed on, by a crossed
 * source only on a day it observed the base too. The legs of those days, of every source and
 * symbol (the bases' among them), make those pairs; the older pairs of other series they make
 * too end before the range and drop out there as any older pair does. So each window of a long
 * range reads the days before it in three scans without a step per day, instead of sorting every
 * pair since `up_to_days_before` before it.
 */
function reachedLegs(
  dialect: SqlDialect,
  extreme: 'min' | 'max',
  observations: ObservationRows,
  scan: (keys: string, from: string, to: string) => string,
  bounds: { from: string; start: string; dayAfterEnd: string; oneDay: boolean },
  keys: { all: string; direct: string | undefined; crossed: string | undefined },
  base: string,
): string[] {
  const day = 'CAST(o.observation_time AS DATE)';
  const before = (sourceKeys: string): string =>
    scan(sourceKeys, bounds.from, bounds.oneDay ? bounds.dayAfterEnd : bounds.start);
  const newest = (
    sourceKeys: string,
    join: string,
  ): string => `SELECT o.source, o.symbol, max(${day}) AS day
    FROM observations AS o${join}
    WHERE ${before(sourceKeys)}
    GROUP BY o.source, o.symbol`;
  const reach = [
    ...(keys.crossed === undefined
      ? []
      : [
          newest(
            keys.crossed,
            `
    JOIN (SELECT DISTINCT o.source, ${day} AS day FROM observations AS o
      WHERE ${before(keys.crossed)} AND o.symbol = ${base}) AS b
      ON b.source = o.source AND b.day = ${day}`,
          ),
        ]),
    ...(keys.direct === undefined ? [] : [newest(keys.direct, '')]),
  ];
  const reached = dialect.extremeOfEachDay(
    extreme,
    `${before(keys.all)}
      AND ${day} IN (SELECT day FROM reach)`,
    observations,
  );
  return [
    `reach AS (
    ${reach.join('\n    UNION ALL\n    ')}
  )`,
    `legs AS (
    ${
      bounds.oneDay
        ? reached
        : `SELECT * FROM (${dialect.extremeOfEachDay(extreme, scan(keys.all, bounds.start, bounds.dayAfterEnd), observations)}) AS since_start
    UNION ALL
    SELECT * FROM (${reached}) AS reached`
    }
  )`,
  ];
}

/**
 * One date: every pair lies in the window already, so each source's newest pair per symbol is
 * the candidate. The same result as the general form below, with less work. The SELECT of the
 * step (see oneDayStep).
 */
function latestPairOfOneDay(
  query: RateQuery,
  dialect: SqlDialect,
  priority: SourcePriority,
  whole: boolean,
  sourceKey: (column: string) => string,
): string {
  return `SELECT ${dateLiteral(query.start)} AS date, p.symbol,${whole ? ` ${sourceKey('p.priority')} AS source,` : ''}
      ${dialect.valueAtExtreme('max', 'p.symbol_rate', 'p.day')} AS symbol_rate,
      ${dialect.valueAtExtreme('max', 'p.base_rate', 'p.day')} AS base_rate,
      ${dialect.valueAtExtreme('max', 'p.observation_time', 'p.day')} AS observation_time${whole ? '' : `, ${rankColumns(query, priority, 'p', ['p.symbol'])}`}
    FROM ${priority.from('pairs', 'p')}
    GROUP BY p.symbol, p.priority`;
}

/** The terms of the pairs of the sources quoted in another currency than the base. */
interface CrossedPairs {
  symbol: string;
  symbolRate: string;
  observationTime: string;
  /** The join of the legs with their day's base leg (`l` and `b`), and which of its rows count. */
  from: string;
}

/**
 * One date, one source quoted in another currency than the base, every candidate shown: the
 * newest pair per symbol, aggregated from the join that pairs the legs (see latestPairOfOneDay).
 * On DuckDB, a one date in JPY over the ECB history took 3% less engine time so than over a step
 * of pairs. Grouped by the leg's own symbol, which names the pair's symbol alone (the base leg
 * stands for the source's relative currency, which the source never observes: CONTRACT §1):
 * 3-5% less engine time again than grouped by the pair's symbol, an expression. (The step serves
 * one source.)
 */
function latestCrossedPairOfOneDay(
  query: RateQuery,
  dialect: SqlDialect,
  pairs: CrossedPairs,
  sourceKey: (column: string) => string,
): string {
  const newest = (value: string): string => dialect.valueAtExtreme('max', value, 'l.day');
  return `SELECT ${dateLiteral(query.start)} AS date, ${pairs.symbol} AS symbol, ${sourceKey('l.priority')} AS source,
      ${newest(pairs.symbolRate)} AS symbol_rate,
      ${newest('b.rate')} AS base_rate,
      ${newest(pairs.observationTime)} AS observation_time
    FROM ${pairs.from}
    GROUP BY l.symbol`;
}

/**
 * One date, every source quoted in the base currency: a pair is one observation, so each
 * source's candidate for a symbol is its observation of the latest day in the window (that day's
 * first or last), read from the observations in one aggregate. The same result as the paired
 * form without its per-day step: 15% less engine time for a one-date ECB answer in EUR on
 * DuckDB, 7-11% less time for the whole answer. The SELECT of the step (see oneDayStep).
 */
function latestObservationOfOneDay(
  query: RateQuery,
  dialect: SqlDialect,
  priority: SourcePriority,
  extreme: 'min' | 'max',
  where: string,
  whole: boolean,
): string {
  return `SELECT ${dateLiteral(query.start)} AS date, o.symbol, o.source,
      ${dialect.valueOfLatestDay(extreme, 'o.rate')} AS symbol_rate, ${dialect.one} AS base_rate,
      ${dialect.valueOfLatestDay(extreme, 'o.observation_time')} AS observation_time${whole ? '' : `, ${rankColumns(query, priority, 'o', ['o.symbol'])}`}
    FROM ${priority.from('observations', 'o')}
    WHERE ${where}
    GROUP BY o.symbol, o.source${prioritized(query) ? `, ${priority.of('o')}` : ''}`;
}

/**
 * A candidate's priority and its rank among those of its `group` (a symbol, or a symbol and a
 * day), as the `ranked` step has them.
 */
function rankColumns(
  query: RateQuery,
  priority: SourcePriority,
  alias: string,
  group: readonly string[],
): string {
  return `${priority.of(alias)} AS priority,
      ${ranks(query) ? `row_number() OVER (PARTITION BY ${group.join(', ')} ORDER BY ${priority.of(alias)})` : '1'} AS rank`;
}

/** Ranges: each pair stands for the days it covers, of which the keys are kept. */
function latestPairsOfEachKey(
  query: RateQuery,
  dialect: SqlDialect,
  priority: SourcePriority,
): string[] {
  const window = integerLiteral(query.upToDaysBefore);
  const sourceKeys = sourceKeyList(query);
  // A series is one source's pairs of one symbol. One source is the same on every row: the
  // window leaves it out (PostgreSQL's sort compares every term, constant or not).
  const series = prioritized(query) ? ['priority', 'symbol'] : ['symbol'];
  const next = dialect.dayBeforeNextOfSeries(series, `day + ${window}`);
  const sortedSpans = (
    where: string,
  ): string => `SELECT priority, symbol, day, symbol_rate, base_rate, observation_time,
      least(day + ${window}, ${dateLiteral(query.end)},
        ${next.expression}) AS last_day
    FROM pairs${where}
    WINDOW w AS (${next.window})`;
  if (query.manyPairs === true && query.symbols === null)
    return [
      ...spansOfSeriesEnds(query, dialect, series, sortedSpans),
      ...coveredKeys(query, dialect, priority),
    ];
  return [
    `spans AS (
    ${sortedSpans('')}
  )`,
    keysStep(
      query,
      // With every symbol wanted, the legs hold every day a requested source observed on.
      query.symbols === null
        ? `SELECT DISTINCT day FROM legs
    WHERE day ${laterThanStart(query)}`
        : `SELECT DISTINCT CAST(o.observation_time AS DATE)${query.startIsKey ? '' : ' AS day'}
    FROM observations AS o
    WHERE ${dialect.oneOf('o.source', sourceKeys)}
      AND o.observation_time >= ${midnight(query.start, query.startIsKey ? 1 : 0)}
      AND o.observation_time < ${midnight(query.end, 1)}`,
    ),
    ...coveredKeys(query, dialect, priority),
  ];
}

/**
 * spans and keys of a statement that pairs many rows (RateQuery.manyPairs), every symbol wanted.
 * Most series (a source's pairs of one symbol) have a pair on every day a requested source
 * observed on, from their first pair to the last such day: such a series' pairs cover no key but
 * their own, except its newest pair before the start date (the start, when it is a key and no
 * source observed on it). One aggregate per series gives that pair and, with its count of pairs,
 * tells whether the series is one of them; only the others' pairs are sorted, as every pair is
 * otherwise. The days on which a requested source observed are listed once, numbered, for that
 * count and as the keys.
 *
 * On DuckDB, a statement over three years of the ECB history in USD took 0.85 of the time so,
 * two years 0.97 and one year 1.12 times as long (the steps cost more than the sort they spare
 * there); PostgreSQL, which sorts slower, took 0.84 over one year and 0.91 over three months:
 * see manyPairsFrom in the dialects. Whole histories and their windows: see bench/.
 */
function spansOfSeriesEnds(
  query: RateQuery,
  dialect: SqlDialect,
  series: readonly string[],
  sortedSpans: (where: string) => string,
): string[] {
  const window = integerLiteral(query.upToDaysBefore);
  const start = dateLiteral(query.start);
  const before = `day < ${start}`;
  const newestBefore = (value: string): string =>
    dialect.valueAtExtreme('max', value, 'day', before);
  const seriesList = series.length === 1 ? series[0]! : `(${series.join(', ')})`;
  // A later window's start is a key only when a source observed on it: the newest pair before
  // it then covers no key (0.83-0.86 of the time of a window of six years without its columns).
  const startCovered = query.startIsKey;
  return [
    `days AS (
    SELECT day, row_number() OVER w AS number, lead(day) OVER w AS next_day
    FROM (SELECT DISTINCT day FROM legs) AS observed
    WINDOW w AS (ORDER BY day)
  )`,
    // Regular: a pair on every day from the series' first to the last day of all (whose next
    // day is none); the last pair then covers no key after its own day.
    `series AS (
    SELECT ends.*, ends.pairs = l.number - f.number + 1 AND l.next_day IS NULL AS regular${startCovered ? ', b.next_day AS next_after_before' : ''}
    FROM (
      SELECT priority, symbol, count(*) AS pairs, min(day) AS first_day, max(day) AS last_day${
        startCovered
          ? `,
        max(CASE WHEN ${before} THEN day END) AS before_day,
        ${newestBefore('symbol_rate')} AS before_symbol_rate, ${newestBefore('base_rate')} AS before_base_rate,
        ${newestBefore('observation_time')} AS before_observation_time`
          : ''
      }
      FROM pairs
      GROUP BY priority, symbol
    ) AS ends
    JOIN days AS f ON f.day = ends.first_day
    JOIN days AS l ON l.day = ends.last_day${
      startCovered
        ? `
    LEFT JOIN days AS b ON b.day = ends.before_day`
        : ''
    }
  )`,
    `spans AS (
    ${sortedSpans(`
    WHERE ${seriesList} IN (SELECT ${series.join(', ')} FROM series WHERE NOT regular)`)}${
      startCovered
        ? `
    UNION ALL
    SELECT priority, symbol, before_day AS day, before_symbol_rate, before_base_rate, before_observation_time,
      least(before_day + ${window}, ${dateLiteral(query.end)}, next_after_before - 1)
    FROM series
    WHERE regular AND before_day IS NOT NULL`
        : ''
    }
  )`,
    keysStep(
      query,
      `SELECT day FROM days
    WHERE day ${laterThanStart(query)}`,
    ),
  ];
}

/**
 * The keys: the start date when it is one (RateQuery.startIsKey), then `laterDays`, a SELECT of
 * the later days on which a requested source observed. The two are disjoint: UNION ALL, no step
 * to remove duplicates (one hash aggregate less, about a tenth of a one-year statement on DuckDB).
 */
function keysStep(query: RateQuery, laterDays: string): string {
  const start = query.startIsKey
    ? `
    SELECT ${dateLiteral(query.start)} AS day
    UNION ALL`
    : '';
  return `keys AS (${start}
    ${laterDays}
  )`;
}

/** The comparison that takes the days after the start, and the start when it is no key. */
function laterThanStart(query: RateQuery): string {
  return `${query.startIsKey ? '>' : '>='} ${dateLiteral(query.start)}`;
}

/**
 * The steps after spans and keys: covered, each pair on its own day and on the keys after it
 * that its span reaches; ranked, the candidates of each key and symbol.
 */
function coveredKeys(query: RateQuery, dialect: SqlDialect, priority: SourcePriority): string[] {
  // Every covered day is a key (see covered below): ranked reads them all.
  const fromCovered = priority.from('covered', 's');
  return [
    // A pair's own day is a key (a requested source observed on it), so only the days after it
    // are looked up in the keys: most pairs cover no other key (a Friday's pair covers the
    // weekend), and the engines list and test far fewer days. DuckDB computes the ECB history's
    // one-year statement 7% faster so, a five-year window 12-18% (33.0-33.8 ms, now 27.6-29.9),
    // the 1 M set's over four sources 4-10%; PostgreSQL 1-3% for a year, the same for five.
    `covered AS (
    SELECT priority, symbol, symbol_rate, base_rate, observation_time, day
    FROM pairs
    WHERE day >= ${dateLiteral(query.start)}
    UNION ALL
    SELECT * FROM (
      SELECT priority, symbol, symbol_rate, base_rate, observation_time,
        ${dialect.daysFrom(`greatest(day + 1, ${dateLiteral(query.start)})`, 'last_day')} AS day
      FROM spans
      WHERE last_day > day AND last_day >= ${dateLiteral(query.start)}
    ) AS later
    WHERE later.day IN (SELECT day FROM keys)
  )`,
    `ranked AS (
    ${
      firstSourceOnly(query)
        ? dialect.firstOfEachGroup(
            [
              ['s.day', 'date'],
              ...['symbol', 'symbol_rate', 'base_rate', 'observation_time'].map(
                (column) => [`s.${column}`, column] as const,
              ),
              [priority.of('s'), 'priority'],
            ],
            fromCovered,
            [{ expression: 's.day', descending: true }, { expression: 's.symbol' }],
            priority.of('s'),
          )
        : `SELECT s.day AS date, s.symbol, s.symbol_rate, s.base_rate, s.observation_time, ${rankColumns(query, priority, 's', ['s.day', 's.symbol'])}
    FROM ${fromCovered}`
    }
  )`,
  ];
}

/**
 * One source shown per symbol, of several: a range takes each key's and symbol's candidate of
 * the first source in priority order in one step instead of ranking them (no rank column).
 */
function firstSourceOnly(query: RateQuery): boolean {
  return ranks(query) && query.maxSourcesPerSymbol === 1;
}

/** The relative currency of the source whose priority is in `column`, one of `sources`. */
function relativeCurrencyOf(
  query: RateQuery,
  sources: readonly SourceRef[],
  column: string,
): string {
  const currencies = new Set(sources.map((source) => source.relativeCurrency));
  if (currencies.size === 1) return stringLiteral(sources[0]!.relativeCurrency);
  const cases = sources.map(
    (source) =>
      `WHEN ${query.sources.indexOf(source)} THEN ${stringLiteral(source.relativeCurrency)}`,
  );
  return `CASE ${column} ${cases.join(' ')} END`;
}

/** The priorities of `some` of the query's sources, for an IN list. */
function prioritiesOf(query: RateQuery, some: readonly SourceRef[]): string {
  return some.map((source) => query.sources.indexOf(source)).join(', ');
}

/** The priority of rows that carry it from the legs ('0' with one source). */
function carriedPriority(query: RateQuery): SourcePriority {
  return {
    joinsSrc: false,
    from: (table, alias) => `${table} AS ${alias}`,
    of: (alias) => (prioritized(query) ? `${alias}.priority` : '0'),
  };
}

/** The key of the source whose priority is in `column`. */
function sourceKeyOf(query: RateQuery, dialect: SqlDialect, column: string): string {
  const { sources } = query;
  if (sources.length === 0) return 'CAST(NULL AS VARCHAR)';
  if (sources.length === 1) return stringLiteral(sources[0]!.key);
  return dialect.item(stringList(sources.map((source) => source.key)), column);
}

/** A CASE giving, for the source key in `column`, `valueOf` that source (one of `sources`). */
function caseOfSource(
  column: string,
  sources: readonly SourceRef[],
  valueOf: (source: SourceRef, index: number) => string,
): string {
  const cases = sources.map(
    (source, index) => `WHEN ${stringLiteral(source.key)} THEN ${valueOf(source, index)}`,
  );
  return `CASE ${column} ${cases.join(' ')} END`;
}

/** Whether the statement has several sources, whose priorities then order its candidates. */
function prioritized(query: RateQuery): boolean {
  return query.sources.length > 1;
}

/**
 * Up to this many sources, each row's priority is computed from its source key (a CASE); past
 * it, the rows are joined with `src`, the table of the keys and their priorities. Measured on
 * DuckDB over the generated 4 M set when the step that ranks the rows computed it (the legs do
 * now), the same rows either way: a window of `/all` over 4 sources took 4-9% less time with the
 * CASE, over 20 (the requested ones last) 7% less, over 88 5-7% more; a one date in JPY over 4
 * sources 4-6% less, over 20 the same, over 88 20% more. On PostgreSQL over the generated 1 M set
 * and 4 sources, a one date in JPY took 17-27% less time, ranges the same or less; its whole
 * history by month, computed in the legs, 4% less than joined there with `src`.
 */
const MOST_SOURCES_INLINE = 20;

/**
 * How a step reads each row's source priority: `from(table, alias)` is its FROM over `table`,
 * `of(alias)` the priority of a row of it ('0' with one source). `joinsSrc`: the statement needs
 * the `src` table of the keys and priorities.
 */
interface SourcePriority {
  joinsSrc: boolean;
  from(table: string, alias: string): string;
  of(alias: string): string;
}

/**
 * The priority of rows that have their source's key (the observations): a CASE over the key up
 * to MOST_SOURCES_INLINE sources, past it from the `src` table joined.
 */
function keyedPriority(query: RateQuery): SourcePriority {
  // One source: '0', as carried.
  if (!prioritized(query)) return carriedPriority(query);
  if (query.sources.length > MOST_SOURCES_INLINE) {
    return {
      joinsSrc: true,
      from: (table, alias) => `${table} AS ${alias}\n    JOIN src ON src.key = ${alias}.source`,
      of: () => 'src.priority',
    };
  }
  return {
    joinsSrc: false,
    from: (table, alias) => `${table} AS ${alias}`,
    of: (alias) => caseOfSource(`${alias}.source`, query.sources, (_, index) => String(index)),
  };
}

/** Whether some symbol can have more candidates than `max_sources_per_symbol` shows. */
function ranks(query: RateQuery): boolean {
  return query.sources.length > query.maxSourcesPerSymbol;
}

/** The requested source keys for an IN list; NULL matches nothing when none are left. */
function sourceKeyList(query: RateQuery): string {
  return query.sources.length > 0 ? stringList(query.sources.map((s) => s.key)) : 'NULL';
}
