import { MAX_DECIMAL_DIGITS, formatDecimal, parseDecimal, type Decimal } from '../exact-decimal.js';
import { SOURCES, findSource } from '../sources/registry.js';

/**
 * Reads a raw query string for one endpoint, keeping the first value of each parameter it
 * expects and describing everything else as a problem (CONTRACT §8): unknown names are ignored,
 * a known name in other case is taken as that parameter, repeats keep the first value.
 */
export class RawParams {
  readonly problems: string[] = [];
  private readonly values = new Map<string, string>();
  private readonly malformed = new Set<string>();

  constructor(
    queryString: string,
    expected: readonly string[],
    notApplicable: ReadonlyMap<string, string> = new Map(),
  ) {
    for (const [name, value, wellFormed] of queryPairs(queryString)) {
      const canonical = expected.includes(name)
        ? name
        : expected.find((known) => known === name.toLowerCase());
      if (canonical === undefined) {
        const reason = notApplicable.get(name.toLowerCase());
        this.problems.push(
          reason
            ? `parameter '${clip(name)}' ignored: ${reason}`
            : `unknown parameter '${clip(name)}' ignored`,
        );
        continue;
      }
      if (canonical !== name)
        this.problems.push(`parameter '${clip(name)}' read as '${canonical}'`);
      if (this.values.has(canonical)) {
        this.problems.push(`parameter '${canonical}' repeated: the first value is used`);
        continue;
      }
      this.values.set(canonical, value);
      if (!wellFormed) {
        this.malformed.add(canonical);
        this.problems.push(
          `parameter '${canonical}' is not percent-encoded UTF-8: read as '${clip(value)}'`,
        );
      }
    }
  }

  /** The value of `name` was not percent-encoded UTF-8 (`%ZZ`, `%E9`) and was read leniently. */
  isMalformed(name: string): boolean {
    return this.malformed.has(name);
  }

  /**
   * The value given without surrounding spaces, or undefined when absent or empty (an empty
   * value is reported).
   */
  get(name: string): string | undefined {
    return this.getAsWritten(name)?.trim();
  }

  /**
   * The value exactly as given, spaces included, or undefined when absent or empty (an empty
   * value is reported). Numbers are read from this: ' 5' (or '+5' in a query string, where '+'
   * is a space) is not `[0-9]+` (CONTRACT §8).
   */
  getAsWritten(name: string): string | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (value.trim() === '') {
      this.problems.push(`parameter '${name}' is empty: the default is used`);
      return undefined;
    }
    return value;
  }

  /** Reports that `name` had an unusable value and its default stands. */
  rejected(
    name: string,
    value: string,
    expectation: string,
    fallback: string | number | boolean,
  ): void {
    this.problems.push(
      `${name} '${clip(value)}' is not ${expectation}: ${String(fallback)} is used`,
    );
  }
}

/**
 * The name=value pairs of a query string, decoded as URLSearchParams does ('+' is a space), and
 * whether the value was well formed: URLSearchParams keeps `%ZZ` as it is and turns bytes that
 * are not UTF-8 into U+FFFD without a word.
 */
function* queryPairs(queryString: string): Generator<[string, string, boolean]> {
  // As URLSearchParams, one leading '?' is not part of the first name.
  const pairs = queryString.startsWith('?') ? queryString.slice(1) : queryString;
  for (const piece of pairs.split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const rawName = equals < 0 ? piece : piece.slice(0, equals);
    const rawValue = equals < 0 ? '' : piece.slice(equals + 1);
    const value = strictlyDecoded(rawValue);
    yield [
      strictlyDecoded(rawName) ?? leniently(rawName),
      value ?? leniently(rawValue),
      value !== undefined,
    ];
  }
}

