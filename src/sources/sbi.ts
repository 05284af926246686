import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, requireXmlRoot, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/**
 * Group 9 is the official reference rate (buying, middle and selling series of the main
 * currencies and the SDR); group 7 the middle rates of the other currencies the bank registers.
 */
export const SBI_GROUPS = ['9', '7'] as const;

/** The Icelandic names the bank gives its series, and their ISO 4217 codes. */
export const SBI_CURRENCIES: Record<string, string> = {
  'Austurrískur skildingur': 'ATS',
  Bandaríkjadalur: 'USD',
  'Belgískur franki': 'BEF',
  'Dönsk króna': 'DKK',
  Evra: 'EUR',
  'Finnskt mark': 'FIM',
  'Franskur franki': 'FRF',
  'Grísk drakma': 'GRD',
  'Hollenskt gyllini': 'NLG',
  'Japanskt jen': 'JPY',
  Kanadadalur: 'CAD',
  'Norsk króna': 'NOK',
  'Portúgalskur skúti': 'PTE',
  'Spænskur peseti': 'ESP',
  Sterlingspund: 'GBP',
  'Svissneskur franki': 'CHF',
  'Sænsk króna': 'SEK',
  'Sérstök dráttarréttindi- SDR': 'XDR',
  'Írskt pund': 'IEP',
  'Ítölsk líra': 'ITL',
  'Þýskt mark': 'DEM',
  'Brasilískt ríal': 'BRL',
  'Búlgarskt lef': 'BGN',
  'Eistnesk króna': 'EEK',
  'Hong Kong dalur': 'HKD',
  'Indversk rúpía': 'INR',
  'Jamaískur dalur': 'JMD',
  'Króatísk kúna': 'HRK',
  'Kínverskt júan': 'CNY',
  'Kúveiskur denari': 'KWD',
  'Lettneskt lat': 'LVL',
  'Litháenskt litas': 'LTL',
  'Maltnesk líra': 'MTL',
  'Mexíkóskur pesi': 'MXN',
  'Nígerísk næra': 'NGN',
  'Ný-Sjálenskur dalur': 'NZD',
  'Pólskt slot': 'PLN',
  'Rússnesk rúbla': 'RUB',
  'Singapúrskur dalur': 'SGD',
  'Suður-Afrískt rand': 'ZAR',
  'Suðurkóreskt vonn': 'KRW',
  'Sádi-arabískt ríal': 'SAR',
  'Súrinamskur dalur': 'SRD',
  'Tyrknesk líra': 'TRY',
  'Tælenskt bat': 'THB',
  'Tævanskur dalur': 'TWD',
  'Tékknesk króna': 'CZK',
  'Ungversk forinta': 'HUF',
  Ástralíudalur: 'AUD',
  'Ísraelskur sikill': 'ILS',
};

export function sbiUrl(group: string, window: FetchWindow): string {
  return `https://www.sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=${window.from}&DagsTil=${window.to}&GroupID=${group}&Type=xml`;
}

const cdata = (element: string, tag: string): string | undefined =>
  new RegExp(`<${tag}>(?:<!\\[CDATA\\[([\\s\\S]*?)\\]\\]>|([^<]*))</${tag}>`)
    .exec(element)
    ?.slice(1)
    .find((text) => text !== undefined)
    ?.trim();

/** "3/24/2026 12:00:00 AM" (month/day/year) as 2026-03-24. */
export function isoFromSbiDate(text: string): string {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(text.trim());
  return match ? `${match[3]}-${match[1]!.padStart(2, '0')}-${match[2]!.padStart(2, '0')}` : text;
}

/**
 * `<Group>` of `<TimeSeries>`, each named in Icelandic with a description ending "skráð
 * kaupgengi" (buying), "skráð miðgengi" (middle) or "skráð sölugengi" (selling); `<Entry>`
 * elements give ISK per 1 unit on a date. Only the middle rates are read.
 */
export function parseSbiXml(text: string, source: ObservationSource): Extraction {
  requireXmlRoot(text, 'Group');
  const builder = new ObservationBuilder(source);
  for (const series of text.matchAll(/<TimeSeries[\s>][\s\S]*?<\/TimeSeries>/g)) {
    const description = cdata(series[0], 'Description') ?? '';
    if (!/miðgengi\.?$/.test(description)) continue;
    const name = cdata(series[0], 'Name') ?? '';
    const code = SBI_CURRENCIES[name];
    for (const entry of series[0].matchAll(/<Entry>([\s\S]*?)<\/Entry>/g)) {
      const date = isoFromSbiDate(cdata(entry[1]!, 'Date') ?? '');
      if (!code) {
        builder.drop(`${date}: no currency code known for '${name}'`);
        continue;
      }
      builder.addPrice(date, code, readDecimal(cdata(entry[1]!, 'Value')));
    }
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'sbi',
  name: 'Central Bank of Iceland (Seðlabanki Íslands), official exchange rates',
  relativeCurrency: 'ISK',
  url: 'https://www.sedlabanki.is/hagtolur/opinbert-gengi/',
  countryCode: 'IS',
  timeZone: 'Atlantic/Reykjavik',
  fixingTime: '11:00',
  isDst: false,
  historyStart: '1981-01-01',
  publishWindowUtc: { from: '16:00', to: '18:30', weekdaysOnly: true },
  fetches:
    '`xmltimeseries` XML, groups 9 and 7, middle rates by Icelandic name, a year per request',
  async *fetch(window, context) {
    for (const chunk of yearChunks(window)) {
      for (const group of SBI_GROUPS) {
        const batch = await fetchBatch(context, sbiUrl(group, chunk), (text) =>
          parseSbiXml(text, publisher),
        );
        yield group === SBI_GROUPS.at(-1) ? completing(batch, chunk.to) : batch;
      }
    }
  },
};
