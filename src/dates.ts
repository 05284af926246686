/** Calendar dates are handled as 'YYYY-MM-DD' strings; arithmetic goes through UTC milliseconds. */

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a string shaped like YYYY-MM-DD, whether or not it names a real day. */
export function looksLikeIsoDate(text: string): boolean {
  return ISO_DATE.test(text);
}

/** True when `text` is YYYY-MM-DD and names a real day of the proleptic Gregorian calendar (years 1-9999). */
export function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/** YYYY-MM-DD of the last day of a month (1-12). */
export function lastDayOfMonth(year: number, month: number): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(daysInMonth(year, month))}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function dateToEpochMs(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const stamp = new Date(0);
  stamp.setUTCFullYear(year, month - 1, day);
  return stamp.getTime();
}

export function epochMsToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).padStart(10, '0');
}

export function addDays(date: string, days: number): string {
  return epochMsToDate(dateToEpochMs(date) + days * DAY_MS);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((dateToEpochMs(to) - dateToEpochMs(from)) / DAY_MS);
}

export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Offset of `timeZone` from UTC at the instant `epochMs`, in milliseconds (Berlin in winter: +3,600,000). */
export function timeZoneOffsetMs(epochMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of offsetFormatter(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  // Not Date.UTC, which takes the years 0-99 for 1900-1999.
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1);
  asUtc.setUTCHours(parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return asUtc.getTime() - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The UTC instant of wall-clock time `time` (HH:MM) on `date` in `timeZone`.
 * Two passes, because the offset at the guessed instant can differ from the one at the answer
 * on days when the clocks change.
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const wallClockAsUtc = dateToEpochMs(date) + (hours * 60 + minutes) * 60_000;
  let instant = wallClockAsUtc - timeZoneOffsetMs(wallClockAsUtc, timeZone);
  instant = wallClockAsUtc - timeZoneOffsetMs(instant, timeZone);
  return new Date(instant);
}

/** True for Saturdays and Sundays. */
export function isWeekend(date: string): boolean {
  const day = new Date(dateToEpochMs(date)).getUTCDay();
  return day === 0 || day === 6;
}
