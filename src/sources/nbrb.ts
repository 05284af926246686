import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, windowChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const API = 'https://api.nbrb.by/exrates';
/** Today's daily rates (periodicity 0), naming every currency by the bank's id. */
export const NBRB_DAILY_URL = `${API}/rates?periodicity=0`;
/** The dynamics service answers at most a year per request. */
const DYNAMICS_DAYS = 365;

export function nbrbDynamicsUrl(currencyId: number, window: FetchWindow): string {
  return `${API}/rates/dynamics/${currencyId}?endDate=${window.to}&startDate=${window.from}`;
}

/** A currency as the bank identifies it: an id fixed to one code and one scale. */
export interface NbrbCurrency {
  id: number;
  code: string;
  scale: string;
}

export interface NbrbDaily extends Extraction {
  currencies: NbrbCurrency[];
}

interface NbrbRate {
  Cur_ID?: number;
  Date?: string;
  Cur_Abbreviation?: string;
  Cur_Scale?: number;
  Cur_OfficialRate?: number | null;
}

function rateArray(text: string): NbrbRate[] {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of rates');
  return body as NbrbRate[];
}

/**
 * `rates?periodicity=0`: BYN per `Cur_Scale` units (1 to 100000) of `Cur_Abbreviation` on
 * `Date`, for every currency the bank sets daily; their ids and scales serve the history requests.
 */
export function parseNbrbDaily(text: string, source: ObservationSource): NbrbDaily {
  const builder = new ObservationBuilder(source);
  const currencies: NbrbCurrency[] = [];
  for (const rate of rateArray(text)) {
    const code = String(rate.Cur_Abbreviation);
    const scale = readDecimal(rate.Cur_Scale);
    if (typeof rate.Cur_ID === 'number') currencies.push({ id: rate.Cur_ID, code, scale });
    builder.addPrice(
      String(rate.Date).slice(0, 10),
      code,
      readDecimal(rate.Cur_OfficialRate),
      scale,
    );
  }
  return { ...builder.result(), currencies };
}

/**
 * `rates/dynamics/{id}`: one currency's `Cur_OfficialRate` per day (weekends and holidays
 * included), in BYN per the scale that goes with the id.
 */
export function parseNbrbDynamics(
  text: string,
  currency: NbrbCurrency,
  source: ObservationSource,
): Extraction {
  const builder = new ObservationBuilder(source);
  for (const rate of rateArray(text)) {
    if (rate.Cur_ID !== currency.id) {
      builder.drop(`a rate of currency id ${rate.Cur_ID} in the history of ${currency.id}`);
      continue;
    }
    builder.addPrice(
      String(rate.Date).slice(0, 10),
      currency.code,
      readDecimal(rate.Cur_OfficialRate),
      currency.scale,
    );
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'nbrb',
  name: 'National Bank of the Republic of Belarus, official rates',
  relativeCurrency: 'BYN',
  url: 'https://www.nbrb.by/engl/statistics/rates/ratesdaily.asp',
  countryCode: 'BY',
  timeZone: 'Europe/Minsk',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2016-07-01',
  publishWindowUtc: { from: '09:00', to: '11:30', weekdaysOnly: true },
  fetches:
    'JSON: the daily rates (`Cur_Scale` applied), then the `dynamics` of each currency, a year per request',
  async *fetch(window, context) {
    // Today's list names the currencies (by the bank's ids) whose history is then requested.
    const daily = await fetchBatch(context, NBRB_DAILY_URL, (text) =>
      parseNbrbDaily(text, publisher),
    );
    yield daily;
    for (const chunk of windowChunks(window, DYNAMICS_DAYS)) {
      for (const [index, currency] of daily.currencies.entries()) {
        const batch = await fetchBatch(context, nbrbDynamicsUrl(currency.id, chunk), (text) =>
          parseNbrbDynamics(text, currency, publisher),
        );
        yield index === daily.currencies.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
