import { readCsvRecords, type CsvRecord } from '../import/csv-reader.js';
import { requireCompleteText } from './publisher-fetch.js';

export interface CsvTable {
  header: string[];
  /** Data rows, each with as many fields as the header; blank lines are skipped. */
  rows: Iterable<CsvRecord>;
  /** Index of a header column; a publisher's file without it is not the expected file. */
  column(name: string): number;
}

/**
 * A publisher's CSV file with a header row. A body cut short fails: it does not end with a line
 * break, or its last row has fewer fields than the header.
 */
export function readCsvTable(text: string): CsvTable {
  requireCompleteText(text);
  const records = readCsvRecords(text);
  const header: string[] = records.next().value?.fields ?? [];
  function* rows(): Generator<CsvRecord> {
    for (const record of records) {
      if (record.fields.length === 1 && record.fields[0] === '') continue;
      if (record.fields.length !== header.length) {
        throw new Error(
          `line ${record.line} has ${record.fields.length} fields, the header ${header.length}`,
        );
      }
      yield record;
    }
  }
  return {
    header,
    rows: rows(),
    column(name) {
      const index = header.indexOf(name);
      if (index < 0) throw new Error(`CSV header lacks ${name}`);
      return index;
    },
  };
}
