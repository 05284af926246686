import { constants, inflateSync } from 'node:zlib';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBatch, fetchBytesBatch } from './publisher-fetch.js';
import { readDecimal } from './publisher-text.js';
import type { Extraction, Publisher } from './publisher.js';

/** What one PDF stream may inflate to at most: a bulletin page holds far less. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

const ORIGIN = 'https://www.brb.bi';
/** The list of daily rate sheets, newest first, a page at a time. */
export function brbListUrl(page: number): string {
  return `${ORIGIN}/en/affichagetoustauxchange${page > 0 ? `?page=${page}` : ''}`;
}

export interface BrbSheetLink {
  date: string;
  url: string;
}

export interface BrbList extends Extraction {
  sheets: BrbSheetLink[];
}

/** The listing's links to "Cours de change du dd-mm-yyyy.pdf", with the date they name. */
export function parseBrbList(text: string): BrbList {
  if (!/affichagetoustauxchange/.test(text)) {
    throw new Error('not the list of exchange rate sheets');
  }
  const sheets: BrbSheetLink[] = [];
  for (const match of text.matchAll(/href="([^"]*?(\d{2})-(\d{2})-(\d{4})\.pdf)"/g)) {
    const [, href, day, month, year] = match as unknown as [string, string, string, string, string];
    if (!/Cours%20de%20change/i.test(href)) continue;
    const date = `${year}-${month}-${day}`;
    if (!sheets.some((sheet) => sheet.date === date)) {
      sheets.push({ date, url: new URL(href, ORIGIN).href });
    }
  }
  return { observations: [], dropped: 0, dropReasons: [], sheets };
}

/** The sheet's currency names (French), units given before them ("1 Dollar USA"). */
export const BRB_CURRENCIES: Readonly<Record<string, string>> = {
  'DOLLAR CANADIEN': 'CAD',
  'COURONNE DANOISE': 'DKK',
  'YEN JAPONAIS': 'JPY',
  'COURONNE NORVEGIENNE': 'NOK',
  'LIVRE STERLING': 'GBP',
  'COURONNE SUEDOISE': 'SEK',
  'DOLLAR USA': 'USD',
  'FRANC SUISSE': 'CHF',
  EURO: 'EUR',
  'SHILLING KENYAN': 'KES',
  DTS: 'XDR',
  'RAND SUD-AFRICAIN': 'ZAR',
  'DOLLAR AUSTRALIEN': 'AUD',
  'SHILLING TANZANIEN': 'TZS',
  'SHILLING OUGANDAIS': 'UGX',
  'FRANC RWANDAIS': 'RWF',
  'YUAN RENMIMBI': 'CNY',
  'YUAN RENMINBI': 'CNY',
  'DINAR KOWETIEN': 'KWD',
  'RIYAL SAOUDIEN': 'SAR',
};

const FRENCH_MONTHS = [
  'JANVIER',
  'FEVRIER',
  'MARS',
  'AVRIL',
  'MAI',
  'JUIN',
  'JUILLET',
  'AOUT',
  'SEPTEMBRE',
  'OCTOBRE',
  'NOVEMBRE',
  'DECEMBRE',
];

/** A PDF string literal's bytes as text (WinAnsi read as Latin-1): escapes undone. */
function pdfString(literal: string): string {
  return literal.replace(/\\([0-7]{1,3}|.)/gs, (_, escaped: string) => {
    if (/^[0-7]+$/.test(escaped)) return String.fromCharCode(parseInt(escaped, 8));
    return { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' }[escaped] ?? escaped;
  });
}

/**
 * The text of a PDF's page content, as lines: the Flate-compressed content streams are
 * inflated, each text object's strings joined and placed by its text matrix, and the pieces on
 * one baseline joined left to right with " | ". Enough for one-page sheets printed from a
 * spreadsheet; no fonts with custom encodings.
 */
export function pdfTextLines(bytes: Uint8Array): string[] {
  const pdf = Buffer.from(bytes);
  const latin1 = pdf.toString('latin1');
  if (!latin1.startsWith('%PDF-')) throw new Error('not a PDF file');
  if (!/%%EOF\s*$/.test(latin1.slice(-1024)))
    throw new Error('the PDF ends before %%EOF (cut short?)');
  const pieces: { x: number; y: number; text: string }[] = [];
  for (const match of latin1.matchAll(/\bobj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g)) {
    const dictionary = match[1]!;
    // Page content only: fonts, images, object and cross-reference streams are skipped.
    if (!/\/FlateDecode/.test(dictionary) || /\/(Length1|Subtype|Type)\b/.test(dictionary)) {
      continue;
    }
    const start = match.index + match[0].length;
    const end = latin1.indexOf('endstream', start);
    if (end < 0) throw new Error('a PDF stream has no end');
    let content: string;
    try {
      // A stream that inflates past the cap (a decompression bomb) is refused, not read.
      content = inflateSync(pdf.subarray(start, end), {
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength: MAX_INFLATED_BYTES,
      }).toString('latin1');
    } catch {
      continue;
    }
    for (const block of content.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
      const matrix = /([-\d.]+)\s+([-\d.]+)\s+Tm/.exec(block[1]!);
      const strings = [...block[1]!.matchAll(/\(((?:[^()\\]|\\[\s\S])*)\)/g)].map((s) =>
        pdfString(s[1]!),
      );
      if (!matrix || strings.length === 0) continue;
      pieces.push({ x: Number(matrix[1]), y: Number(matrix[2]), text: strings.join('') });
    }
  }
  if (pieces.length === 0) throw new Error('the PDF holds no text this reader understands');
  // Top of the page first; pieces less than 2 points apart share a line.
  pieces.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; pieces: { x: number; text: string }[] }[] = [];
  for (const piece of pieces) {
    const line = lines.find((candidate) => Math.abs(candidate.y - piece.y) < 2);
    if (line) line.pieces.push(piece);
    else lines.push({ y: piece.y, pieces: [piece] });
  }
  return lines.map((line) =>
    line.pieces
      .sort((a, b) => a.x - b.x)
      .map((piece) => piece.text.trim())
      .filter((text) => text !== '')
      .join(' | '),
  );
}

