/** What the benchmarks share: their options, medians, the ECB file's dates and tables. */
import { readFileSync } from 'node:fs';

/** The values of a comma-separated option among `allowed` (all of them when it is unset). */
export function chosen<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name]?.trim();
  if (!raw) return [...allowed];
  const items = raw.split(',').map((item) => item.trim().toLowerCase());
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw new Error(`${name}: '${item}' is not one of ${allowed.join(', ')}`);
    }
  }
  return allowed.filter((key) => items.includes(key));
}

/** The middle value (of an even count, the upper of the two middle ones). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The first and last dates of the ECB history file (newest first). */
export function ecbDates(path: string): { firstDate: string; lastDate: string } {
  const dates = readFileSync(path, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.slice(0, 10))
    .filter((date) => /^\d{4}-\d\d-\d\d$/.test(date))
    .sort();
  return { firstDate: dates[0]!, lastDate: dates[dates.length - 1]! };
}

/** A table with a header row, the first column left-aligned and the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}
