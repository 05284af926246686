/**
 * Dates as publishers print them, to and from YYYY-MM-DD. A text that is no such date comes
 * back unchanged (or undefined), so that the observation builder reports it.
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
