import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, requireCompleteText, yearChunks } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, FetchWindow, Publisher } from './publisher.js';

/** The last Frankfurt fixing against the Deutsche Mark; the euro replaced it from 1999. */
export const BBK_LAST_FIXING = '1998-12-30';

/** Every daily Frankfurt middle rate against DEM (series BBEX3.D.<currency>.DEM.AA.AC.000). */
export function bbkUrl(window: FetchWindow): string {
  return (
    `https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000` +
    `?endPeriod=${window.to}&format=sdmx_csv&startPeriod=${window.from}`
  );
}

/** Fields of one line of the Bundesbank's semicolon-separated CSV; quoted fields allowed. */
function semicolonFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ';') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/**
 * SDMX-CSV with `;`: one row per series and day with `BBK_STD_CURRENCY`, `TIME_PERIOD`,
 * `OBS_VALUE` ("." on days without a fixing) and `BBK_TITLE`, which alone states how many
 * units the DEM price is for: "100 ATS = ... DEM", "1 000 ITL = ... DEM".
 */
export function parseBbkCsv(text: string, source: ObservationSource): Extraction {
  requireCompleteText(text);
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line !== '');
  const header = semicolonFields(lines[0] ?? '');
  const column = (name: string): number => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`CSV header lacks ${name}`);
    return index;
  };
  const [currency, partner, period, value, unit, multiplier, title] = [
    'BBK_STD_CURRENCY',
    'BBK_ERX_PARTNER_CURRENCY',
    'TIME_PERIOD',
    'OBS_VALUE',
    'BBK_UNIT',
    'BBK_UNIT_MULT',
    'BBK_TITLE',
  ].map(column) as [number, number, number, number, number, number, number];
  const builder = new ObservationBuilder(source);
  for (const [index, line] of lines.slice(1).entries()) {
    const fields = semicolonFields(line);
    if (fields.length !== header.length) {
      throw new Error(`line ${index + 2} has ${fields.length} fields, the header ${header.length}`);
    }
    const code = fields[currency]!;
    const date = fields[period]!;
    if (fields[value] === '.') continue;
    const units = /\/\s*(\d[\d ]*?)\s+([A-Z]{3})\s*=\s*\.\.\.\s*([A-Z]{3})\b/.exec(fields[title]!);
    if (
      fields[partner] !== source.relativeCurrency ||
      fields[unit] !== source.relativeCurrency ||
      fields[multiplier] !== '0' ||
      !units ||
      units[2] !== code ||
      units[3] !== source.relativeCurrency
    ) {
      builder.drop(`${code} on ${date}: not a DEM price per stated units (${fields[title]})`);
      continue;
    }
    builder.addPrice(date, code, readDecimal(fields[value]), units[1]!.replace(/ /g, ''));
  }
  return builder.result();
}

export const publisher: Publisher = {
  key: 'bbk',
  name: 'Deutsche Bundesbank, Frankfurt fixing against the Deutsche Mark (to 1998)',
  relativeCurrency: 'DEM',
  url: 'https://www.bundesbank.de/dynamic/action/en/statistics/time-series-databases/time-series-databases/745582/745582',
  countryCode: 'DE',
  timeZone: 'Europe/Berlin',
  fixingTime: '13:00',
  isDst: true,
  historyStart: '1948-06-21',
  publishWindowUtc: { from: '12:00', to: '13:00', weekdaysOnly: true },
  fetches:
    'BBEX3 `D..DEM.AA.AC.000` SDMX-CSV, units from each series title, a year per request, ending 1998-12-30',
  async *fetch(window, context) {
    const to = window.to < BBK_LAST_FIXING ? window.to : BBK_LAST_FIXING;
    if (window.from > to) return;
    for (const chunk of yearChunks({ from: window.from, to })) {
      const batch = await fetchBatch(context, bbkUrl(chunk), (text) =>
        parseBbkCsv(text, publisher),
      );
      yield completing(batch, chunk.to);
    }
  },
};