/** A figure with a decimal comma ("2172,8650") or point ("2168.3480"). */
function brbFigure(text: string): string {
  return readDecimal(text, /,/.test(text) && !/\./.test(text));
}

/**
 * A daily sheet: "EN DATE DU 20 MAI 2026", then rows "1 Dollar USA | buying | Cours moyen jour
 * | selling", BIF per that many units; the published daily average (the middle column) is
 * stored. Figures use a decimal comma on some days and a point on others.
 */
export function parseBrbSheet(lines: readonly string[], source: ObservationSource): Extraction {
  const dated = lines
    .map((line) => /EN DATE DU\s+(\d{1,2})\s+([A-ZÉÛ]+)\s+(\d{4})/i.exec(line))
    .find(Boolean);
  const month = FRENCH_MONTHS.indexOf(
    (dated?.[2] ?? '')
      .toUpperCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, ''),
  );
  if (!dated || month < 0) throw new Error('the sheet gives no date ("EN DATE DU ...")');
  const date = `${dated[3]}-${String(month + 1).padStart(2, '0')}-${dated[1]!.padStart(2, '0')}`;
  const header = lines.findIndex((line) => /Cours moyen jour/i.test(line));
  if (header < 0) throw new Error('the sheet has no "Cours moyen jour" column');
  const builder = new ObservationBuilder(source);
  let rows = 0;
  for (const line of lines.slice(header + 1)) {
    const cells = line.split(' | ');
    const name = /^(\d+)\s+(.+?)\*?$/.exec(cells[0] ?? '');
    if (!name || cells.length !== 4) continue;
    rows++;
    const key = name[2]!.trim().toUpperCase();
    const code = BRB_CURRENCIES[key];
    if (!code) {
      builder.drop(`${name[2]} on ${date}: unknown currency name`);
      continue;
    }
    builder.addPrice(date, code, brbFigure(cells[2]!), name[1]!);
  }
  if (rows === 0) throw new Error('the sheet has no rows of rates');
  return builder.result();
}

export const publisher: Publisher = {
  key: 'brb',
  name: 'Bank of the Republic of Burundi, official rates',
  relativeCurrency: 'BIF',
  url: 'https://www.brb.bi/en/affichagetoustauxchange',
  countryCode: 'BI',
  timeZone: 'Africa/Bujumbura',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2024-09-02',
  publishWindowUtc: { from: '07:00', to: '09:30', weekdaysOnly: true },
  fetches:
    'daily PDF sheets found on the paged list of sheets; text read from the page content, the daily average (decimal comma or point)',
  async *fetch(window, context) {
    // The list runs newest first: pages are read until one reaches back to the window's start.
    const sheets: BrbSheetLink[] = [];
    for (let page = 0; ; page++) {
      const list = await fetchBatch(context, brbListUrl(page), parseBrbList, { html: true });
      yield list;
      sheets.push(...list.sheets);
      const oldest = list.sheets.map((sheet) => sheet.date).sort()[0];
      if (!oldest || oldest <= window.from || oldest <= publisher.historyStart) break;
    }
    const wanted = sheets
      .filter((sheet) => sheet.date >= window.from && sheet.date <= window.to)
      .sort((a, b) => (a.date < b.date ? -1 : 1));
    for (const sheet of wanted) {
      const batch = await fetchBytesBatch(context, sheet.url, (bytes) =>
        parseBrbSheet(pdfTextLines(bytes), publisher),
      );
      yield completing(batch, sheet.date);
    }
  },
};
