import type { FetchWindow, SourceAdapter } from './adapter.js';
import { completing, fetchBatch, yearChunks } from './adapter.js';
import { readCsvTable } from './csv-table.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { readDecimal } from './publisher-text.js';
import type { SourceEntry } from './registry.js';

const SDMX_URL =
  'https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/';

/** Official representative rates (DATA_TYPE OF00) over a date range. */
export function boiUrl(window: FetchWindow): string {
  return `${SDMX_URL}?c%5BDATA_TYPE%5D=OF00&endperiod=${window.to}&format=csv&startperiod=${window.from}`;
}

/**
 * SDMX-CSV: one row per rate, ILS per 10^UNIT_MULT units of BASE_CURRENCY (JPY per 100,
 * LBP per 10). Rows against another counter currency are not the representative rate.
 */
export function parseBoiCsv(text: string, source: SourceEntry): Extraction {
  const builder = new ObservationBuilder(source);
  const table = readCsvTable(text);
  const [base, counter, unitMult, period, value] = [
    'BASE_CURRENCY',
    'COUNTER_CURRENCY',
    'UNIT_MULT',
    'TIME_PERIOD',
    'OBS_VALUE',
  ].map(table.column) as [number, number, number, number, number];
  for (const { fields } of table.rows) {
    if (fields[counter] !== source.relativeCurrency) {
      builder.drop(
        `${fields[base]}/${fields[counter]} is not quoted in ${source.relativeCurrency}`,
      );
      continue;
    }
    const exponent = Number(fields[unitMult] || '0');
    const units = Number.isInteger(exponent) ? 10 ** exponent : Number.NaN;
    builder.addPrice(fields[period]!, fields[base]!, readDecimal(fields[value]), units);
  }
  return builder.result();
}

export const boiAdapter: SourceAdapter = {
  key: 'boi',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, boiUrl(chunk), (text) =>
        parseBoiCsv(text, context.source),
      );
      yield completing(batch, chunk.to);
    }
  },
};
