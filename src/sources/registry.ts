/**
 * Every registered publisher (src/sources/index.ts, one line each), in default priority order,
 * and what is derived from them: `default_precedence`, the default `sources` lists, lookup by
 * key. The store mirrors the public fields into its `sources` table.
 */
import * as registered from './index.js';
import type { Publisher } from './publisher.js';
import type { SourceRow } from '../store/store.js';

/** A registered publisher, as the rest of the service knows it. */
export type SourceEntry = Publisher;

/** Default priority orders of SPEC.md. Keys not registered (bac, gaf) are skipped; `rab` is `rba` misspelt (CONTRACT §2). */
const SPEC_DEFAULT_ORDER = 'imf,ecb,boe,bac,rba,snb,bnro,boi,nbu,cbr,bcb,cbn,gaf,float_rates'.split(
  ',',
);
const SPEC_ALL_ORDER = 'imf,rba,bac,ecb,bnro,snb,cbr,nbu,boi,cbn,boe,gaf,bcb,float_rates'.split(
  ',',
);

const byKey = new Map<string, Publisher>(
  Object.values(registered).map((publisher) => [publisher.key, publisher]),
);

/** SPEC.md's order first, then every other registered publisher by key, A-Z (CONTRACT §2). */
function registeredOrder(spec: readonly string[]): string[] {
  const listed = spec.filter((key) => byKey.has(key));
  const rest = [...byKey.keys()].filter((key) => !listed.includes(key)).sort();
  return [...listed, ...rest];
}

/** Every registered publisher, in `default_precedence` order. */
export const SOURCES: readonly SourceEntry[] = registeredOrder(SPEC_DEFAULT_ORDER).map((key) =>
  byKey.get(key)!,
);

const precedence = new Map(SOURCES.map((source, index) => [source.key, index]));

export function findSource(key: string): SourceEntry | undefined {
  return byKey.get(key.toLowerCase());
}

/** Position in the default priority order, starting at 0; -1 for a key not registered. */
export function defaultPrecedence(key: string): number {
  return precedence.get(key) ?? -1;
}

/**
 * Default `sources` of latest, date, range, currencies and sources: SPEC.md's list exactly (its
 * registered keys). Other publishers answer when a request names them, or with `sources=*`.
 */
export const DEFAULT_SOURCE_ORDER: readonly string[] = SPEC_DEFAULT_ORDER.filter((key) =>
  byKey.has(key),
);
/** Default `sources` of the all endpoint: SPEC.md's second list. */
export const ALL_ENDPOINT_SOURCE_ORDER: readonly string[] = SPEC_ALL_ORDER.filter((key) =>
  byKey.has(key),
);
/** `sources=*`: every registered publisher in `default_precedence` order. */
export const EVERY_SOURCE: readonly string[] = SOURCES.map((source) => source.key);

/** The registered publishers as the store's `sources` table holds them (Store.syncSources). */
export const SOURCE_ROWS: readonly SourceRow[] = SOURCES.map((source, index) => ({
  key: source.key,
  name: source.name,
  relativeCurrency: source.relativeCurrency,
  url: source.url,
  isDst: source.isDst,
  defaultPrecedence: index,
}));
