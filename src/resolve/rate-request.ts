import { formatDecimal } from '../exact-decimal.js';
import { addDays, daysBetween, isCalendarDate, looksLikeIsoDate } from '../dates.js';
import { badRequest, notFound } from '../errors.js';
import { parseRateParams, type RateEndpoint, type RateParams } from '../params/rate-params.js';
import { findSource } from '../sources/registry.js';
import type { Catalog } from '../store/store.js';
import type { RateHead, RateWriterOptions } from '../format/rate-writers.js';
import type { SqlDialect } from '../store/store.js';
import type { RateQuery } from './rate-query.js';
import { buildRatesSql } from './rates-sql.js';
import { daysPerWindow, heldPart, rangeWindows } from './range-windows.js';
import { problemsText } from '../params/problems.js';

/** What the path of a rate request named: the endpoint and its raw date segments. */
export type RatePath =
  | { endpoint: 'latest' }
  | { endpoint: 'all' }
  | { endpoint: 'date'; date: string }
  | { endpoint: 'range'; start: string; end: string };

export interface RatePlan {
  params: RateParams;
  /**
   * The one statement that answers the request, as `show_query` shows it; built on first use
   * (a cached answer needs none). A long range runs it window by window (`statements`), and
   * then it starts with a comment that says so.
   */
  readonly sql: string;
  /** What runs: the statements of the range's windows, newest first (one for most requests). */
  readonly statements: readonly string[];
  /** A range or all: an answer of any length. */
  ranged: boolean;
  /**
   * Whether the answer can be read from the engine whole, in one call, instead of streamed chunk
   * by chunk: one date, or a range of one statement of at most WHOLE_ANSWER_ROWS rows.
   */
  readonly readWhole: boolean;
  /** How many rows the answer has at most (days held in the range times rows a day). */
  readonly mostRows: number;
  head: RateHead;
  writer: RateWriterOptions;
  /** The newest date the answer can hold, for Cache-Control. */
  newestDate: string;
  /**
   * Whether its statements read some source as observing once a day (the catalog's
   * SourceHoldings.oneObservationPerDay): true answers hold only while Store.sharedDaysSince
   * says no write has changed that.
   */
  assumesOneObservationPerDay: boolean;
  /**
   * What the answer is computed from, written the same way however the request was spelt
   * (parameter order, case, defaults given or not): the key of the one-date answer cache.
   * Undefined for ranges and for requests with parameter problems, which are not cached.
   */
  cacheKey: string | undefined;
}

/**
 * Rows of a range answer read from the engine in one call, at most (an estimate from the days
 * and the symbols held: a one-year range of every ECB currency is about 15,000). A streamed
 * statement takes the engine three calls to start and one more per chunk; a one-year range in
 * JPY read whole took 16.1 ms to reach the service against 17.8 streamed. Longer answers are
 * streamed, so that the service holds one chunk of them at a time.
 */
export const WHOLE_ANSWER_ROWS = 20_000;

/**
 * Turns a rate request into the one SQL statement that answers it and the head of the response
 * (CONTRACT §3-§4). Dates are checked first: a segment shaped YYYY-MM-DD that is no calendar
 * date is a 400, any other segment that is neither a date nor `*` a 404 (CONTRACT §8).
 */
