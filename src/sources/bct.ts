import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, weekdays } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The archive page answers a form post naming the day. */
export const BCT_URL = 'https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp';

export function bctFormBody(date: string): string {
  return `input=${date}&langue=_AN`;
}

/**
 * The archive page's first table, "Cours Moyens des Devises Cotées en dinar tunisien sur le
 * Marché des Changes interbancaire" of "Journée du dd/mm/yyyy": name, ISO code (Sigle), units
 * (Unité: 1, 10, 100 or 1000) and TND per those units with a decimal comma. The second table
 * (rates for bank notes and travellers' cheques) is not read.
 */
export function parseBctHtml(text: string, source: ObservationSource): Extraction {
  const day = /Journ\S*e du\s*(?:&nbsp;|\s)*(\d{2})\/(\d{2})\/(\d{4})/.exec(text);
  if (!day) throw new Error('expected "Journée du dd/mm/yyyy" above the rates table');
  const date = `${day[3]}-${day[2]}-${day[1]}`;
  const start = text.indexOf('<tbody>', day.index);
  const end = text.indexOf('</table>', start);
  if (start < 0 || end < 0)
    throw new Error('the rates table is missing or not closed (cut short?)');
  const builder = new ObservationBuilder(source);
  const cells = (row: string) =>
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      cell[1]!
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;/g, ' ')
        .trim(),
    );
  for (const row of text.slice(start, end).matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
    const [name, code, units, value] = cells(row[1]!);
    if (value === undefined) {
      builder.drop(`row '${name ?? ''}' has no value column`);
      continue;
    }
    builder.addPrice(date, code!, readDecimal(value, true), readDecimal(units!));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bct',
  name: 'Banque Centrale de Tunisie, interbank average rates',
  relativeCurrency: 'TND',
  url: 'https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp',
  countryCode: 'TN',
  timeZone: 'Africa/Tunis',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2004-12-23',
  publishWindowUtc: { from: '17:00', to: '19:30', weekdaysOnly: true },
  fetches: 'archive HTML page of a day (form post), interbank table, `Unité` applied',
  async *fetch(window, context) {
    for (const day of weekdays(window)) {
      const batch = await fetchBatch(context, BCT_URL, (text) => parseBctHtml(text, publisher), {
        html: true,
        charsets: ['utf-8', 'iso-8859-1'],
        body: bctFormBody(day),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Referer: 'https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp',
        },
      });
      yield completing(batch, day);
    }
  },
};
