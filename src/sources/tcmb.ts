import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

export const TCMB_API_KEY_ENV = 'TCMB_API_KEY';

/** The currencies of the indicative rates EVDS serves as daily series (TP.DK.<code>.A/S.YTL). */
export const TCMB_CURRENCIES = [
  'AED',
  'AUD',
  'AZN',
  'CAD',
  'CHF',
  'CNY',
  'DKK',
  'EUR',
  'GBP',
  'JPY',
  'KRW',
  'KWD',
  'KZT',
  'NOK',
  'PKR',
  'QAR',
  'RON',
  'RUB',
  'SAR',
  'SEK',
  'USD',
] as const;

/** The series are TRY per 1 unit, except the yen's, per 100. */
const UNITS: Record<string, string> = { JPY: '100' };

const trDate = (date: string): string => date.split('-').reverse().join('-');

/** Buying (A) and selling (S) series of every currency, one request for a window of days. */
export function tcmbUrl(window: FetchWindow): string {
  const series = TCMB_CURRENCIES.flatMap((code) => [`TP.DK.${code}.A.YTL`, `TP.DK.${code}.S.YTL`]);
  return (
    `https://evds3.tcmb.gov.tr/igmevdsms-dis/series=${series.join('-')}` +
    `&startDate=${trDate(window.from)}&endDate=${trDate(window.to)}&type=json&frequency=1`
  );
}

/**
 * `items[]`: one row per calendar day, `Tarih` dd-mm-yyyy, `TP_DK_<code>_A_YTL` (buying) and
 * `TP_DK_<code>_S_YTL` (selling) as decimal text in TRY per unit (per 100 JPY). Stored as the
 * midpoint. Days the bank published nothing (weekends, holidays) have every value null and are
 * no observations; a currency missing one side on a published day is dropped.
 */
export function parseTcmbJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { items?: unknown };
  if (!Array.isArray(body?.items)) throw new Error('expected JSON with items[]');
  const builder = new ObservationBuilder(source);
  for (const item of body.items as Record<string, unknown>[]) {
    const date = trDate(String(item?.Tarih));
    const series = Object.keys(item).filter((key) => /^TP_DK_[A-Z]{3}_[AS]_YTL$/.test(key));
    if (series.every((key) => item[key] === null || item[key] === '')) continue;
    const codes = new Set(series.map((key) => key.slice(6, 9)));
    for (const code of codes) {
      const buy = readDecimal(item[`TP_DK_${code}_A_YTL`] as string | null | undefined);
      const sell = readDecimal(item[`TP_DK_${code}_S_YTL`] as string | null | undefined);
      builder.addPrice(date, code, midpoint(buy, sell), UNITS[code] ?? '1');
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'tcmb',
  name: 'Central Bank of the Republic of Türkiye, indicative exchange rates',
  relativeCurrency: 'TRY',
  url: 'https://www.tcmb.gov.tr/wps/wcm/connect/EN/TCMB+EN/Main+Menu/Statistics/Exchange+Rates/Indicative+Exchange+Rates',
  countryCode: 'TR',
  timeZone: 'Europe/Istanbul',
  fixingTime: '15:30',
  isDst: false,
  historyStart: '1996-04-16',
  publishWindowUtc: { from: '12:00', to: '14:30', weekdaysOnly: true },
  fetches: 'EVDS JSON (API key), buying/selling midpoint, JPY per 100, a year per request',
  apiKey: { variables: [TCMB_API_KEY_ENV] },
  async *fetch(window, context) {
    const headers = { key: context.env[TCMB_API_KEY_ENV] ?? '' };
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(
        context,
        tcmbUrl(chunk),
        (text) => parseTcmbJson(text, publisher),
        { headers },
      );
      yield completing(batch, chunk.to);
    }
  },
};