function strictlyDecoded(text: string): string | undefined {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

function leniently(text: string): string {
  return new URLSearchParams(`x=${text}`).get('x') ?? '';
}

/** User text made safe for the ASCII-only X-Error header and short enough to read. */
export function clip(text: string, length = 40): string {
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > length ? `${printable.slice(0, length)}...` : printable;
}

export function readEnum<T extends string>(
  params: RawParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = params.get(name);
  if (value === undefined) return fallback;
  const match = allowed.find((option) => option === value.toLowerCase());
  if (match === undefined) params.rejected(name, value, `one of ${allowed.join(', ')}`, fallback);
  return match ?? fallback;
}

export function readBoolean(params: RawParams, name: string, fallback: boolean): boolean {
  return readEnum(params, name, ['true', 'false'] as const, fallback ? 'true' : 'false') === 'true';
}

/**
 * A positive integer. Above `max` it is reduced to `max` and reported; above `saturation` it is
 * reduced silently, because every larger value means the same (more sources than exist).
 */
export function readPositiveInteger(
  params: RawParams,
  name: string,
  fallback: number,
  {
    max = Number.POSITIVE_INFINITY,
    saturation = 1_000_000,
  }: { max?: number; saturation?: number } = {},
): number {
  const value = params.getAsWritten(name);
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || /^0+$/.test(value)) {
    params.rejected(name, value, 'a positive integer', fallback);
    return fallback;
  }
  const number = Number(value);
  if (number > max) {
    params.problems.push(`${name} '${clip(value)}' is above its maximum: ${max} is used`);
    return max;
  }
  return Math.min(number, saturation);
}

/**
 * A positive decimal in plain notation (12, 0.5, .25, 1000.125); anything else, zero, or more
 * than MAX_DECIMAL_DIGITS digits is reported and `fallback` stands.
 */
export function readPositiveDecimal(params: RawParams, name: string, fallback: Decimal): Decimal {
  const value = params.getAsWritten(name);
  if (value === undefined) return fallback;
  const digits = value.replace('.', '');
  const parsed = /^(\d+\.?\d*|\.\d+)$/.test(value) ? parseDecimal(value) : undefined;
  if (parsed === undefined || parsed.coefficient <= 0n || digits.length > MAX_DECIMAL_DIGITS) {
    params.rejected(
      name,
      value,
      `a positive decimal number of at most ${MAX_DECIMAL_DIGITS} digits`,
      formatDecimal(fallback),
    );
    return fallback;
  }
  return parsed;
}

/**
 * A comma-separated list of names from `known` (case forgiven), or null for `*`; undefined when
 * absent or empty (commas alone included: reported). Unknown items are dropped and reported;
 * the list is never widened when none remain.
 */
export function readNameList(
  params: RawParams,
  name: string,
  normalise: (item: string) => string,
  known: (item: string) => boolean,
  what: string,
): string[] | null | undefined {
  const value = params.get(name);
  if (value === undefined) return undefined;
  if (value === '*') return null;
  const items = value.split(',');
  // Only commas (`symbols=,`) names nothing: an empty value, as `symbols=` is.
  if (items.every((raw) => raw.trim() === '')) {
    params.problems.push(`parameter '${name}' is empty: the default is used`);
    return undefined;
  }
  const kept: string[] = [];
  for (const raw of items) {
    const item = normalise(raw.trim());
    if (item === '' || kept.includes(item)) continue;
    if (known(item)) kept.push(item);
    else params.problems.push(`unknown ${what} '${clip(raw.trim())}' dropped from ${name}`);
  }
  return kept;
}

/** `symbols`: known symbols in upper case, or null for all (absent or `*`). */
export function readSymbols(
  params: RawParams,
  isKnownSymbol: (symbol: string) => boolean,
): string[] | null {
  return readNameList(params, 'symbols', (s) => s.toUpperCase(), isKnownSymbol, 'symbol') ?? null;
}

/**
 * `sources`: registered source keys in the order given; `*` every registered source in
 * `default_precedence` order (CONTRACT §2); absent, the endpoint's `defaults`.
 */
export function readSources(params: RawParams, defaults: readonly string[]): string[] {
  const keys = readNameList(
    params,
    'sources',
    (s) => s.toLowerCase(),
    (key) => findSource(key) !== undefined,
    'source',
  );
  if (keys === null) return SOURCES.map((source) => source.key);
  return keys ?? [...defaults];
}
