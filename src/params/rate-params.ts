import { ALL_ENDPOINT_SOURCE_ORDER, DEFAULT_SOURCE_ORDER } from '../sources/registry.js';
import { AGGREGATIONS, type Aggregation, type Selection } from '../resolve/rate-query.js';
import {
  RawParams,
  clip,
  readBoolean,
  readEnum,
  readSources,
  readSymbols,
  readPositiveDecimal,
  readPositiveInteger,
} from './raw-params.js';
import type { Decimal } from '../exact-decimal.js';

export type RateEndpoint = 'latest' | 'date' | 'range' | 'all';
export const RATE_FORMATS = ['json', 'csv', 'xml'] as const;
export type RateFormat = (typeof RATE_FORMATS)[number];

export const DEFAULT_BASE = 'USD';
export const DEFAULT_DECIMALS = 16;
export const DEFAULT_UP_TO_DAYS_BEFORE = 4;
/** Rates are for one unit of the base unless `amount` says otherwise. */
export const DEFAULT_AMOUNT: Decimal = { coefficient: 1n, scale: 0 };
/** Larger values of decimals are reduced to this, and reported. */
export const MAX_DECIMALS = 100;
/** 100 years: CONTRACT §8 reduces larger values to this. */
export const MAX_UP_TO_DAYS_BEFORE = 36_525;

const COMMON = [
  'base',
  'format',
  'symbols',
  'sources',
  'up_to_days_before',
  'max_sources_per_symbol',
  'observation_time_selection',
  'decimals',
  'pretty_print',
  'show_query',
  'amount',
];

export interface RateParams {
  base: string;
  symbols: string[] | null;
  /** Registered source keys in priority order. */
  sources: string[];
  upToDaysBefore: number;
  maxSourcesPerSymbol: number;
  selection: Selection;
  decimals: number;
  /** Every rate is multiplied by this before rounding to `decimals`. */
  amount: Decimal;
  prettyPrint: boolean;
  showQuery: boolean;
  aggregation: Aggregation;
  format: RateFormat;
  problems: string[];
}

/** Parses the query string of a rate endpoint; `isKnownSymbol` answers for the currencies endpoint's symbols. */
export function parseRateParams(
  endpoint: RateEndpoint,
  queryString: string,
  isKnownSymbol: (symbol: string) => boolean,
): RateParams {
  const ranged = endpoint === 'range' || endpoint === 'all';
  const params = new RawParams(
    queryString,
    ranged ? [...COMMON, 'aggregation'] : COMMON,
    ranged ? new Map() : new Map([['aggregation', 'it applies to ranges only']]),
  );
  const format = readEnum(params, 'format', RATE_FORMATS, 'json');
  let base = DEFAULT_BASE;
  const baseText = params.get('base');
  if (baseText !== undefined) {
    if (isKnownSymbol(baseText.toUpperCase())) base = baseText.toUpperCase();
    else params.problems.push(`unknown base '${clip(baseText)}': ${DEFAULT_BASE} is used`);
  }
  const symbols = readSymbols(params, isKnownSymbol);
  const sources = readSources(
    params,
    endpoint === 'all' ? ALL_ENDPOINT_SOURCE_ORDER : DEFAULT_SOURCE_ORDER,
  );
  return {
    format,
    base,
    symbols,
    sources,
    upToDaysBefore: readPositiveInteger(params, 'up_to_days_before', DEFAULT_UP_TO_DAYS_BEFORE, {
      max: MAX_UP_TO_DAYS_BEFORE,
    }),
    // Above the number of sources every value means the same.
    maxSourcesPerSymbol: readPositiveInteger(params, 'max_sources_per_symbol', 1, {
      saturation: 1000,
    }),
    selection: readEnum(
      params,
      'observation_time_selection',
      ['latest', 'earliest'] as const,
      endpoint === 'latest' ? 'latest' : 'earliest',
    ),
    // Rates are exact quotients of published figures with a handful of digits each: 100
    // decimals is far beyond what any of them means, and bounds the work per rate. A quotient
    // such as 1/3 has more digits, so a larger value is reduced and reported.
    decimals: readPositiveInteger(params, 'decimals', DEFAULT_DECIMALS, { max: MAX_DECIMALS }),
    amount: readPositiveDecimal(params, 'amount', DEFAULT_AMOUNT),
    prettyPrint: readBoolean(params, 'pretty_print', true),
    showQuery: readBoolean(params, 'show_query', false),
    aggregation: ranged ? readEnum(params, 'aggregation', AGGREGATIONS, 'day') : 'day',
    problems: params.problems,
  };
}
