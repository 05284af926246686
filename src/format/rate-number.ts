import { divideRounded, formatDecimal, type Decimal } from '../exact-decimal.js';

/**
 * Rates as JSON/CSV/XML number text (CONTRACT §6): rounded half away from zero to at most
 * `decimals` digits after the point, trailing zeros dropped, never in exponent notation.
 *
 * A stored rate stands for its shortest decimal text, which is the publisher's figure (1.0863
 * is 1.0863, not the binary fraction closest to it). A cross rate is the exact decimal quotient
 * of two such figures, rounded once; no double arithmetic touches the digits.
 *
 * A quote the publisher prints the other way round (92.5058 RUB per USD) is stored as the
 * double nearest 1 / 92.5058, whose shortest text has 15 to 17 digits (but 1 in 200). Such a
 * rate stands for the exact reciprocal of the price it was made from (see priceOf), so that the
 * price comes back as printed (USD in RUB is 92.5058, not 92.5057999999999993).
 */

/** One rate as stored, rounded: formatRate(1.005, 2) is '1.01', as a person reading 1.005 expects. */
export function formatRate(value: number, decimals: number): string {
  if (!(value > 0) || !Number.isFinite(value))
    throw new RangeError(`not a positive rate: ${value}`);
  if (Number.isInteger(value) && value <= Number.MAX_SAFE_INTEGER) return integerText(value);
  const parsed = shortestDigits(value);
  const price = priceOf(parsed, value);
  if (price !== null) return formatDecimal(divideRounded(ONE, decimalOf(price), decimals));
  const { exponent } = parsed;
  // Most rates need no rounding: their shortest text is already short enough. (Powers of ten
  // are exact in a double up to 10^22; a figure with more decimals takes the text path.)
  if (
    parsed.value !== undefined &&
    exponent < 0 &&
    -exponent <= decimals &&
    -exponent < POWERS_OF_TEN.length
  ) {
    const unit = POWERS_OF_TEN[-exponent]!;
    const fraction = parsed.value % unit;
    return `${integerText((parsed.value - fraction) / unit)}.${paddedText(fraction, -exponent)}`;
  }
  const digits = digitsOf(parsed);
  // value = digits x 10^exponent: keep `decimals` digits after the point, round on the next one.
  const kept = digits.length + exponent + decimals;
  if (kept <= 0) return kept === 0 && digits.charCodeAt(0) >= 53 ? placePoint('1', decimals) : '0';
  if (kept >= digits.length) return placePoint(digits + '0'.repeat(kept - digits.length), decimals);
  let rounded = digits.slice(0, kept);
  if (digits.charCodeAt(kept) >= 53) rounded = incremented(rounded);
  return placePoint(rounded, decimals);
}

/**
 * numerator / denominator, both positive stored rates, as the exact decimal quotient of their
 * shortest texts rounded half away from zero to `decimals` digits: formatQuotient(6.3945, 0.9, 2)
 * is '7.11' (6.3945 / 0.9 is exactly 7.105), where double division gives 7.1.
 */
export function formatQuotient(numerator: number, denominator: number, decimals: number): string {
  if (denominator === 1) return formatRate(numerator, decimals);
  const n = cachedDigits(numerator, numeratorCache);
  const d = cachedDigits(denominator, denominatorCache);
  if (n.price !== null || d.price !== null) return reciprocalQuotient(n, d, ONE, decimals);
  return quotientOfDigits(n, d, decimals);
}

/**
 * n / d x amount, rounded to `decimals`, where n or d is the reciprocal of a price: 1/p / d is
 * 1 / (p x d), n / (1/q) is n x q, and (1/p) / (1/q) is q / p, each one exact decimal division.
 */
function reciprocalQuotient(n: Digits, d: Digits, amount: Decimal, decimals: number): string {
  const [nOver, nUnder] = fractionOf(n);
  const [dOver, dUnder] = fractionOf(d);
  // (nOver / nUnder) / (dOver / dUnder) x amount
  const dividend = product(product(nOver, dUnder), amount);
  return formatDecimal(divideRounded(dividend, product(nUnder, dOver), decimals));
}

/** A stored rate as a fraction: its figure over 1, or 1 over the price it is the reciprocal of. */
function fractionOf(digits: Digits): [Decimal, Decimal] {
  return digits.price === null ? [decimalOf(digits), ONE] : [ONE, decimalOf(digits.price)];
}

