import { DEFAULT_SOURCE_ORDER } from '../sources/registry.js';
import { RawParams, readBoolean, readSources, readSymbols } from './raw-params.js';

export interface CatalogParams {
  format: 'json' | 'csv';
  symbols: string[] | null;
  sources: string[];
  prettyPrint: boolean;
  problems: string[];
}

/** Parameters of the currencies and sources endpoints (json and csv only: xml falls back to json). */
export function parseCatalogParams(
  queryString: string,
  isKnownSymbol: (symbol: string) => boolean,
): CatalogParams {
  const params = new RawParams(queryString, ['format', 'symbols', 'sources', 'pretty_print']);
  let format: 'json' | 'csv' = 'json';
  const formatText = params.get('format');
  if (formatText !== undefined) {
    const lower = formatText.toLowerCase();
    if (lower === 'json' || lower === 'csv') format = lower;
    else if (lower === 'xml')
      params.problems.push(`format 'xml' is not offered here: json is used`);
    else params.rejected('format', formatText, 'one of json, csv', 'json');
  }
  const symbols = readSymbols(params, isKnownSymbol);
  const sources = readSources(params, DEFAULT_SOURCE_ORDER);
  return {
    format,
    symbols,
    sources,
    prettyPrint: readBoolean(params, 'pretty_print', true),
    problems: params.problems,
  };
}
