import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, parseJson, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The escudo's last day: from 1999 the euro replaced it, and the series end. */
export const BDP_LAST_DATE = '1998-12-31';

/** One page of BPstat's daily exchange rates against the escudo (dataset of domain 29). */
export function bdpUrl(window: FetchWindow, page: number): string {
  return (
    'https://bpstat.bportugal.pt/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/' +
    `?dim_cats=40:4263&lang=EN&obs_since=${window.from}&obs_to=${window.to}&page=${page}`
  );
}

/** Codes in BPstat's series labels that ISO 4217 spells otherwise: the ECU is XEU. */
const BDP_CODES: Record<string, string> = { ECU: 'XEU' };

const COUNTERPARTY = '12';
const DATE = 'reference_date';

interface JsonStat {
  id?: string[];
  size?: number[];
  value?: (number | null)[] | Record<string, number | null>;
  dimension?: Record<string, { category?: { index?: string[] | Record<string, number> } }>;
  extension?: {
    next_page?: string | null;
    series?: {
      label?: string;
      dimension_category?: { dimension_id?: number; category_id?: number }[];
    }[];
  };
}

/** A JSON-stat category index, as an array or as an object of positions, in position order. */
function categories(index: string[] | Record<string, number> | undefined): string[] {
  if (Array.isArray(index)) return index;
  if (!index) return [];
  return Object.entries(index)
    .sort((a, b) => a[1] - b[1])
    .map(([id]) => id);
}

/**
 * A page of JSON-stat 2.0: a cube of counterparty currency x date (the other dimensions have one
 * category each), values in escudos per unit. The ISO code of each series is in its label
 * ("US, Dollars (USD) against Escudo - daily"); a page's cube may also hold currencies whose
 * series are listed on the neighbouring page, which are read there. Missing values are dropped.
 * `nextPage` says whether BPstat has another page.
 */
export function parseBdpJsonStat(
  text: string,
  source: ObservationSource,
): Extraction & { nextPage: boolean } {
  const body = parseJson(text) as JsonStat;
  const ids = body?.id;
  const sizes = body?.size;
  if (!Array.isArray(ids) || !Array.isArray(sizes) || ids.length !== sizes.length || !body.value) {
    throw new Error('expected a JSON-stat dataset with id, size and value');
  }
  const axis = ids.indexOf(COUNTERPARTY);
  const dateAxis = ids.indexOf(DATE);
  if (axis < 0 || dateAxis < 0)
    throw new Error('expected counterparty currency and date dimensions');
  if (sizes.some((size, i) => i !== axis && i !== dateAxis && size !== 1)) {
    throw new Error('expected one category in every dimension but currency and date');
  }
  const strides = sizes.map((_, i) =>
    sizes.slice(i + 1).reduce((product, size) => product * size, 1),
  );
  const currencies = categories(body.dimension?.[COUNTERPARTY]?.category?.index);
  const dates = categories(body.dimension?.[DATE]?.category?.index);
  const values = body.value;
  const builder = new ObservationBuilder(source);
  for (const series of body.extension?.series ?? []) {
    const label = series.label ?? '';
    const category = series.dimension_category?.find(
      (d) => String(d.dimension_id) === COUNTERPARTY,
    );
    const position = currencies.indexOf(String(category?.category_id));
    if (position < 0) throw new Error(`series '${label}' is not in the page's cube`);
    const printed = /\(([A-Z]{3})\)/.exec(label)?.[1];
    if (!printed) {
      builder.drop(`series '${label}' names no currency code`);
      continue;
    }
    const code = BDP_CODES[printed] ?? printed;
    for (const [d, date] of dates.entries()) {
      const index = position * strides[axis]! + d * strides[dateAxis]!;
      const value = (values as Record<number, number | null | undefined>)[index];
      if (value === null || value === undefined) {
        builder.drop(`${code} on ${date}: no value`);
        continue;
      }
      builder.addPrice(date, code, readDecimal(value));
    }
  }
  return { ...builder.result(), nextPage: Boolean(body.extension?.next_page) };
}

export const publisher: Publisher = {
  key: 'bdp',
  name: 'Banco de Portugal, escudo exchange rates (to 1998)',
  relativeCurrency: 'PTE',
  url: 'https://bpstat.bportugal.pt/',
  countryCode: 'PT',
  timeZone: 'Europe/Lisbon',
  fixingTime: '00:00',
  isDst: true,
  historyStart: '1987-01-02',
  // A closed history: nothing new is published.
  publishWindowUtc: { from: '00:00', to: '00:00', weekdaysOnly: true },
  fetches: 'BPstat JSON-stat pages, escudos per unit, 1987 to 1998, a year per request',
  async *fetch(window, context) {
    const to = window.to < BDP_LAST_DATE ? window.to : BDP_LAST_DATE;
    if (window.from > to) return;
    for (const chunk of yearChunks({ from: window.from, to })) {
      for (let page = 1; ; page++) {
        const { nextPage, ...batch } = await fetchBatch(context, bdpUrl(chunk, page), (text) =>
          parseBdpJsonStat(text, publisher),
        );
        if (!nextPage) {
          yield completing(batch, chunk.to);
          break;
        }
        yield batch;
      }
    }
  },
};
