import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

export const BCCH_USER_ENV = 'BCCH_USER';
export const BCCH_PASS_ENV = 'BCCH_PASS';

/** Daily series of the BDE, CLP per unit: the observed dollar, then nominal rates by currency. */
export const BCCH_SERIES: Readonly<Record<string, string>> = {
  'F073.TCO.PRE.Z.D': 'USD',
  'F072.CLP.EUR.N.O.D': 'EUR',
  'F072.CLP.GBP.N.O.D': 'GBP',
  'F072.CLP.JPY.N.O.D': 'JPY',
  'F072.CLP.CAD.N.O.D': 'CAD',
  'F072.CLP.AUD.N.O.D': 'AUD',
  'F072.CLP.CNY.N.O.D': 'CNY',
  'F072.CLP.BRL.N.O.D': 'BRL',
};

export function bcchUrl(
  series: string,
  window: FetchWindow,
  credentials: { user: string; pass: string },
): string {
  return (
    `https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?firstdate=${window.from}` +
    `&function=GetSeries&lastdate=${window.to}&pass=${credentials.pass}` +
    `&timeseries=${series}&user=${credentials.user}`
  );
}

/**
 * `GetSeries`: `Codigo` 0 and `Series.Obs[]` with `indexDateString` (dd-mm-yyyy), `value` in CLP
 * per unit and `statusCode`; days without a figure say "ND" with value "NaN". Any other `Codigo`
 * (wrong credentials, unknown series) is an error with its `Descripcion`.
 */
export function parseBcchJson(text: string, series: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as {
    Codigo?: number;
    Descripcion?: string;
    Series?: {
      seriesId?: string;
      Obs?: { indexDateString?: string; value?: string; statusCode?: string }[];
    };
  };
  if (body?.Codigo !== 0) {
    throw new Error(`BDE answered ${String(body?.Codigo)}: ${String(body?.Descripcion)}`);
  }
  const code = BCCH_SERIES[series];
  if (!code) throw new Error(`unknown series ${series}`);
  if (body.Series?.seriesId !== series || !Array.isArray(body.Series.Obs)) {
    throw new Error(`expected Series.Obs[] of ${series}`);
  }
  const builder = new ObservationBuilder(source);
  for (const obs of body.Series.Obs) {
    if (obs.statusCode === 'ND') continue;
    const day = /^(\d{2})-(\d{2})-(\d{4})$/.exec(obs.indexDateString ?? '');
    const date = day ? `${day[3]}-${day[2]}-${day[1]}` : String(obs.indexDateString);
    builder.addPrice(date, code, readDecimal(obs.value));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bcch',
  name: 'Banco Central de Chile, observed dollar and nominal rates',
  relativeCurrency: 'CLP',
  url: 'https://si3.bcentral.cl/Siete/es/Siete/API',
  countryCode: 'CL',
  timeZone: 'America/Santiago',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '1990-01-02',
  publishWindowUtc: { from: '16:00', to: '18:30', weekdaysOnly: true },
  fetches: 'BDE `GetSeries` JSON (user and password), 8 series, a year per request',
  apiKey: { variables: [BCCH_USER_ENV, BCCH_PASS_ENV] },
  async *fetch(window, context) {
    const credentials = {
      user: encodeURIComponent(context.env[BCCH_USER_ENV] ?? ''),
      pass: encodeURIComponent(context.env[BCCH_PASS_ENV] ?? ''),
    };
    for (const chunk of yearChunks(window)) {
      const all = Object.keys(BCCH_SERIES);
      for (const series of all) {
        const batch = await fetchBatch(context, bcchUrl(series, chunk, credentials), (text) =>
          parseBcchJson(text, series, publisher),
        );
        yield series === all.at(-1) ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
