import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const PTAX_URL =
  'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/' +
  'CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)';

/** The currencies PTAX quotes. */
export const BCB_CURRENCIES = [
  'AUD',
  'CAD',
  'CHF',
  'DKK',
  'EUR',
  'GBP',
  'JPY',
  'NOK',
  'SEK',
  'USD',
];

/** PTAX takes dates as MM-DD-YYYY. */
const ptaxDate = (date: string): string => {
  const [year, month, day] = date.split('-');
  return `${month}-${day}-${year}`;
};

/** One currency's closing bulletins (Fechamento) over a date range. */
export function bcbUrl(currency: string, window: FetchWindow): string {
  return (
    `${PTAX_URL}?$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json` +
    `&@dataFinalCotacao=%27${ptaxDate(window.to)}%27&@dataInicial=%27${ptaxDate(window.from)}%27` +
    `&@moeda=%27${currency}%27`
  );
}

interface PtaxQuote {
  cotacaoCompra?: number;
  cotacaoVenda?: number;
  dataHoraCotacao?: string;
  tipoBoletim?: string;
}

/** OData `value[]`: BRL per unit to buy and to sell; the stored rate is from their midpoint. */
export function parseBcbJson(
  text: string,
  currency: string,
  source: ObservationSource,
): Extraction {
  const body = parseJson(text) as { value?: PtaxQuote[] };
  if (!Array.isArray(body?.value)) throw new Error('expected an OData answer with value[]');
  const builder = new ObservationBuilder(source);
  for (const quote of body.value) {
    if (quote.tipoBoletim !== undefined && quote.tipoBoletim !== 'Fechamento') continue;
    const date = String(quote.dataHoraCotacao ?? '').slice(0, 10);
    const mid = midpoint(readDecimal(quote.cotacaoCompra), readDecimal(quote.cotacaoVenda));
    builder.addPrice(date, currency, mid);
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcb',
  name: 'Banco Central do Brasil, PTAX',
  relativeCurrency: 'BRL',
  url: 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/',
  countryCode: 'BR',
  timeZone: 'America/Sao_Paulo',
  fixingTime: '13:00',
  isDst: false,
  historyStart: '1984-11-28',
  publishWindowUtc: { from: '16:00', to: '18:30', weekdaysOnly: true },
  fetches: 'PTAX OData closing bulletins, buy/sell midpoint, 10 currencies, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      for (const currency of BCB_CURRENCIES) {
        const batch = await fetchBatch(context, bcbUrl(currency, chunk), (text) =>
          parseBcbJson(text, currency, publisher),
        );
        // The year is complete once its last currency is in.
        yield currency === BCB_CURRENCIES.at(-1) ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