function product(a: Decimal, b: Decimal): Decimal {
  return { coefficient: a.coefficient * b.coefficient, scale: a.scale + b.scale };
}

function decimalOf(digits: Digits): Decimal {
  return { coefficient: BigInt(digitsOf(digits)), scale: -digits.exponent };
}

const ONE: Decimal = { coefficient: 1n, scale: 0 };

/** n / d rounded to `decimals` (see formatQuotient). */
function quotientOfDigits(n: Digits, d: Digits, decimals: number): string {
  // numerator / denominator = (n.value x 10^shift) / d.value: bring both to integers whose
  // quotient is the answer, then divide in exact integer doubles when they stay small enough.
  const shift = n.exponent - d.exponent;
  if (n.value !== undefined && d.value !== undefined) {
    let dividend = n.value;
    let divisor = d.value;
    let divisorDigits = d.count;
    if (shift > 0) dividend *= POWERS_OF_TEN[shift] ?? Number.POSITIVE_INFINITY;
    else if (shift < 0) {
      divisor *= POWERS_OF_TEN[-shift] ?? Number.POSITIVE_INFINITY;
      divisorDigits -= shift;
    }
    if (dividend <= Number.MAX_SAFE_INTEGER && divisorDigits <= 14) {
      const text = longDivision(dividend, divisor, 15 - divisorDigits, decimals);
      if (text !== undefined) return text;
    }
  }
  return formatDecimal(
    divideRounded(
      { coefficient: BigInt(digitsOf(n)), scale: -n.exponent },
      { coefficient: BigInt(digitsOf(d)), scale: -d.exponent },
      decimals,
    ),
  );
}

/**
 * numerator / denominator x amount, rounded once to `decimals` digits: the product is taken on
 * the exact quotient of the shortest texts (amount=3 on 1/3 gives 1, not 0.9999999999999999).
 */
export function formatScaledQuotient(
  numerator: number,
  denominator: number,
  amount: Decimal,
  decimals: number,
): string {
  if (amount.coefficient === 1n && amount.scale === 0)
    return formatQuotient(numerator, denominator, decimals);
  const n = cachedDigits(numerator, numeratorCache);
  const d = cachedDigits(denominator, denominatorCache);
  if (n.price !== null || d.price !== null) return reciprocalQuotient(n, d, amount, decimals);
  // Usually the amount's digits times the rate's stay an exact integer in a double: then the
  // quotient takes the same fast path as a rate for one unit.
  if (n.value !== undefined && amount.coefficient <= MAX_EXACT_AMOUNT) {
    const value = n.value * Number(amount.coefficient);
    if (value <= MAX_EXACT_DIGITS) {
      // (A numerator's digit count is never read.)
      const scaled = {
        value,
        count: 0,
        exponent: n.exponent - amount.scale,
        text: undefined,
        price: null,
      };
      return quotientOfDigits(scaled, d, decimals);
    }
  }
  return formatDecimal(
    divideRounded(
      {
        coefficient: BigInt(digitsOf(n)) * amount.coefficient,
        scale: amount.scale - n.exponent,
      },
      { coefficient: BigInt(digitsOf(d)), scale: -d.exponent },
      decimals,
    ),
  );
}

/** A positive double's shortest text as an integer and a power of ten: 0.0123 is 123 x 10^-4. */
interface Digits {
  /** The integer, when it has at most 15 digits (so that it is exact). */
  value: number | undefined;
  /** How many digits it has. */
  count: number;
  exponent: number;
  /** The shortest text, when it was printed (values of more than 15 digits). */
  text: string | undefined;
  /** For a stored rate: the price it is the reciprocal of, if it is one (see priceOf). */
  price: Digits | null;
}

/** Significant digits a publisher's price has at most, to be read as one (see priceOf). */
const MAX_PRICE_DIGITS = 10;
/**
 * Significant digits below which a stored rate is always the figure it prints. Feeds print
 * figures of 13 and 14 digits; a reciprocal's double prints in 15 or more (but 1 in 200).
 */
const MIN_RECIPROCAL_DIGITS = 15;

