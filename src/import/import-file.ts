import { readFile } from 'node:fs/promises';
import type { Observation, Store } from '../store/store.js';
import { CsvSyntaxError, readCsvRecords } from './csv-reader.js';
import { isEcbHistoryHeader, parseEcbHistoryCsv } from './ecb-history-csv.js';
import { OBSERVATIONS_HEADER, parseObservationsCsv } from './observations-csv.js';

export type ImportFormat = 'observations' | 'ecb-history';

export interface ImportSummary {
  format: ImportFormat;
  /** Rows stored per source key. */
  perSource: Map<string, number>;
  /** Rows that only said a relative currency is worth 1 of itself. */
  skipped: number;
}

export class ImportError extends Error {}

/** Reads the whole file, recognised by its header, before anything is stored. */
export function parseImport(text: string): {
  format: ImportFormat;
  observations: Observation[];
  skipped: number;
} {
  const records = readCsvRecords(text);
  const first = records.next();
  if (first.done) throw new ImportError('the file is empty');
  const header = first.value.fields;
  if (header.map((f) => f.trim().toLowerCase()).join(',') === OBSERVATIONS_HEADER.join(',')) {
    return { format: 'observations', ...parseObservationsCsv(iterate(records)) };
  }
  if (isEcbHistoryHeader(header)) {
    return {
      format: 'ecb-history',
      observations: parseEcbHistoryCsv(header, iterate(records)),
      skipped: 0,
    };
  }
  throw new ImportError(
    `line 1: unrecognised header '${header.join(',').slice(0, 80)}'; expected '${OBSERVATIONS_HEADER.join(',')}' or the ECB's 'Date,USD,JPY,...'`,
  );
}

function* iterate<T>(iterator: Iterator<T>): Generator<T> {
  for (let step = iterator.next(); !step.done; step = iterator.next()) yield step.value;
}

/** Imports one file in one transaction: a malformed row stores nothing of the file. */
export async function importFile(store: Store, path: string): Promise<ImportSummary> {
  const text = await readFile(path, 'utf8');
  let parsed;
  try {
    parsed = parseImport(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError || error instanceof ImportError) {
      throw new ImportError(`${path}: ${error.message}; nothing of this file was imported`);
    }
    throw error;
  }
  await store.writeObservations(parsed.observations);
  const perSource = new Map<string, number>();
  for (const { source } of parsed.observations)
    perSource.set(source, (perSource.get(source) ?? 0) + 1);
  return { format: parsed.format, perSource, skipped: parsed.skipped };
}
