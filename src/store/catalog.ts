import type { Catalog, SourceHoldings } from './store.js';

/** What an engine reads per source and symbol for the catalog; dates are UTC, YYYY-MM-DD. */
export interface HoldingRow {
  source: string;
  symbol: string;
  observations: number;
  firstDate: string;
  lastDate: string;
}

/**
 * The catalog of the registered sources (each listed, holding nothing or not) from rows in
 * source and symbol order; rows of sources no longer registered are left out. `sharedDays`: the
 * sources known to have observed a symbol twice on one day, or undefined where the engine does
 * not tell (then no source counts as observing once a day).
 */
export function catalogOf(
  sourceKeys: readonly string[],
  rows: Iterable<HoldingRow>,
  sharedDays?: ReadonlySet<string>,
): Catalog {
  const catalog = new Map<string, SourceHoldings & { symbols: string[] }>();
  for (const key of sourceKeys) {
    catalog.set(key, {
      symbols: [],
      firstDate: null,
      lastDate: null,
      observations: 0,
      oneObservationPerDay: sharedDays !== undefined && !sharedDays.has(key),
    });
  }
  for (const row of rows) {
    const holdings = catalog.get(row.source);
    if (!holdings) continue;
    holdings.symbols.push(row.symbol);
    holdings.observations += row.observations;
    if (holdings.firstDate === null || row.firstDate < holdings.firstDate) {
      holdings.firstDate = row.firstDate;
    }
    if (holdings.lastDate === null || row.lastDate > holdings.lastDate) {
      holdings.lastDate = row.lastDate;
    }
  }
  return catalog;
}

/**
 * The catalog with no source listed as observing once a day: statements planned on it read
 * every source's legs with a step per day, right whatever the store holds.
 */
export function everyDayStepped(catalog: Catalog): Catalog {
  return new Map(
    [...catalog].map(([key, holdings]) => [key, { ...holdings, oneObservationPerDay: false }]),
  );
}

/** Keeps a store's catalog until its data version changes; a failed read is not kept. */
export class CatalogCache {
  private cached: { version: number; catalog: Promise<Catalog> } | undefined;

  constructor(private readonly read: () => Promise<Catalog>) {}

  get(version: number): Promise<Catalog> {
    if (this.cached?.version !== version) {
      const catalog = this.read();
      this.cached = { version, catalog };
      catalog.catch(() => (this.cached = undefined));
    }
    return this.cached.catalog;
  }

  /** Forgets the catalog (the registered sources changed). */
  clear(): void {
    this.cached = undefined;
  }
}
