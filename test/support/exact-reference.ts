/**
 * Exact decimal division written plainly with BigInt, independent of the service's own code,
 * to check rates against: the quotient of two decimal texts, rounded half away from zero.
 */
function toFraction(text: string): { numerator: bigint; denominator: bigint } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a positive decimal: ${text}`);
  const [, integer, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(integer! + fraction);
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}

/** a / b rounded half away from zero to `decimals` places, as plain text without trailing zeros. */
export function exactQuotientText(a: number | string, b: number | string, decimals = 16): string {
  const x = toFraction(String(a));
  const y = toFraction(String(b));
  // (x.n / x.d) / (y.n / y.d) x 10^decimals
  const numerator = x.numerator * y.denominator * 10n ** BigInt(decimals);
  const denominator = x.denominator * y.numerator;
  let scaled = numerator / denominator;
  if (2n * (numerator % denominator) >= denominator) scaled += 1n;
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const integer = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${integer}.${fraction}` : integer;
}

/** The same, as the number a JSON reader gets. */
export function exactQuotient(a: number, b: number, decimals = 16): number {
  return Number(exactQuotientText(a, b, decimals));
}

/** Significant digits of a number's text, plain or in exponent notation. */
export function significantDigits(text: string): number {
  return text.replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/**
 * Whether `value` is read as the reciprocal of a price (a quote stored inverted): its text has
 * 15 significant digits or more, and it is the double nearest 1 / p for a p of at most 10.
 */
export function isReciprocalOfPrice(value: number): boolean {
  if (significantDigits(String(value)) < 15) return false;
  for (let digits = 1; digits <= 10; digits++) {
    if (1 / Number((1 / value).toPrecision(digits)) === value) return true;
  }
  return false;
}
