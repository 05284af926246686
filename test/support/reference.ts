/**
 * CONTRACT §3-§4 written plainly, day by day, to check the SQL against. Slow and obvious on
 * purpose: no windows, spans or joins, just the rules as the contract states them.
 */
import { addDays } from '../../src/dates.js';
import { exactQuotient } from './exact-reference.js';

export interface RefObservation {
  source: string;
  symbol: string;
  time: string; // ISO with milliseconds
  rate: number;
}

export interface RefSource {
  key: string;
  relativeCurrency: string;
}

export interface RefRequest {
  base: string;
  symbols: string[] | null;
  sources: RefSource[];
  window: number;
  max: number;
  selection: 'earliest' | 'latest';
}

export interface RefEntry {
  source: string;
  rate: number;
  observation_time: string;
  /** The symbol's and the base's figures the rate was divided from. */
  legs: [number, number];
}

type Leg = { rate: number; time: string | null };

export function referenceDate(
  data: readonly RefObservation[],
  date: string,
  request: RefRequest,
): Map<string, RefEntry[]> {
  const universe = new Set<string>();
  for (const o of data) universe.add(o.symbol);
  for (const s of request.sources) universe.add(s.relativeCurrency);
  const wanted = [...(request.symbols ?? universe)].filter((s) => s !== request.base).sort();
  const result = new Map<string, RefEntry[]>();
  for (const symbol of wanted) {
    const entries: RefEntry[] = [];
    for (const source of request.sources) {
      const candidate = candidateOf(data, source, symbol, date, request);
      if (candidate) entries.push(candidate);
      if (entries.length === request.max) break;
    }
    if (entries.length > 0) result.set(symbol, entries);
  }
  return result;
}

function candidateOf(
  data: readonly RefObservation[],
  source: RefSource,
  symbol: string,
  date: string,
  request: RefRequest,
): RefEntry | undefined {
  for (let back = 0; back <= request.window; back++) {
    const day = addDays(date, -back);
    const y = leg(data, source, symbol, day, request.selection);
    const b = leg(data, source, request.base, day, request.selection);
    if (!y || !b || (y.time === null && b.time === null)) continue;
    const times = [y.time, b.time].filter((t): t is string => t !== null).sort();
    // The requests ask for 30 decimals: the exact quotient, as a JSON reader gets it.
    return {
      source: source.key,
      rate: exactQuotient(y.rate, b.rate, 30),
      observation_time: times.at(-1)!,
      legs: [y.rate, b.rate],
    };
  }
  return undefined;
}

function leg(
  data: readonly RefObservation[],
  source: RefSource,
  currency: string,
  day: string,
  selection: 'earliest' | 'latest',
): Leg | undefined {
  if (currency === source.relativeCurrency) return { rate: 1, time: null };
  const sameDay = data
    .filter((o) => o.source === source.key && o.symbol === currency && o.time.slice(0, 10) === day)
    .sort((a, b) => (a.time < b.time ? -1 : 1));
  const pick = selection === 'earliest' ? sameDay[0] : sameDay.at(-1);
  return pick && { rate: pick.rate, time: pick.time };
}

const PERIOD_START: Record<string, (date: string) => string> = {
  day: (d) => d,
  week: (d) => {
    const weekday = (new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
    return addDays(d, -weekday);
  },
  month: (d) => `${d.slice(0, 7)}-01`,
  quarter: (d) =>
    `${d.slice(0, 5)}${String(Math.floor((Number(d.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`,
  year: (d) => `${d.slice(0, 4)}-01-01`,
  decade: (d) => `${String(Math.floor(Number(d.slice(0, 4)) / 10) * 10).padStart(4, '0')}-01-01`,
  century: (d) => `${String(Math.floor(Number(d.slice(0, 4)) / 100) * 100).padStart(4, '0')}-01-01`,
  millennium: (d) =>
    `${String(Math.floor(Number(d.slice(0, 4)) / 1000) * 1000).padStart(4, '0')}-01-01`,
};

/** date -> symbol -> entries, for start..end, newest first (CONTRACT §4). */
export function referenceRange(
  data: readonly RefObservation[],
  start: string,
  end: string,
  request: RefRequest,
  aggregation: string,
): Map<string, Map<string, RefEntry[]>> {
  const keys = new Set([start]);
  const sourceKeys = new Set(request.sources.map((s) => s.key));
  for (const o of data) {
    const day = o.time.slice(0, 10);
    if (sourceKeys.has(o.source) && day > start && day <= end) keys.add(day);
  }
  const daily = new Map<string, Map<string, RefEntry[]>>();
  for (const key of [...keys].sort()) {
    const row = referenceDate(data, key, request);
    if (row.size > 0) daily.set(key, row);
  }
  if (aggregation === 'day') return new Map([...daily].reverse());
  const periods = new Map<string, Map<string, RefEntry[]>>();
  const ordered = [...daily];
  if (request.selection === 'latest') ordered.reverse();
  for (const [key, row] of ordered) {
    const period = PERIOD_START[aggregation]!(key);
    const group = periods.get(period) ?? new Map<string, RefEntry[]>();
    for (const [symbol, entries] of row) if (!group.has(symbol)) group.set(symbol, entries);
    periods.set(period, group);
  }
  return new Map(
    [...periods]
      .sort((a, b) => (a[0] < b[0] ? 1 : -1))
      .map(([period, group]) => [period, new Map([...group].sort())]),
  );
}