/**
 * The price p whose reciprocal the stored double `value` was made from (1 / p rounded to a
 * double is `value`), when p has at most MAX_PRICE_DIGITS digits and `value`'s own shortest
 * text at least MIN_RECIPROCAL_DIGITS: no publisher prints such a figure, so the value is an
 * inverted quote, and stands for exactly 1 / p. Null for every other value (the reciprocals of
 * 2 and 5 powers are short, and exact, anyway). A long figure a feed printed is misread only
 * when it is also the double nearest 1 / p for a p of 10 digits: about one in a million.
 */
function priceOf(digits: Digits, value: number): Digits | null {
  if (digits.count < MIN_RECIPROCAL_DIGITS) return null;
  // Such a price lies within a few units in the last place of 1 / value: rounded to at most
  // MAX_PRICE_DIGITS digits, 1 / value gives it back (its shortest text drops the zeros).
  const price = Number((1 / value).toPrecision(MAX_PRICE_DIGITS));
  return 1 / price === value ? shortestDigits(price) : null;
}

function shortestDigits(value: number): Digits {
  // Publishers' figures have a few decimals: the smallest k for which value x 10^k is an
  // integer that divides back to exactly value gives the shortest text without printing it.
  // (With at most 15 digits, only one k-decimal number lies within a double's rounding
  // interval, so that number is the shortest text.)
  for (let power = 0; power <= 15; power++) {
    const scaled = value * POWERS_OF_TEN[power]!;
    if (scaled > MAX_EXACT_DIGITS) break;
    if (Number.isInteger(scaled) && scaled / POWERS_OF_TEN[power]! === value) {
      let count = 1;
      while (count < 15 && scaled >= POWERS_OF_TEN[count]!) count++;
      let digits = scaled;
      let exponent = -power;
      // 1200 is 12 x 10^2: trailing zeros move into the exponent, as in the text.
      while (digits >= 10 && digits % 10 === 0) {
        digits /= 10;
        exponent++;
        count--;
      }
      return { value: digits, count, exponent, text: undefined, price: null };
    }
  }
  return digitsOfText(value);
}

/** A value at most 15 digits long is exact in a double, and so is each step on it. */
const MAX_EXACT_DIGITS = 999_999_999_999_999;
const MAX_EXACT_AMOUNT = BigInt(MAX_EXACT_DIGITS);

function digitsOfText(value: number): Digits {
  const text = String(value);
  let exponent = 0;
  let end = text.length;
  const e = text.indexOf('e');
  if (e >= 0) {
    exponent = Number(text.slice(e + 1));
    end = e;
  }
  // One pass over the characters: the digits without the point, leading or trailing zeros.
  let number = 0;
  let count = 0;
  let pendingZeros = 0;
  let afterPoint = false;
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 46) {
      afterPoint = true;
      continue;
    }
    if (afterPoint) exponent--;
    if (code === 48) {
      if (count > 0) pendingZeros++;
      continue;
    }
    if (pendingZeros > 0) {
      number *= POWERS_OF_TEN[pendingZeros]!;
      count += pendingZeros;
      pendingZeros = 0;
    }
    number = number * 10 + (code - 48);
    count++;
  }
  exponent += pendingZeros;
  return { value: count <= 15 ? number : undefined, count, exponent, text, price: null };
}

/** The integer digits of a shortest text (see Digits). */
function digitsOf({ text, value }: Digits): string {
  if (text === undefined) return integerText(value!);
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '') || '0';
}

// The same denominator (a base leg) serves every symbol of a date; numerators repeat less, but
// one entry costs nothing.
const numeratorCache = { key: Number.NaN, digits: undefined as Digits | undefined };
const denominatorCache = { key: Number.NaN, digits: undefined as Digits | undefined };

