import { MAX_DECIMAL_DIGITS, roundDecimal } from '../exact-decimal.js';

const displayNames = ((): Intl.DisplayNames | null => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency' });
  } catch {
    return null;
  }
})();

/** A currency's English name: the service's when it gives one, else the browser's, else none. */
export function currencyName(code: string, served?: string): string {
  if (served) return served;
  const name = displayNames?.of(code);
  return name && name !== code ? name : '';
}

/**
 * The amount a person typed, as decimal text: "1,250.50", "1 250,5" and "12.5" are read;
 * null when it is not a positive number.
 */
export function readAmount(input: string): string | null {
  let text = input.trim().replace(/[\s_']/g, '');
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, '');
  else if (/^\d+,\d+$/.test(text)) text = text.replace(',', '.');
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  if (!/[1-9]/.test(text)) return null;
  return text;
}

/**
 * An amount read by readAmount as the service's `amount` parameter takes it ("0.5", not ".5";
 * no zeros that add digits), or null when it has more digits than the service takes.
 */
export function amountParam(amount: string): string | null {
  const [whole = '', fraction = ''] = amount.split('.');
  const integer = whole.replace(/^0+/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  const text = decimals ? `${integer}.${decimals}` : integer;
  return text.replace('.', '').length <= MAX_DECIMAL_DIGITS ? text : null;
}

/**
 * A decimal text rounded for reading: at least two decimals and at least four significant
 * digits (half away from zero), grouped by thousands.
 */
export function readableDecimal(text: string): string {
  const [integer = '0', fraction = ''] = text.replace(/^-/, '').split('.');
  const integerDigits = integer.replace(/^0+/, '').length;
  let decimals = Math.max(2, 4 - integerDigits);
  if (integerDigits === 0) {
    const leadingZeros = /^0*/.exec(fraction)?.[0].length ?? 0;
    decimals = Math.max(2, leadingZeros + 4);
  }
  const rounded = roundDecimal(text, decimals);
  const [roundedInteger = '0', roundedFraction = ''] = rounded.split('.');
  return `${groupThousands(roundedInteger)}.${roundedFraction.padEnd(decimals, '0')}`;
}

export function groupThousands(integer: string): string {
  const sign = integer.startsWith('-') ? '-' : '';
  const digits = sign ? integer.slice(1) : integer;
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** An ISO instant as "2024-03-19 15:00 UTC". */
export function utcTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`;
}

/** The UTC calendar date of an instant (CONTRACT: the observation date). */
export function utcDate(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A UTC date `months` months before `date` (the day clamped to the month's length). */
export function monthsBefore(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 - months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}
