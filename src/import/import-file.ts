import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { daysBetween, utcDateOf } from '../dates.js';
import { findSource } from '../sources/registry.js';
import type { Observation, Store, WriteCounts } from '../store/store.js';
import { ImportError } from './import-error.js';
import { openImportInput, type InputPacking } from './import-input.js';
import { CsvParser, CsvSyntaxError, type CsvRecord } from './csv-reader.js';
import { ecbHistoryRowReader, isEcbHistoryHeader } from './ecb-history-csv.js';
import { OBSERVATIONS_HEADER, observationOfRecord } from './observations-csv.js';

export type ImportFormat = 'observations' | 'ecb-history';

export interface ImportSummary extends WriteCounts {
  format: ImportFormat;
  /** Rows read per source key. */
  perSource: Map<string, number>;
  /** Rows that only said a relative currency is worth 1 of itself. */
  skipped: number;
  packing: InputPacking;
  /** The CSV read inside a zip archive. */
  entryName?: string;
  /**
   * Sources whose ingest progress the file carried forward: the date through which their
   * history is now complete (a later `fxrates ingest` continues from there).
   */
  completeThrough: Map<string, string>;
}

export { ImportError };

/** How far an import has got, for a progress display. */
export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  rows: number;
}

export interface ImportOptions {
  /** Called as the file is read (often: throttle any display). */
  onProgress?: (progress: ImportProgress) => void;
}

/**
 * A file that starts where a source's stored history is complete (or at its first published
 * date) carries that history forward through its dates, up to the first hole in them: a gap
 * of more than PROGRESS_GAP_DAYS between two dates of a source, or, for a source the file
 * shows publishing less often (month-end rates), of more than HOLE_SPACINGS times its usual
 * spacing, and never of more than MAX_PROGRESS_GAP_DAYS. Claiming too little only makes the
 * next run fetch again; claiming a hole would keep its dates from ever being fetched.
 */
const PROGRESS_GAP_DAYS = 7;
const HOLE_SPACINGS = 3;
const MAX_PROGRESS_GAP_DAYS = 100;

/** Lines longer than this are no rates file (and must not fill the memory). */
const LIMITS = { maxRecordLength: 64 * 1024, maxFieldLength: 4 * 1024 };
/** Observations handed to the store at a time: memory stays flat however long the file. */
const BATCH_SIZE = 50_000;

type RowReader = (record: CsvRecord, into: Observation[]) => number;

/** Recognises a file by its header and returns the reader of its rows. */
function rowReaderFor(header: readonly string[]): { format: ImportFormat; read: RowReader } {
  if (header.map((f) => f.trim().toLowerCase()).join(',') === OBSERVATIONS_HEADER.join(',')) {
    return {
      format: 'observations',
      read: (record, into) => {
        const result = observationOfRecord(record);
        if (result === 'skipped') return 1;
        into.push(result);
        return 0;
      },
    };
  }
  if (isEcbHistoryHeader(header)) {
    const read = ecbHistoryRowReader(header);
    return {
      format: 'ecb-history',
      read: (record, into) => {
        read(record, into);
        return 0;
      },
    };
  }
  const shown = header.join(',');
  throw new ImportError(
    `line 1: unrecognised header '${shown.length > 80 ? `${shown.slice(0, 80)}...` : shown}'; expected '${OBSERVATIONS_HEADER.join(',')}' or the ECB's 'Date,USD,JPY,...'`,
  );
}

/** Parses text already in memory, recognised by its header (for tests and small inputs). */
export function parseImport(text: string): {
  format: ImportFormat;
  observations: Observation[];
  skipped: number;
} {
  const parser = new CsvParser(LIMITS);
  const records = [...parser.push(text), ...parser.end()];
  if (records.length === 0) throw new ImportError('the file is empty');
  const { format, read } = rowReaderFor(records[0]!.fields);
  const observations: Observation[] = [];
  let skipped = 0;
  for (const record of records.slice(1)) skipped += read(record, observations);
  return { format, observations, skipped };
}

/**
 * The size of the file at `path`, or an ImportError that says why it cannot be imported at all:
 * missing, not a regular file, not readable. `fxrates import` asks this of every file before it
 * opens the store, so that such input creates no database.
 */
export async function importableSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new ImportError(`${path}: is a directory, not a file`);
    if (!info.isFile()) throw new ImportError(`${path}: is not a regular file`);
    await access(path, constants.R_OK);
    return info.size;
  } catch (error) {
    if (error instanceof ImportError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ImportError(`${path}: no such file`);
    if (code === 'EACCES') throw new ImportError(`${path}: not readable (permission denied)`);
    throw new ImportError(`${path}: ${(error as Error).message}`);
  }
}

/**
 * Imports one file, read as a stream in batches, in one transaction: a malformed row anywhere
 * stores nothing of the file. Memory stays flat whatever the size of the file.
 */
