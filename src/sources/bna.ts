import { isCurrencyCode, redenominatedCode } from './currencies.js';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const BNA_SERVICE = 'https://www.bna.ao/service/rest/taxas/get';

/** The currencies BNA quotes. */
export const BNA_CURRENCIES_URL = `${BNA_SERVICE}/lista/moedas`;

/** One currency's mid reference rates (tipocambio M) over a window. */
export function bnaUrl(currency: string, window: FetchWindow): string {
  return (
    `${BNA_SERVICE}/evolucao/taxa/intervalo?datafim=${window.to}&datainicio=${window.from}` +
    `&moeda=${currency}&tipocambio=M`
  );
}

/** Gold, listed as XAU, is quoted in US dollars per ounce, not in kwanzas. */
const NOT_IN_KWANZAS = new Set(['XAU']);

function genericResponse(text: string): unknown[] {
  const body = parseJson(text) as { genericResponse?: unknown; success?: boolean };
  if (body?.success === false) throw new Error('BNA answered success: false');
  if (!Array.isArray(body?.genericResponse))
    throw new Error('expected JSON with genericResponse[]');
  return body.genericResponse;
}

/**
 * `lista/moedas`: the codes worth a request, those that are currencies quoted in kwanzas (not
 * the kwanza itself, gold, or "XDRUSD").
 */
export function parseBnaCurrencies(text: string, source: ObservationSource): string[] {
  return (genericResponse(text) as { codigoMoeda?: string }[])
    .map((currency) => String(currency.codigoMoeda))
    .filter(
      (code) =>
        isCurrencyCode(code) && code !== source.relativeCurrency && !NOT_IN_KWANZAS.has(code),
    );
}

/**
 * `evolucao/taxa/intervalo`: `{taxa, tipoCambio: "M", data, codigoMoeda}` rows, AOA per unit.
 * Only the requested currency's rows are read: asked for ALL (the Albanian lek), BNA answers
 * with the rows of every currency, which their own requests read.
 */
export function parseBnaRates(
  text: string,
  currency: string,
  source: ObservationSource,
): Extraction {
  const builder = new ObservationBuilder(source);
  for (const row of genericResponse(text) as {
    taxa?: number | string;
    tipoCambio?: string;
    data?: string;
    codigoMoeda?: string;
  }[]) {
    if (row.codigoMoeda !== currency) continue;
    const date = String(row.data).slice(0, 10);
    if (row.tipoCambio !== 'M') {
      builder.drop(`${currency} on ${date}: rate type ${row.tipoCambio} is not the mid rate`);
      continue;
    }
    // BNA still lists STD and VEF, at the levels of the STN and VES that replaced them.
    builder.addPrice(date, redenominatedCode(currency, date), readDecimal(row.taxa));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bna',
  name: 'Banco Nacional de Angola, reference rates',
  relativeCurrency: 'AOA',
  url: 'https://www.bna.ao/Conteudos/Mercados/listaTaxasCambioReferencia.aspx',
  countryCode: 'AO',
  timeZone: 'Africa/Luanda',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-01',
  publishWindowUtc: { from: '15:00', to: '17:30', weekdaysOnly: true },
  fetches: 'JSON mid reference rates, a currency and a year per request, from its currency list',
  async *fetch(window, context) {
    const list = await fetchBatch(context, BNA_CURRENCIES_URL, (text) => ({
      observations: [],
      dropped: 0,
      dropReasons: [],
      currencies: parseBnaCurrencies(text, publisher),
    }));
    for (const chunk of yearChunks(window)) {
      for (const [index, currency] of list.currencies.entries()) {
        const batch = await fetchBatch(context, bnaUrl(currency, chunk), (text) =>
          parseBnaRates(text, currency, publisher),
        );
        yield index === list.currencies.length - 1 ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
