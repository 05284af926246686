import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, monthEnds, parseJson } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

const API = 'https://api.bnm.gov.my/public/exchange-rate';
/** The 09:00 session's rates; the API also has 11:30, 12:00 and 17:00 sessions. */
const SESSION = '0900';
/** The API answers only requests that ask for its versioned JSON. */
const HEADERS = { accept: 'application/vnd.BNM.API.v1+json' };

export const BNM_LATEST_URL = `${API}?session=${SESSION}`;

export function bnmMonthUrl(code: string, year: number, month: number): string {
  return `${API}/${code}/year/${year}/month/${month}?session=${SESSION}`;
}

interface BnmRate {
  date?: string;
  buying_rate?: number | null;
  selling_rate?: number | null;
  middle_rate?: number | null;
}

export interface BnmLatest extends Extraction {
  /** The codes the bank quotes today, as its URLs spell them (SDR for XDR). */
  codes: string[];
}

/** The bank's codes that are not ISO 4217's. */
const ISO_CODES: Readonly<Record<string, string>> = { SDR: 'XDR' };

function addRate(
  builder: ObservationBuilder,
  code: string,
  unit: unknown,
  rate: BnmRate | undefined,
): void {
  const date = String(rate?.date);
  const symbol = ISO_CODES[code] ?? code;
  // The middle rate is published; a day with only buying and selling rates gets their midpoint.
  let price: string;
  if (rate?.middle_rate != null) price = readDecimal(rate.middle_rate);
  else if (rate?.buying_rate != null && rate.selling_rate != null) {
    price = midpoint(readDecimal(rate.buying_rate), readDecimal(rate.selling_rate));
  } else {
    builder.drop(`${symbol} on ${date}: no middle, buying or selling rate`);
    return;
  }
  builder.addPrice(date, symbol, price, readDecimal(unit as number));
}

function bnmData(text: string): unknown {
  const body = parseJson(text) as { data?: unknown; message?: unknown };
  if (body?.data === undefined || body.data === null) {
    throw new Error(`expected JSON with data${body?.message ? `: ${String(body.message)}` : ''}`);
  }
  return body.data;
}

/**
 * The latest rates: `data[]` of `currency_code`, `unit` (1 or 100) and `rate` with `date` and
 * `middle_rate`, MYR per `unit` units. Numbers are JSON numbers.
 */
export function parseBnmLatest(text: string, source: ObservationSource): BnmLatest {
  const data = bnmData(text);
  if (!Array.isArray(data)) throw new Error('expected JSON with data[]');
  const builder = new ObservationBuilder(source);
  const codes: string[] = [];
  for (const entry of data as { currency_code?: string; unit?: number; rate?: BnmRate }[]) {
    const code = String(entry.currency_code);
    if (/^[A-Z]{3}$/.test(code)) codes.push(code);
    addRate(builder, code, entry.unit, entry.rate);
  }
  return { ...builder.result(), codes };
}

/** One currency's month: `data` with `currency_code`, `unit` and `rate[]` as in the latest. */
export function parseBnmMonth(text: string, source: ObservationSource): Extraction {
  const data = bnmData(text) as { currency_code?: string; unit?: number; rate?: BnmRate[] };
  if (!Array.isArray(data.rate)) throw new Error('expected JSON with data.rate[]');
  const builder = new ObservationBuilder(source);
  for (const rate of data.rate) addRate(builder, String(data.currency_code), data.unit, rate);
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bnm',
  name: 'Bank Negara Malaysia, interbank rates at 09:00',
  relativeCurrency: 'MYR',
  url: 'https://www.bnm.gov.my/exchange-rates',
  countryCode: 'MY',
  timeZone: 'Asia/Kuala_Lumpur',
  fixingTime: '09:00',
  isDst: false,
  historyStart: '2006-01-03',
  publishWindowUtc: { from: '04:00', to: '06:30', weekdaysOnly: true },
  fetches:
    'OpenAPI JSON: the latest 09:00 middle rates, then each currency month by month, per `unit` (1 or 100)',
  async *fetch(window, context) {
    const options = { headers: HEADERS };
    // Today's rates name the currencies whose months are then requested.
    const latest = await fetchBatch(
      context,
      BNM_LATEST_URL,
      (text) => parseBnmLatest(text, publisher),
      options,
    );
    yield latest;
    for (const end of monthEnds(window)) {
      const [year, month] = end.split('-').map(Number) as [number, number];
      const through = end < window.to ? end : window.to;
      for (const [index, code] of latest.codes.entries()) {
        const batch = await fetchBatch(
          context,
          bnmMonthUrl(code, year, month),
          (text) => parseBnmMonth(text, publisher),
          options,
        );
        // The month is complete once every currency's is in.
        yield index === latest.codes.length - 1 ? completing(batch, through) : batch;
      }
    }
  },
};
