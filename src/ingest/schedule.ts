import type { SourceEntry } from '../sources/registry.js';

const HALF_HOUR_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/**
 * The next poll after `now`: every half hour from the start to the end of the source's
 * publication window (UTC), on weekdays only where the publisher rests at weekends.
 */
export function nextPollAfter(now: Date, window: SourceEntry['publishWindowUtc']): Date {
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  for (let day = 0; day <= 7; day++) {
    const dayStart = midnight + day * DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    if (window.weekdaysOnly && (weekday === 0 || weekday === 6)) continue;
    for (let minute = from; minute <= to; minute += 30) {
      const slot = dayStart + minute * 60_000;
      if (slot > now.getTime()) return new Date(slot);
    }
  }
  return new Date(now.getTime() + HALF_HOUR_MS);
}

/** After a failed run, try again sooner than the next window: 5 minutes, doubling up to 2 hours. */
export function retryDelayMs(consecutiveFailures: number): number {
  return Math.min(5 * 60_000 * 2 ** Math.max(0, consecutiveFailures - 1), 2 * 60 * 60_000);
}