export function planRateRequest(
  path: RatePath,
  queryString: string,
  catalog: Catalog,
  dialect: SqlDialect,
  today: string,
  rowsPerWindow?: number,
  manyPairsFrom?: number,
): RatePlan {
  const segments =
    path.endpoint === 'date'
      ? [path.date]
      : path.endpoint === 'range'
        ? [path.start, path.end]
        : [];
  for (const segment of segments) checkDateSegment(segment, path.endpoint === 'range');

  const endpoint: RateEndpoint = path.endpoint;
  const params = parseRateParams(endpoint, queryString, (symbol) => isKnownSymbol(catalog, symbol));
  const sources = params.sources.map((key) => {
    const source = findSource(key)!;
    return {
      key: source.key,
      relativeCurrency: source.relativeCurrency,
      oneObservationPerDay: catalog.get(key)?.oneObservationPerDay ?? false,
    };
  });

  // The span the requested sources hold and the rows of a day, counted once on first use.
  let held: { first: string; last: string } | null | undefined;
  const heldOf = (): { first: string; last: string } | null =>
    held === undefined ? (held = heldSpan(catalog, params.sources)) : held;
  let perDay: number | undefined;
  const perDayOf = (): number => (perDay ??= rowsPerDay(catalog, params));

  let start: string;
  let end: string;
  if (path.endpoint === 'latest') start = end = today;
  else if (path.endpoint === 'date') start = end = path.date;
  else {
    const [startText, endText] = path.endpoint === 'all' ? ['*', '*'] : [path.start, path.end];
    end = endText === '*' ? today : endText;
    start = startText === '*' ? (heldOf()?.first ?? end) : startText;
    if (start > end) [start, end] = [end, start];
  }
  /** The days from start to end that the requested sources hold. */
  const heldDays = (): number => {
    const span = heldOf();
    if (span === null) return 0;
    const { first, last } = heldPart(start, end, span);
    return first > last ? 0 : daysBetween(first, last) + 1;
  };

  const query: RateQuery = {
    start,
    end,
    base: params.base,
    symbols: params.symbols,
    sources,
    upToDaysBefore: params.upToDaysBefore,
    maxSourcesPerSymbol: params.maxSourcesPerSymbol,
    selection: params.selection,
    aggregation: params.aggregation,
    startIsKey: true,
  };
  // What runs is worked out on first use: an answer from the cache needs none of it.
  // A range over every symbol whose statements may read manyPairsFrom observations or more (the
  // dialect's, unless given), as estimated: the days held within the range, or within one
  // window of it when it has several, times the observations of a day. Every window takes the
  // same form, as the statement shown for them.
  let planned: RateQuery | undefined;
  const plannedQuery = (): RateQuery => {
    if (planned !== undefined) return planned;
    const days = Math.min(heldDays(), daysPerWindow(perDayOf(), rowsPerWindow));
    const many =
      params.symbols === null &&
      days > 0 &&
      days * observationsPerDay(catalog, params) >= (manyPairsFrom ?? dialect.manyPairsFrom);
    return (planned = many ? { ...query, manyPairs: true } : query);
  };
  let windows: RateQuery[] | undefined;
  // (One date is one window: its rows per day and the span held need not be counted.)
  const windowsOf = (): RateQuery[] =>
    (windows ??= (
      start === end ? [query] : rangeWindows(plannedQuery(), perDayOf(), rowsPerWindow, heldOf())
    ).map((window) => contributing(window, catalog)));
  let statements: string[] | undefined;
  const statementsOf = (): string[] =>
    (statements ??= windowsOf().map((window) => buildRatesSql(window, dialect)));
  // One window: the statement shown is the one that runs. Several: the statement over the
  // whole range, which gives the same rows, with a comment that says how it ran.
  let sql: string | undefined;
  const sqlText = (): string =>
    (sql ??=
      windowsOf().length === 1
        ? statementsOf()[0]!
        : `/* run as ${windowsOf().length} statements, newest dates first: this one over the dates of each window in turn, a window's first day a key only when a source observed on it */\n` +
          buildRatesSql(contributing(plannedQuery(), catalog), dialect));
  const ranged = path.endpoint === 'range' || path.endpoint === 'all';
  const mostRows = (): number => (ranged ? heldDays() : 1) * perDayOf();
  const readWhole = (): boolean =>
    !ranged || (windowsOf().length === 1 && mostRows() <= WHOLE_ANSWER_ROWS);
  const head: RateHead = {
    status: 'success',
    ...(ranged ? { start_date: start, end_date: end } : { date: start }),
    base: params.base,
    ...(params.problems.length > 0 ? { error: problemsText(params.problems) } : {}),
    ...(params.showQuery ? { query: sqlText() } : {}),
  };
  return {
    params,
    get sql() {
      return sqlText();
    },
    get statements() {
      return statementsOf();
    },
    ranged,
    get readWhole() {
      return readWhole();
    },
    get mostRows() {
      return mostRows();
    },
    cacheKey: ranged || params.problems.length > 0 ? undefined : cacheKeyOf(query, params),
    head,
    writer: {
      prettyPrint: params.prettyPrint,
      decimals: params.decimals,
      amount: params.amount,
      perSource: params.maxSourcesPerSymbol > 1,
      byDate: ranged,
    },
    newestDate: end,
    assumesOneObservationPerDay: sources.some((source) => source.oneObservationPerDay),
  };
}

