import { readCsvRecords } from '../import/csv-reader.js';
import type { FetchWindow, SourceAdapter } from './adapter.js';
import { fetchBatch, requireCompleteText, yearChunks } from './adapter.js';
import type { Extraction } from './observation-builder.js';
import { ObservationBuilder, readDecimal } from './observation-builder.js';
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
  requireCompleteText(text);
  const records = readCsvRecords(text);
  const header: string[] = records.next().value?.fields ?? [];
  const column = (name: string): number => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`CSV header lacks ${name}`);
    return index;
  };
  const [base, counter, unitMult, period, value] = [
    column('BASE_CURRENCY'),
    column('COUNTER_CURRENCY'),
    column('UNIT_MULT'),
    column('TIME_PERIOD'),
    column('OBS_VALUE'),
  ];
  for (const record of records) {
    const fields = record.fields;
    if (fields.length === 1 && fields[0] === '') continue;
    if (fields.length !== header.length) {
      throw new Error(
        `line ${record.line} has ${fields.length} fields, the header ${header.length}`,
      );
    }
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
      yield await fetchBatch(context, boiUrl(chunk), (text) => parseBoiCsv(text, context.source));
    }
  },
};
