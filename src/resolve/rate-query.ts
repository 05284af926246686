/** A rate request after parameter parsing: everything the SQL builder needs, all validated. */
export type Selection = 'earliest' | 'latest';

export const AGGREGATIONS = [
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'decade',
  'century',
  'millennium',
] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export interface SourceRef {
  key: string;
  relativeCurrency: string;
  /** The catalog lists it as never observing a symbol twice on one day (SourceHoldings). */
  oneObservationPerDay: boolean;
}

export interface RateQuery {
  /** First key date, YYYY-MM-DD. Equal to `end` for latest and date requests. */
  start: string;
  end: string;
  base: string;
  /** Requested symbols; null means every symbol. */
  symbols: readonly string[] | null;
  /** Sources in priority order. */
  sources: readonly SourceRef[];
  upToDaysBefore: number;
  maxSourcesPerSymbol: number;
  selection: Selection;
  aggregation: Aggregation;
  /**
   * Whether `start` is a key date whatever was observed on it: true for a request's own start;
   * false for a later window of a range (see range-windows.ts), whose first day is a key only
   * when a requested source observed on it, as in the whole range.
   */
  startIsKey: boolean;
  /**
   * The statement pairs many rows (a range's of every symbol, from SqlDialect.manyPairsFrom
   * observations: two years of the ECB history on DuckDB, two months on PostgreSQL): its spans
   * sort only the series that miss a day (see spansOfSeriesEnds in rates-sql.ts). Absent: false.
   */
  manyPairs?: boolean;
}

/**
 * Entries of a rate response, column by column as the SQL returns them (without a copy: long
 * answers have millions), which every writer shapes. Entry i's rate is
 * symbolRates[i] / baseRates[i], divided exactly by the writer (1 stands for a relative currency).
 */
export interface RateBatch {
  rowCount: number;
  columns: readonly [
    dates: readonly string[],
    symbols: readonly string[],
    sources: readonly string[],
    symbolRates: readonly number[],
    baseRates: readonly number[],
    observationTimes: readonly string[],
  ];
}