/**
 * The query without the sources that hold nothing it can use (no observation from
 * `up_to_days_before` before its first date through its last): they add nothing to the answer,
 * and a statement over fewer sources is less work (with one source, nothing to rank).
 */
function contributing(query: RateQuery, catalog: Catalog): RateQuery {
  const from = addDays(query.start, -query.upToDaysBefore);
  const sources = query.sources.filter(({ key }) => {
    const held = catalog.get(key);
    return held?.firstDate != null && held.firstDate <= query.end && held.lastDate! >= from;
  });
  return sources.length === query.sources.length ? query : { ...query, sources };
}

/**
 * The observations of a calendar day the requested sources hold, on average over the days from
 * each one's first to its last: about 22 for the ECB history (some 30 currencies on five days
 * of seven).
 */
function observationsPerDay(catalog: Catalog, params: RateParams): number {
  let perDay = 0;
  for (const key of params.sources) {
    const { observations = 0, firstDate, lastDate } = catalog.get(key) ?? {};
    if (observations > 0 && firstDate && lastDate) {
      perDay += observations / (daysBetween(firstDate, lastDate) + 1);
    }
  }
  return perDay;
}

/**
 * How many rows a day of the answer has at most: the symbols the requested sources hold (and
 * their relative currencies), or the requested ones, times the sources shown per symbol.
 */
function rowsPerDay(catalog: Catalog, params: RateParams): number {
  const symbols = new Set<string>();
  let holding = 0;
  for (const key of params.sources) {
    const held = catalog.get(key);
    if (!held || held.observations === 0) continue;
    holding++;
    for (const symbol of held.symbols) symbols.add(symbol);
    symbols.add(findSource(key)!.relativeCurrency);
  }
  const count =
    params.symbols === null ? symbols.size : Math.min(symbols.size, params.symbols.length);
  return Math.max(1, count * Math.min(params.maxSourcesPerSymbol, Math.max(1, holding)));
}

function cacheKeyOf(query: RateQuery, params: RateParams): string {
  return [
    query.start,
    query.base,
    query.symbols?.join(',') ?? '*',
    query.sources.map((source) => source.key).join(','),
    query.upToDaysBefore,
    query.maxSourcesPerSymbol,
    query.selection,
    params.decimals,
    formatDecimal(params.amount),
    params.format,
    params.prettyPrint,
    params.showQuery,
  ].join('|');
}

function checkDateSegment(segment: string, starAllowed: boolean): void {
  if (starAllowed && segment === '*') return;
  if (!looksLikeIsoDate(segment)) {
    throw notFound(
      `'${segment.slice(0, 40)}' is not a date (YYYY-MM-DD)${starAllowed ? ' or *' : ''}`,
    );
  }
  if (!isCalendarDate(segment)) throw badRequest(`${segment} is not a calendar date`);
}

/** A symbol the currencies endpoint lists: a relative currency or an observed symbol of any source. */
export function isKnownSymbol(catalog: Catalog, symbol: string): boolean {
  for (const [key, holdings] of catalog) {
    if (findSource(key)?.relativeCurrency === symbol || holdings.symbols.includes(symbol))
      return true;
  }
  return false;
}

/** The first and last dates any of `sources` holds, or null when they hold nothing. */
function heldSpan(
  catalog: Catalog,
  sources: readonly string[],
): { first: string; last: string } | null {
  let first: string | undefined;
  let last: string | undefined;
  for (const key of sources) {
    const held = catalog.get(key);
    if (!held?.firstDate || !held.lastDate) continue;
    if (first === undefined || held.firstDate < first) first = held.firstDate;
    if (last === undefined || held.lastDate > last) last = held.lastDate;
  }
  return first !== undefined && last !== undefined ? { first, last } : null;
}

/** Answers about days more than 2 days before today no longer change (SPEC.md rule 4). */
export function isSettled(newestDate: string, today: string): boolean {
  return daysBetween(newestDate, today) > 2;
}
