import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { isPositiveDecimal, midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** Every rate since 2001 in one answer. */
export const CBN_URL = 'https://www.cbn.gov.ng/api/GetAllExchangeRates';

/**
 * The CBN names currencies, with variants over the years. WAUA (the West African Unit of
 * Account) has no ISO code and is dropped; CFA here is the West African franc.
 */
const NAME_TO_CODE: Record<string, string> = {
  CFA: 'XOF',
  'DANISH KRONA': 'DKK',
  'DANISH KRONER': 'DKK',
  EURO: 'EUR',
  'JAPANESE YEN': 'JPY',
  YEN: 'JPY',
  'POUND STERLING': 'GBP',
  'POUNDS STERLING': 'GBP',
  RIYAL: 'SAR',
  'SAUDI RIYAL': 'SAR',
  SDR: 'XDR',
  'SOUTH AFRICAN RAND': 'ZAR',
  'SWISS FRANC': 'CHF',
  'UAE DIRHAM': 'AED',
  'US DOLLAR': 'USD',
  'YUAN/RENMINBI': 'CNY',
};

interface CbnRate {
  currency?: string;
  ratedate?: string;
  buyingrate?: string | number;
  centralrate?: string | number;
  sellingrate?: string | number;
}

/** NGN per unit to buy and to sell; the stored rate is from their midpoint. */
export function parseCbnJson(text: string, source: ObservationSource): Extraction {
  const rates = parseJson(text);
  if (!Array.isArray(rates)) throw new Error('expected a JSON array of rates');
  // The whole history comes with every answer: none at all is a failed answer, not a quiet day.
  if (rates.length === 0) throw new Error('an empty list of rates');
  const builder = new ObservationBuilder(source);
  for (const rate of rates as CbnRate[]) {
    const name = String(rate.currency ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .toUpperCase();
    const code = NAME_TO_CODE[name];
    if (!code) {
      builder.drop(`unknown currency name '${rate.currency}'`);
      continue;
    }
    const mid = midpoint(readDecimal(rate.buyingrate), readDecimal(rate.sellingrate));
    const price = isPositiveDecimal(mid) ? mid : readDecimal(rate.centralrate);
    builder.addPrice(String(rate.ratedate ?? '').slice(0, 10), code, price);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbn',
  name: 'Central Bank of Nigeria, official rates',
  relativeCurrency: 'NGN',
  url: 'https://www.cbn.gov.ng/rates/exchratebycurrency.asp',
  countryCode: 'NG',
  timeZone: 'Africa/Lagos',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2001-12-10',
  publishWindowUtc: { from: '15:00', to: '17:30', weekdaysOnly: true },
  fetches: '`GetAllExchangeRates` JSON (whole history), names mapped to codes, buy/sell midpoint',
  async *fetch(_window, context) {
    yield await fetchBatch(context, CBN_URL, (text) => parseCbnJson(text, publisher));
  },
};
