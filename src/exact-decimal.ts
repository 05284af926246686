/**
 * Exact decimal arithmetic on number texts, for the few places where a double would add noise:
 * publishers' per-100 quotes, midpoints and unit conversions at ingest, and cross rates and
 * rounding in responses (CONTRACT §6). A value is an integer coefficient and a count of digits
 * after the point: 12.345 is { coefficient: 12345n, scale: 3 }.
 */
export interface Decimal {
  coefficient: bigint;
  scale: number;
}

/**
 * Digits a decimal request parameter (`amount`) may have: more would only make every rate longer,
 * never truer. The page checks an amount against it before asking.
 */
export const MAX_DECIMAL_DIGITS = 30;

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Reads '12.5', '-0.001', '.5', '1e-7', '1.2E+3'; undefined for anything else (and for exponents beyond ±10000). */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, sign, integer = '', fraction = '', exponentText] = match;
  if (integer === '' && fraction === '') return undefined;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 10_000) return undefined;
  let coefficient = BigInt(integer + fraction);
  if (sign === '-') coefficient = -coefficient;
  let scale = fraction.length - exponent;
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { coefficient, scale };
}

function requireDecimal(text: string): Decimal {
  const value = parseDecimal(text);
  if (!value) throw new RangeError(`not a decimal number: '${text.slice(0, 40)}'`);
  return value;
}

/** Plain notation, no exponent, no trailing zeros after the point: 1.5, 0.0000001, 1200. */
export function formatDecimal({ coefficient, scale }: Decimal): string {
  const negative = coefficient < 0n;
  let digits = (negative ? -coefficient : coefficient).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    const integer = digits.slice(0, digits.length - scale);
    const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
    digits = fraction ? `${integer}.${fraction}` : integer;
  }
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** `text` × 10^`power`, by moving the decimal point: ('59.2589', -2) gives '0.592589'. */
export function shiftDecimal(text: string, power: number): string {
  const value = requireDecimal(text);
  if (power >= 0)
    return formatDecimal({ ...value, coefficient: value.coefficient * 10n ** BigInt(power) });
  return formatDecimal({ ...value, scale: value.scale - power });
}

/** The exact product of two decimal texts: ('2.5', '31.1034768') gives '77.758692'. */
export function multiplyDecimals(left: string, right: string): string {
  const a = requireDecimal(left);
  const b = requireDecimal(right);
  return formatDecimal({ coefficient: a.coefficient * b.coefficient, scale: a.scale + b.scale });
}

/** The exact mean of two decimal texts, as for a buy/sell midpoint: ('1.1', '1.2') gives '1.15'. */
export function meanOfDecimals(left: string, right: string): string {
  const [a, b] = alignScales(requireDecimal(left), requireDecimal(right));
  // Halving adds at most one digit: x/2 = 5x/10.
  return formatDecimal({ coefficient: (a.coefficient + b.coefficient) * 5n, scale: a.scale + 1 });
}

function alignScales(a: Decimal, b: Decimal): [Decimal, Decimal] {
  const scale = Math.max(a.scale, b.scale);
  const widen = (d: Decimal): Decimal => ({
    coefficient: d.coefficient * 10n ** BigInt(scale - d.scale),
    scale,
  });
  return [widen(a), widen(b)];
}

/**
 * `numerator` / `denominator`, rounded half away from zero to at most `decimals` digits after
 * the point, in plain notation with trailing zeros dropped. Exact: no double is involved.
 */
export function divideDecimals(numerator: string, denominator: string, decimals: number): string {
  return formatDecimal(
    divideRounded(requireDecimal(numerator), requireDecimal(denominator), decimals),
  );
}

/** Half-away-from-zero rounding of a decimal text to `decimals` digits after the point. */
export function roundDecimal(text: string, decimals: number): string {
  return divideDecimals(text, '1', decimals);
}

export function divideRounded(a: Decimal, b: Decimal, decimals: number): Decimal {
  if (b.coefficient === 0n) throw new RangeError('division by zero');
  // a/b = (ca / cb) × 10^(sb - sa); we want q = round(a/b × 10^decimals).
  const power = b.scale - a.scale + decimals;
  let numerator = a.coefficient;
  let denominator = b.coefficient;
  if (power >= 0) numerator *= 10n ** BigInt(power);
  else denominator *= 10n ** BigInt(-power);
  const negative = numerator < 0n !== denominator < 0n;
  if (numerator < 0n) numerator = -numerator;
  if (denominator < 0n) denominator = -denominator;
  let quotient = numerator / denominator;
  if ((numerator % denominator) * 2n >= denominator) quotient += 1n;
  return { coefficient: negative ? -quotient : quotient, scale: decimals };
}

/**
 * An engine's exact decimal (DuckDB DECIMAL, PostgreSQL numeric) as a result value: the number
 * when a double holds it exactly as written, else its exact text, as an integer past 2^53 is.
 * 0.1 stays 0.1; 0.100000000000000000000000000001 stays that text, not 0.1.
 */
export function decimalResult(text: string): number | string {
  const value = parseDecimal(text);
  if (!value) return text;
  const number = Number(text);
  const exact = formatDecimal(value);
  return Number.isFinite(number) && formatDecimal(requireDecimal(String(number))) === exact
    ? number
    : exact;
}
