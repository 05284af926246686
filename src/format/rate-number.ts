/**
 * A rate as JSON/CSV/XML number text: rounded half away from zero to at most `decimals` digits
 * after the point, trailing zeros dropped, never in exponent notation (CONTRACT §6).
 * Rounding works on the shortest decimal text that reads back as the same double, so 1.005
 * with 2 decimals gives 1.01, as a person reading 1.005 expects.
 */
export function formatRate(value: number, decimals: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite rate: ${value}`);
  // Most rates need no rounding: their shortest text is already short enough.
  const plain = String(value);
  if (!plain.includes('e')) {
    const point = plain.indexOf('.');
    if (point < 0 || plain.length - point - 1 <= decimals) return plain;
  }
  const negative = value < 0;
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  // value = 0.<digits> x 10^pointPosition
  const pointPosition = Number(exponentText) + 1;
  let integer: string;
  let fraction: string;
  if (pointPosition <= 0) {
    integer = '0';
    fraction = '0'.repeat(-pointPosition) + digits;
  } else if (pointPosition >= digits.length) {
    integer = digits + '0'.repeat(pointPosition - digits.length);
    fraction = '';
  } else {
    integer = digits.slice(0, pointPosition);
    fraction = digits.slice(pointPosition);
  }
  if (fraction.length > decimals) {
    const roundUp = fraction.charCodeAt(decimals) >= 53; // '5'
    fraction = fraction.slice(0, decimals);
    if (roundUp) [integer, fraction] = incrementLastDigit(integer, fraction);
  }
  fraction = fraction.replace(/0+$/, '');
  const text = fraction ? `${integer}.${fraction}` : integer;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

function incrementLastDigit(integer: string, fraction: string): [string, string] {
  const all = (integer + fraction).split('');
  let index = all.length - 1;
  while (index >= 0 && all[index] === '9') all[index--] = '0';
  if (index < 0) all.unshift('1');
  else all[index] = String(Number(all[index]) + 1);
  const split = all.length - fraction.length;
  return [all.slice(0, split).join(''), all.slice(split).join('')];
}
