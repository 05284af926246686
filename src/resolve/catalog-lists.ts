import type { CatalogParams } from '../params/catalog-params.js';
import { defaultPrecedence, findSource } from '../sources/registry.js';
import type { Catalog } from '../store/store.js';
import { currencyName } from './currency-names.js';

/** A source's symbols: its relative currency and every symbol it observed, A-Z (CONTRACT §5). */
export function providedSymbols(catalog: Catalog, key: string): string[] {
  const source = findSource(key)!;
  const observed = catalog.get(key)?.symbols ?? [];
  return [...new Set([source.relativeCurrency, ...observed])].sort();
}

export interface CurrencyListing {
  symbol: string;
  /** English name (currency-names.ts). */
  name: string;
  sources: string[];
}

/** The currencies endpoint: every symbol of the included sources, A-Z, with its sources in requested order. */
export function listCurrencies(catalog: Catalog, params: CatalogParams): CurrencyListing[] {
  const bySymbol = new Map<string, string[]>();
  for (const key of params.sources) {
    for (const symbol of providedSymbols(catalog, key)) {
      if (params.symbols && !params.symbols.includes(symbol)) continue;
      const list = bySymbol.get(symbol) ?? [];
      list.push(key);
      bySymbol.set(symbol, list);
    }
  }
  return [...bySymbol.keys()].sort().map((symbol) => ({
    symbol,
    name: currencyName(symbol),
    sources: bySymbol.get(symbol)!,
  }));
}

export interface SourceListing {
  key: string;
  name: string;
  relative_currency: string;
  url: string;
  is_dst: boolean;
  default_precedence: number;
  num_symbols: number;
  symbols: string[];
}

/** The sources endpoint: each included source in requested order; one left with no symbols is omitted. */
export function listSources(catalog: Catalog, params: CatalogParams): SourceListing[] {
  const listings: SourceListing[] = [];
  for (const key of params.sources) {
    const source = findSource(key)!;
    const symbols = providedSymbols(catalog, key).filter(
      (s) => !params.symbols || params.symbols.includes(s),
    );
    if (symbols.length === 0) continue;
    listings.push({
      key,
      name: source.name,
      relative_currency: source.relativeCurrency,
      url: source.url,
      is_dst: source.isDst,
      default_precedence: defaultPrecedence(key),
      num_symbols: symbols.length,
      symbols,
    });
  }
  return listings;
}
