import {
  divideDecimals,
  formatDecimal,
  meanOfDecimals,
  multiplyDecimals,
  parseDecimal,
  shiftDecimal,
} from '../exact-decimal.js';
import { GRAMS_PER_TROY_OUNCE } from './currencies.js';

/**
 * Numbers and dates as publishers print them. A text that is no such number or date comes back
 * as NaN, unchanged or undefined, so that the observation builder reports it.
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

/**
 * A number as a publisher prints it ('1.0832', '53,8359' with a decimal comma, ' 1,234.5 ', or a
 * JSON number), as plain decimal text: '53.8359', '1234.5', '0.0000001'. The text, not a double,
 * is what the observation builder scales and stores (CONTRACT §6). Anything that is no number
 * comes back as given, for the builder to report.
 */
export function readDecimal(
  text: string | number | null | undefined,
  decimalComma = false,
): string {
  if (text === null || text === undefined) return String(text);
  // A JSON number's shortest text reads back as the same double, so it is the publisher's figure.
  if (typeof text === 'number') return plainDecimal(String(text)) ?? String(text);
  let cleaned = text.trim();
  if (decimalComma) cleaned = cleaned.replace(/\s/g, '').replace(',', '.');
  else cleaned = cleaned.replace(/,/g, '');
  // Most figures are already plain ('183.49'): no need to take them apart (ECB history: 200,000).
  if (PLAIN_DECIMAL.test(cleaned)) return cleaned;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cleaned)) return text.trim();
  return plainDecimal(cleaned) ?? text.trim();
}

const PLAIN_DECIMAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;

function plainDecimal(text: string): string | undefined {
  const value = parseDecimal(text);
  return value && formatDecimal(value);
}

/** True for the decimal text of a number above zero. */
export function isPositiveDecimal(text: string): boolean {
  if (PLAIN_DECIMAL.test(text)) return text !== '0';
  const value = parseDecimal(text);
  return value !== undefined && value.coefficient > 0n;
}

/**
 * The price of one unit, from a price per `units` units (RUB per 100 DZD): exact, by moving the
 * decimal point for the powers of ten publishers use. Any other count of units is divided to 40
 * places, beyond what a double keeps.
 */
export function pricePerUnit(priceText: string, unitsText: string): string {
  const units = parseDecimal(unitsText);
  const digits = units?.coefficient.toString() ?? '';
  if (units && /^10*$/.test(digits)) {
    return shiftDecimal(priceText, units.scale - (digits.length - 1));
  }
  return divideDecimals(priceText, unitsText, 40);
}

/** The exact midpoint of a buying and a selling price; both texts, as given, when either is no number. */
export function midpoint(buyText: string, sellText: string): string {
  if (parseDecimal(buyText) === undefined || parseDecimal(sellText) === undefined) {
    return `${buyText}/${sellText}`;
  }
  return meanOfDecimals(buyText, sellText);
}

/** A price per gram as the price per troy ounce, the unit of ISO 4217's metal codes; exact. */
export function perTroyOunce(pricePerGramText: string): string {
  if (parseDecimal(pricePerGramText) === undefined) return pricePerGramText;
  return multiplyDecimals(pricePerGramText, GRAMS_PER_TROY_OUNCE);
}