export async function importFile(
  store: Store,
  path: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const size = await importableSize(path);
  const input = await openImportInput(path, size).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`${path}: ${error.message}`);
  });
  const summary: ImportSummary = {
    format: 'observations',
    perSource: new Map(),
    skipped: 0,
    stored: 0,
    added: 0,
    changed: 0,
    unchanged: 0,
    packing: input.packing,
    entryName: input.entryName,
    completeThrough: new Map(),
  };
  /** The UTC dates read per source. */
  const datesBySource = new Map<string, Set<string>>();
  let rows = 0;
  async function* batches(): AsyncGenerator<Observation[]> {
    const parser = new CsvParser(LIMITS);
    let read: RowReader | undefined;
    let batch: Observation[] = [];
    const take = function* (records: CsvRecord[]): Generator<Observation[]> {
      for (const record of records) {
        if (!read) {
          const reader = rowReaderFor(record.fields);
          summary.format = reader.format;
          read = reader.read;
          continue;
        }
        summary.skipped += read(record, batch);
        if (batch.length >= BATCH_SIZE) {
          yield batch;
          batch = [];
        }
      }
    };
    for await (const chunk of input.text) {
      yield* take(parser.push(chunk));
      options.onProgress?.({
        bytesRead: input.bytesRead(),
        totalBytes: input.totalBytes,
        rows: rows + batch.length,
      });
    }
    yield* take(parser.end());
    if (!read) throw new ImportError('the file is empty');
    if (batch.length > 0) yield batch;
  }
  async function* counted(): AsyncGenerator<Observation[]> {
    for await (const batch of batches()) {
      let dates: Set<string> | undefined;
      let datesOf = '';
      let lastDate = '';
      for (const { source, observationTime } of batch) {
        summary.perSource.set(source, (summary.perSource.get(source) ?? 0) + 1);
        if (source !== datesOf) {
          datesOf = source;
          lastDate = '';
          dates = datesBySource.get(source);
          if (!dates) datesBySource.set(source, (dates = new Set()));
        }
        // Rows come day by day: most repeat the date before them.
        const date = utcDateOf(observationTime);
        if (date !== lastDate) dates!.add((lastDate = date));
      }
      rows += batch.length;
      yield batch;
    }
  }
  try {
    Object.assign(summary, await store.importObservations(counted()));
  } catch (error) {
    if (error instanceof CsvSyntaxError || error instanceof ImportError) {
      throw new ImportError(`${path}: ${error.message}; nothing of this file was imported`);
    }
    if (isDiskFull(error)) {
      throw new ImportError(
        `${path}: the disk is full (${firstLine(error)}); nothing of this file was imported`,
      );
    }
    throw error;
  }
  await recordProgress(store, datesBySource, summary.completeThrough);
  return summary;
}

/** Carries each source's ingest state forward through the dates the file covered without a hole. */
async function recordProgress(
  store: Store,
  datesBySource: ReadonlyMap<string, ReadonlySet<string>>,
  advanced: Map<string, string>,
): Promise<void> {
  if (datesBySource.size === 0) return;
  const states = await store.ingestStates();
  const today = utcDateOf(new Date());
  for (const [key, dates] of datesBySource) {
    const source = findSource(key);
    if (!source) continue;
    const state = states.get(key);
    // Dates to come are no history yet: the next run still asks for them.
    const through = continuousThrough(
      [...dates].sort(),
      state?.completeThrough ?? source.historyStart,
      today,
    );
    if (through === undefined) continue;
    await store.saveIngestState({
      source: key,
      lastAttempt: state?.lastAttempt ?? null,
      lastSuccess: state?.lastSuccess ?? null,
      lastError: state?.lastError ?? null,
      completeThrough: through,
      lastRunStored: state?.lastRunStored ?? 0,
      lastRunDropped: state?.lastRunDropped ?? 0,
    });
    advanced.set(key, through);
  }
}

/**
 * The last of `days` (sorted) reached from `from` without a hole (see PROGRESS_GAP_DAYS), at
 * most `today`; undefined when the days reach nothing past `from`.
 */
export function continuousThrough(
  days: readonly string[],
  from: string,
  today: string,
): string | undefined {
  const hole = holeDays(days);
  let reached = from;
  for (const day of days) {
    if (day <= reached) continue;
    if (day > today || daysBetween(reached, day) > hole) break;
    reached = day;
  }
  return reached > from ? reached : undefined;
}

/** The gap between two dates of a source that counts as a hole in them (see PROGRESS_GAP_DAYS). */
function holeDays(days: readonly string[]): number {
  const gaps: number[] = [];
  for (let index = 1; index < days.length; index++)
    gaps.push(daysBetween(days[index - 1]!, days[index]!));
  gaps.sort((a, b) => a - b);
  const usual = gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)]! : 1;
  return Math.min(MAX_PROGRESS_GAP_DAYS, Math.max(PROGRESS_GAP_DAYS, HOLE_SPACINGS * usual));
}

function isDiskFull(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === 'ENOSPC' || /no space left on device|disk is full/i.test(message ?? '');
}

function firstLine(error: unknown): string {
  return String((error as Error).message ?? error)
    .split('\n')[0]!
    .slice(0, 200);
}
