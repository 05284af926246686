import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/**
 * The TRM (tasa representativa del mercado) dataset on the open-data portal, rows whose
 * validity starts within the window, oldest first. The query is sent percent-encoded as the
 * portal's own links spell it.
 */
export function banrepUrl(window: FetchWindow): string {
  const at = (date: string) => `%27${date}T00:00:00.000%27`;
  return (
    'https://www.datos.gov.co/resource/32sa-8pi3.json?$limit=50000&$order=vigenciadesde%20ASC' +
    `&$where=vigenciadesde%3E=${at(window.from)}%20AND%20vigenciadesde%3C=${at(window.to)}`
  );
}

/**
 * Rows `{ valor, unidad: "COP", vigenciadesde, vigenciahasta }`: COP per USD, valid from
 * `vigenciadesde` through `vigenciahasta` (a rate set on Friday holds over the weekend and
 * holidays). Each rate is stored once, on the first day it is valid.
 */
export function parseBanrepJson(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text);
  if (!Array.isArray(body)) throw new Error('expected a JSON array of TRM rows');
  const builder = new ObservationBuilder(source);
  for (const row of body as { valor?: string; unidad?: string; vigenciadesde?: string }[]) {
    const date =
      /^(\d{4}-\d{2}-\d{2})T/.exec(row.vigenciadesde ?? '')?.[1] ?? String(row.vigenciadesde);
    if (row.unidad !== 'COP') {
      builder.drop(`TRM on ${date} is in ${String(row.unidad)}, not COP`);
      continue;
    }
    builder.addPrice(date, 'USD', readDecimal(row.valor));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'banrep',
  name: 'Banco de la República (Colombia), TRM',
  relativeCurrency: 'COP',
  url: 'https://www.datos.gov.co/Econom-a-y-Finanzas/Tasa-de-Cambio-Representativa-del-Mercado-TRM/32sa-8pi3/about_data',
  countryCode: 'CO',
  timeZone: 'America/Bogota',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-03',
  publishWindowUtc: { from: '00:00', to: '01:30', weekdaysOnly: true },
  fetches:
    'TRM (USD) from the `32sa-8pi3` open-data JSON, stored on the first day of validity, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      const batch = await fetchBatch(context, banrepUrl(chunk), (text) =>
        parseBanrepJson(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
