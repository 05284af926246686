import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

export const BANXICO_API_KEY_ENV = 'BANXICO_API_KEY';

/**
 * SIE series, MXN per unit: the FIX for the US dollar (by its date of determination) and the
 * rates of the SDR basket currencies and the Canadian dollar derived from it.
 */
export const BANXICO_SERIES: Readonly<Record<string, string>> = {
  SF43718: 'USD',
  SF46410: 'EUR',
  SF46407: 'GBP',
  SF46406: 'JPY',
  SF60632: 'CAD',
};

export function banxicoUrl(window: FetchWindow): string {
  return (
    `https://www.banxico.org.mx/SieAPIRest/service/v1/series/${Object.keys(BANXICO_SERIES).join(',')}` +
    `/datos/${window.from}/${window.to}`
  );
}

/**
 * `bmx.series[]`, each `{ idSerie, datos: [{ fecha: "dd/mm/yyyy", dato }] }`, MXN per unit
 * (JPY included); "N/E" marks a day without a figure. A series the request did not name is
 * dropped.
 */
export function parseBanxicoJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as {
    bmx?: { series?: { idSerie?: string; datos?: { fecha?: string; dato?: string }[] }[] };
  };
  const series = body?.bmx?.series;
  if (!Array.isArray(series)) throw new Error('expected SIE JSON with bmx.series[]');
  const builder = new ObservationBuilder(source);
  for (const { idSerie, datos } of series) {
    const code = BANXICO_SERIES[idSerie ?? ''];
    for (const { fecha, dato } of datos ?? []) {
      const day = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(fecha ?? '');
      const date = day ? `${day[3]}-${day[2]}-${day[1]}` : String(fecha);
      if (!code) {
        builder.drop(`series ${String(idSerie)} on ${date} is not one of the rates requested`);
      } else if (dato !== 'N/E') {
        builder.addPrice(date, code, readDecimal(dato));
      }
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'banxico',
  name: 'Banco de México, FIX and foreign currency rates',
  relativeCurrency: 'MXN',
  url: 'https://www.banxico.org.mx/SieAPIRest/service/v1/',
  countryCode: 'MX',
  timeZone: 'America/Mexico_City',
  fixingTime: '12:00',
  isDst: false,
  historyStart: '1991-11-12',
  publishWindowUtc: { from: '18:00', to: '20:30', weekdaysOnly: true },
  fetches: 'SIE API JSON (token): FIX and EUR, GBP, JPY, CAD series, a year per request',
  apiKey: { variables: [BANXICO_API_KEY_ENV] },
  async *fetch(window, context) {
    const headers = { 'Bmx-Token': context.env[BANXICO_API_KEY_ENV] ?? '' };
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(
        context,
        banxicoUrl(chunk),
        (text) => parseBanxicoJson(text, publisher),
        { headers },
      );
      yield completing(batch, chunk.to);
    }
  },
};
