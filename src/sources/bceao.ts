import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, weekdays } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** The table of one day's reference rates, as the rates page loads it. */
export function bceaoUrl(date: string): string {
  return `https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=${date}`;
}

/** BCEAO's French currency names, without accents, lower case, to ISO 4217. */
const BCEAO_NAMES: Record<string, string> = {
  euro: 'EUR',
  'dollar us': 'USD',
  'yen japonais': 'JPY',
  'couronne danoise': 'DKK',
  'couronne suedoise': 'SEK',
  'livre sterling': 'GBP',
  'couronne norvegienne': 'NOK',
  // Printed "thèque" for "tchèque".
  'couronne theque': 'CZK',
  'couronne tcheque': 'CZK',
  'forint hongrois': 'HUF',
  'zloty polonais': 'PLN',
  'franc suisse': 'CHF',
  'dollar canadien': 'CAD',
  'dollar australien': 'AUD',
  'dollar neo-zelandais': 'NZD',
  'rand sud-africain': 'ZAR',
  'yuan chinois': 'CNY',
  'roupie indienne': 'INR',
  'baht thailandais': 'THB',
  'real bresilien': 'BRL',
  'dollar singapourien': 'SGD',
  'nouvelle livre turque': 'TRY',
  'dirham emirats arabes unis': 'AED',
  'nouveau shekel': 'ILS',
  'won coreen': 'KRW',
  'dollar hong kong': 'HKD',
  'ryal saudien': 'SAR',
  'riyal saoudien': 'SAR',
  'dinar koweitien': 'KWD',
};

const FRENCH_MONTHS = [
  'janvier',
  'fevrier',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'aout',
  'septembre',
  'octobre',
  'novembre',
  'decembre',
];

/**
 * A name as the page prints it, for lookup: the page sometimes carries its UTF-8 bytes as
 * literal `\xC3\xA9` escapes; accents, case and spacing do not matter.
 */
export function bceaoNameKey(name: string): string {
  const decoded = name.replace(/(?:\\x[0-9a-f]{2})+/gi, (escapes) =>
    Buffer.from(escapes.replaceAll('\\x', ''), 'hex').toString('utf8'),
  );
  return decoded
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * "Cours des devises du lundi 16 mars 2026" over a two-column table: currency name, XOF per 1
 * unit with a decimal comma and dots between thousands ("1.953,1500").
 */
export function parseBceaoHtml(text: string, source: ObservationSource): Extraction {
  const heading = /Cours des devises du\s+\S+\s+(\d{1,2})\s+(\S+)\s+(\d{4})/i.exec(text);
  if (!heading) throw new Error('expected "Cours des devises du <date>" above the rates table');
  const month = FRENCH_MONTHS.indexOf(bceaoNameKey(heading[2]!));
  if (month < 0) throw new Error(`unknown month in "${heading[0]}"`);
  const date = `${heading[3]}-${String(month + 1).padStart(2, '0')}-${heading[1]!.padStart(2, '0')}`;
  if (!/<\/table>/i.test(text)) throw new Error('the rates table is not closed (cut short?)');
  const builder = new ObservationBuilder(source);
  for (const row of text.matchAll(/<tr>\s*<td>([^<]*)<\/td>\s*<td>([^<]*)<\/td>\s*<\/tr>/gi)) {
    const name = row[1]!.trim();
    const code = BCEAO_NAMES[bceaoNameKey(name)];
    if (!code) {
      builder.drop(`'${name}' is no currency BCEAO is known to quote`);
      continue;
    }
    builder.addPrice(date, code, readDecimal(row[2]!.replaceAll('.', ''), true));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bceao',
  name: "Banque Centrale des Etats de l'Afrique de l'Ouest, reference rates",
  relativeCurrency: 'XOF',
  url: 'https://www.bceao.int/fr/cours/cours-de-reference-des-principales-devises-contre-Franc-CFA',
  // Seat of the bank, in Dakar; the rates serve the eight WAEMU states.
  countryCode: 'SN',
  timeZone: 'Africa/Dakar',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2014-01-02',
  publishWindowUtc: { from: '10:00', to: '12:30', weekdaysOnly: false },
  fetches: 'HTML table of a day, French names mapped to codes, decimal commas',
  async *fetch(window, context) {
    for (const day of weekdays(window)) {
      const batch = await fetchBatch(
        context,
        bceaoUrl(day),
        (text) => parseBceaoHtml(text, publisher),
        {
          html: true,
        },
      );
      yield completing(batch, day);
    }
  },
};
