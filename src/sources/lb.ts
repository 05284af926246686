import { addDays } from '../dates.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, requireXmlRoot, xmlChildText } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The last day of the litas: from 2015-01-01 the euro replaced it and no LTL rates were set. */
export const LAST_LITAS_DATE = '2014-12-31';

/** The official litas rates (`tp=LT`) of one date. */
export function lbUrl(date: string): string {
  return `https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?dt=${date}&tp=LT`;
}

/**
 * `<FxRates>` with one `<FxRate>` per currency: its `<Dt>` and two `<CcyAmt>` pairs, `LTL x`
 * for `CCY n` (n of 1 to 10,000 units): LTL per n units. A pair without the litas on one side is
 * not a litas rate and is dropped. The service reports refusals in `<OprlErr>`.
 */
export function parseLbXml(text: string, source: ObservationSource): Extraction {
  const error = /<OprlErr>([\s\S]*?)<\/OprlErr>/.exec(text);
  if (error) {
    throw new Error(
      `the service refused the request: ${error[1]!.replace(/<[^>]*>/g, ' ').trim()}`,
    );
  }
  requireXmlRoot(text, 'FxRates');
  const builder = new ObservationBuilder(source);
  for (const rate of text.matchAll(/<FxRate>([\s\S]*?)<\/FxRate>/g)) {
    const date = xmlChildText(rate[1]!, 'Dt') ?? '';
    const amounts = [...rate[1]!.matchAll(/<CcyAmt>([\s\S]*?)<\/CcyAmt>/g)].map((pair) => ({
      code: xmlChildText(pair[1]!, 'Ccy') ?? '',
      amount: readDecimal(xmlChildText(pair[1]!, 'Amt')),
    }));
    const price = amounts.find((pair) => pair.code === source.relativeCurrency);
    const other = amounts.find((pair) => pair.code !== source.relativeCurrency);
    if (amounts.length !== 2 || !price || !other) {
      builder.drop(`${date}: ${amounts.map((pair) => pair.code).join('/')} is not a litas rate`);
      continue;
    }
    builder.addPrice(date, other.code, price.amount, other.amount);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'lb',
  name: 'Bank of Lithuania, official litas rates',
  relativeCurrency: 'LTL',
  url: 'https://www.lb.lt/en/exchange-rates',
  countryCode: 'LT',
  timeZone: 'Europe/Vilnius',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '1994-04-01',
  publishWindowUtc: { from: '14:00', to: '16:30', weekdaysOnly: true },
  fetches:
    '`FxRates.asmx/getFxRates` XML (`tp=LT`), LTL per 1 to 10,000 units, a date per request, until the euro',
  async *fetch(window, context) {
    const to = window.to < LAST_LITAS_DATE ? window.to : LAST_LITAS_DATE;
    for (let date = window.from; date <= to;) {
      const batch = await fetchBatch(context, lbUrl(date), (text) => parseLbXml(text, publisher));
      yield completing(batch, date);
      date = addDays(date, 1);
    }
  },
};
