import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import {
  PublisherFormatError,
  completing,
  fetchBatch,
  parseJson,
  windowChunks,
} from './publisher-fetch.js';
import { isoFromEnglish, midpoint, readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

const API = 'https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.IndicadoresSitioExterno';
/** The anonymous token the indicators site asks for before it serves a table. */
export const BCCR_TOKEN_URL = `${API}.ServiciosUsuario.API/Token/GenereCSRF`;
/** Columns (days) per table; the service answers this many days up to `FechaFin`. */
const DAYS_PER_TABLE = 100;

/** Table 1 (variable group 1): the reference buying and selling rates of the US dollar. */
export function bccrUrl(window: FetchWindow): string {
  return (
    `${API}.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro` +
    `?CantidadSeriesAMostrar=${DAYS_PER_TABLE}&FechaFin=${window.to}` +
    `&FechaInicio=${window.from}T00:00:00&IdGrupoVariable=1`
  );
}

/** Buy (317) and sell (318) indicators of the table. */
const BUY = 317;
const SELL = 318;

interface BccrTable {
  columnas?: { field?: string; tituloIngles?: string }[];
  indicadoresRaiz?: { idIndicador?: number; series?: Record<string, string | null> }[];
}

/**
 * `ObtenerDatosCuadro`: `columnas` name the days ("15 dec 2025" in `tituloIngles`, field
 * `serieN`), `indicadoresRaiz` hold the buying (317) and selling (318) rates in CRC per USD,
 * `serieNIngles` with a decimal point (`serieN` has a decimal comma). Their midpoint is stored,
 * for every calendar day the table shows.
 */
export function parseBccrTable(text: string, source: ObservationSource): Extraction {
  const body = parseJson(text) as BccrTable;
  const columns = body?.columnas;
  const indicators = body?.indicadoresRaiz;
  if (!Array.isArray(columns) || !Array.isArray(indicators)) {
    throw new Error('expected a BCCR table with columnas[] and indicadoresRaiz[]');
  }
  const buy = indicators.find((i) => i.idIndicador === BUY)?.series;
  const sell = indicators.find((i) => i.idIndicador === SELL)?.series;
  if (!buy || !sell) throw new Error('the table lacks the buying or selling rate');
  const builder = new ObservationBuilder(source);
  for (const { field, tituloIngles } of columns) {
    if (!field || !/^serie\d+$/.test(field)) continue;
    const [day = '', month = '', year = ''] = (tituloIngles ?? '').trim().split(/\s+/);
    const date = isoFromEnglish(day, month, year) ?? String(tituloIngles);
    builder.addPrice(
      date,
      'USD',
      midpoint(readDecimal(buy[`${field}Ingles`]), readDecimal(sell[`${field}Ingles`])),
    );
  }
  return builder.result();
}

/** The token is a JWT, three base64url parts. */
export function readBccrToken(text: string): string {
  const token = text.trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new Error('expected a token');
  return token;
}

export const publisher: Publisher = {
  key: 'bccr',
  name: 'Banco Central de Costa Rica, reference rate',
  relativeCurrency: 'CRC',
  url: 'https://sdd.bccr.fi.cr/es/IndicadoresEconomicos/Inicio/Contenedor/6',
  countryCode: 'CR',
  timeZone: 'America/Costa_Rica',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2000-01-03',
  publishWindowUtc: { from: '18:00', to: '20:30', weekdaysOnly: true },
  fetches:
    'indicators table 1 JSON after a CSRF token (USD buy/sell midpoint), 100 days per request',
  async *fetch(window, context) {
    const chunks = windowChunks(window, DAYS_PER_TABLE);
    if (chunks.length === 0) return;
    const fetched = await context.http.requestText(BCCR_TOKEN_URL);
    let token: string;
    try {
      token = readBccrToken(fetched.text);
    } catch (error) {
      throw new PublisherFormatError(`${fetched.url}: ${(error as Error).message}`);
    }
    const headers = { 'Token-Csrf': token, Origin: 'https://sdd.bccr.fi.cr' };
    for (const chunk of chunks) {
      const batch = await fetchBatch(
        context,
        bccrUrl(chunk),
        (text) => parseBccrTable(text, publisher),
        { headers },
      );
      yield completing(batch, chunk.to);
    }
  },
};