function cachedDigits(value: number, cache: typeof numeratorCache): Digits {
  if (value !== cache.key || cache.digits === undefined) {
    if (!(value > 0) || !Number.isFinite(value))
      throw new RangeError(`not a positive rate: ${value}`);
    const digits = shortestDigits(value);
    digits.price = priceOf(digits, value);
    cache.key = value;
    cache.digits = digits;
  }
  return cache.digits;
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/**
 * dividend / divisor (exact integers in doubles, divisor below 10^14) rounded half up to
 * `decimals` digits, as text; undefined in the rare case where rounding carries across digit
 * groups (the caller then takes the arbitrary-precision path). Long division taking `step`
 * digits at a time, so that remainder x 10^step stays below 2^53 and every operation is exact.
 */
function longDivision(
  dividend: number,
  divisor: number,
  step: number,
  decimals: number,
): string | undefined {
  let integer = Math.floor(dividend / divisor);
  let remainder = dividend - integer * divisor;
  if (remainder < 0) {
    integer--;
    remainder += divisor;
  } else if (remainder >= divisor) {
    integer++;
    remainder -= divisor;
  }
  let fraction = '';
  let left = decimals;
  while (left > 0 && remainder > 0) {
    const take = left < step ? left : step;
    left -= take;
    remainder *= POWERS_OF_TEN[take]!;
    let chunk = Math.floor(remainder / divisor);
    remainder -= chunk * divisor;
    if (remainder < 0) {
      chunk--;
      remainder += divisor;
    } else if (remainder >= divisor) {
      chunk++;
      remainder -= divisor;
    }
    if (left === 0) {
      // After the last digit group, what is left decides the rounding (half up, away from zero).
      if (remainder * 2 >= divisor) {
        chunk++;
        if (chunk === POWERS_OF_TEN[take]) return undefined;
      }
    } else if (remainder > 0) {
      fraction += paddedText(chunk, take);
      continue;
    }
    // The last group: printed without its trailing zeros (when it is all zeros, those of the
    // groups before it are dropped below).
    if (chunk === 0) break;
    let width = take;
    while (chunk % 10 === 0) {
      chunk /= 10;
      width--;
    }
    return `${integerText(integer)}.${fraction}${paddedText(chunk, width)}`;
  }
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  return end > 0 ? `${integerText(integer)}.${fraction.slice(0, end)}` : integerText(integer);
}

/*
 * Integers as text, three digits at a time from tables. String(n) gives the same text, but V8
 * keeps the numbers it turns into text in a cache that outlives young garbage: with two or three
 * per rate, that cache moved a long answer's digit strings into the old generation (about 2 MB
 * per 75 MB of json), which only a full collection frees. The tables are also a little faster.
 */

/** The decimal text of a non-negative integer below 2^53. */
function integerText(value: number): string {
  if (value < 1000) return DIGITS[value]!;
  const low = value % 1000;
  return integerText((value - low) / 1000) + PADDED_DIGITS[3]![low]!;
}

/** A digit group of `width` digits with its leading zeros: (12, 4) gives '0012'. */
function paddedText(group: number, width: number): string {
  let text = '';
  while (width > 3) {
    const low = group % 1000;
    text = PADDED_DIGITS[3]![low]! + text;
    group = (group - low) / 1000;
    width -= 3;
  }
  return PADDED_DIGITS[width]![group]! + text;
}

const DIGITS = Array.from({ length: 1000 }, (_, value) => String(value));
/** PADDED_DIGITS[width][value]: value in `width` digits, for widths 0 to 3. */
const PADDED_DIGITS = [0, 1, 2, 3].map((width) =>
  DIGITS.slice(0, 10 ** width).map((text) => (width === 0 ? '' : text.padStart(width, '0'))),
);

/** Decimal digits plus one in the last place: '199' gives '200', '99' gives '100'. */
function incremented(digits: string): string {
  let index = digits.length - 1;
  while (index >= 0 && digits.charCodeAt(index) === 57) index--;
  if (index < 0) return '1' + '0'.repeat(digits.length);
  return (
    digits.slice(0, index) +
    String.fromCharCode(digits.charCodeAt(index) + 1) +
    '0'.repeat(digits.length - index - 1)
  );
}

/** Integer digits of value x 10^decimals, shown as the value: ('12345', 3) gives '12.345'. */
function placePoint(digits: string, decimals: number): string {
  let integer: string;
  let fraction: string;
  if (digits.length > decimals) {
    integer = digits.slice(0, digits.length - decimals);
    fraction = digits.slice(digits.length - decimals);
  } else {
    integer = '0';
    fraction = '0'.repeat(decimals - digits.length) + digits;
  }
  let start = 0;
  while (start < integer.length - 1 && integer.charCodeAt(start) === 48) start++;
  if (start > 0) integer = integer.slice(start);
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  return end > 0 ? `${integer}.${fraction.slice(0, end)}` : integer;
}
