import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { fetchBatch, parseJson } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The forex page's table (wpDataTables id 193), asked for whole: `length=-1` is every row. */
export const CBK_URL =
  'https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193';
export const CBK_BODY = 'draw=1&start=0&length=-1';

/**
 * The table's currency names. Most are shillings per unit (per 100 yen); the four "KES / X"
 * rows are the other way round: units of the East African currency per shilling.
 */
const CURRENCIES: Record<string, { code: string; units?: string; perShilling?: boolean }> = {
  'US DOLLAR': { code: 'USD' },
  'STG POUND': { code: 'GBP' },
  EURO: { code: 'EUR' },
  'SA RAND': { code: 'ZAR' },
  'KES / USHS': { code: 'UGX', perShilling: true },
  'KES / TSHS': { code: 'TZS', perShilling: true },
  'KES / RWF': { code: 'RWF', perShilling: true },
  'KES / BIF': { code: 'BIF', perShilling: true },
  'AE DIRHAM': { code: 'AED' },
  'CAN $': { code: 'CAD' },
  'S FRANC': { code: 'CHF' },
  'JPY (100)': { code: 'JPY', units: '100' },
  'SW KRONER': { code: 'SEK' },
  'NOR KRONER': { code: 'NOK' },
  'DAN KRONER': { code: 'DKK' },
  'IND RUPEE': { code: 'INR' },
  'HONGKONG DOLLAR': { code: 'HKD' },
  'SINGAPORE DOLLAR': { code: 'SGD' },
  'SAUDI RIYAL': { code: 'SAR' },
  'CHINESE YUAN': { code: 'CNY' },
  'AUSTRALIAN $': { code: 'AUD' },
};

/** dd/mm/yyyy as the table prints it. */
function isoFromSlashed(text: string): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  return match ? `${match[3]}-${match[2]}-${match[1]}` : text;
}

/**
 * wpDataTables JSON: `data` rows of [dd/mm/yyyy, currency name, mean rate]. The table repeats
 * some days row for row; a repeat with the same figure is the same observation, one with
 * another figure is dropped, since which one holds cannot be told.
 */
export function parseCbkJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as { data?: unknown };
  if (!Array.isArray(body?.data)) throw new Error('expected wpDataTables JSON with data[]');
  const builder = new ObservationBuilder(source);
  const seen = new Map<string, string>();
  for (const row of body.data as unknown[]) {
    if (!Array.isArray(row) || row.length < 3) {
      builder.drop(`row ${JSON.stringify(row)} is not [date, currency, rate]`);
      continue;
    }
    const [dateText, name, rateText] = row.map((cell) => String(cell ?? '').trim()) as [
      string,
      string,
      string,
    ];
    const currency = CURRENCIES[name.toUpperCase()];
    if (!currency) {
      builder.drop(`'${name}' is not a known currency name`);
      continue;
    }
    const date = isoFromSlashed(dateText);
    const rate = readDecimal(rateText);
    const key = `${date} ${currency.code}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      if (earlier !== rate) builder.drop(`${key}: published twice, ${earlier} and ${rate}`);
      continue;
    }
    seen.set(key, rate);
    if (currency.perShilling) builder.add(date, currency.code, rate);
    else builder.addPrice(date, currency.code, rate, currency.units ?? '1');
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'cbk',
  name: 'Central Bank of Kenya, indicative exchange rates',
  relativeCurrency: 'KES',
  url: 'https://www.centralbank.go.ke/forex/',
  countryCode: 'KE',
  timeZone: 'Africa/Nairobi',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2003-09-12',
  publishWindowUtc: { from: '08:00', to: '10:30', weekdaysOnly: true },
  fetches: 'the forex table (wpDataTables JSON) whole, by POST; per-100 yen, KES/X rows inverted',
  async *fetch(_window, context) {
    // The table is served whole: one request holds every published day.
    yield await fetchBatch(context, CBK_URL, (text) => parseCbkJson(text, publisher), {
      body: CBK_BODY,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
  },
};
