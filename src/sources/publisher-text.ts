/**
 * Numbers and dates as publishers print them. A text that is no such number or date comes back
 * as NaN, unchanged or undefined, so that the observation builder reports it.
 */

const MONTH_NAMES =
  'january february march april may june july august september october november december'.split(
    ' ',
  );

/** Three-letter English month for a month number 1-12: 'Mar'. */
export function monthAbbreviation(month: number): string {
  const name = MONTH_NAMES[month - 1]!;
  return name[0]!.toUpperCase() + name.slice(1, 3);
}

/** A day, an English month name or its first three letters, and a year: ('17', 'Mar', '2026'). */
export function isoFromEnglish(day: string, month: string, year: string): string | undefined {
  const lower = month.toLowerCase();
  const index = MONTH_NAMES.findIndex((name) =>
    lower.length === 3 ? name.startsWith(lower) : name === lower,
  );
  if (index < 0 || !/^\d{1,2}$/.test(day) || !/^\d{4}$/.test(year)) return undefined;
  return `${year}-${String(index + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** dd.mm.yyyy (Bank of Russia, National Bank of Ukraine). */
export function isoFromDotted(text: string | undefined): string {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text ?? '');
  return match ? `${match[3]}-${match[2]}-${match[1]}` : String(text);
}

/** Reads a number the way publishers print it: '1.0832', '53,8359' (decimal comma), ' 1,234.5 '. */
export function readDecimal(
  text: string | number | null | undefined,
  decimalComma = false,
): number {
  if (typeof text === 'number') return text;
  if (text === null || text === undefined) return Number.NaN;
  let cleaned = text.trim();
  if (decimalComma) cleaned = cleaned.replace(/\s/g, '').replace(',', '.');
  else cleaned = cleaned.replace(/,/g, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cleaned)) return Number.NaN;
  return Number(cleaned);
}
