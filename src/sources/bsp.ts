import { inflateSync, constants } from 'node:zlib';
import type { ObservationSource } from './observation-builder.js';
import { ObservationBuilder } from './observation-builder.js';
import { completing, fetchBytesBatch, parseJson, PublisherFormatError } from './publisher-fetch.js';
import { isoFromEnglish, readDecimal } from './publisher-text.js';
import type { Extraction, FetchContext, FetchWindow, Publisher } from './publisher.js';

/** What one PDF stream may inflate to at most: a bulletin page holds far less. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

const BSP_ORIGIN = 'https://www.bsp.gov.ph';

/**
 * The SharePoint list of Reference Exchange Rate Bulletins (RERB), newest first, a hundred at a
 * time, each item with its PDF attached.
 */
export const BSP_LIST_URL =
  `${BSP_ORIGIN}/_api/web/lists/getByTitle('RERB')/items` +
  '?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100';

/** One bulletin of the list: its date (from the title, "28May2026") and its PDF. */
export interface BspBulletin {
  date: string;
  url: string;
}

export interface BspListPage {
  bulletins: BspBulletin[];
  /** The list's next page (older bulletins), if any. */
  next: string | undefined;
}

/** The list's verbose OData JSON: `d.results[]` with Title and AttachmentFiles, `d.__next`. */
export function parseBspList(text: string): BspListPage {
  const body = parseJson(text) as {
    d?: {
      results?: {
        Title?: string;
        AttachmentFiles?: { results?: { ServerRelativeUrl?: string }[] };
      }[];
      __next?: string;
    };
  };
  const results = body?.d?.results;
  if (!Array.isArray(results)) throw new Error('expected SharePoint JSON with d.results[]');
  const bulletins: BspBulletin[] = [];
  for (const item of results) {
    const title = /^(\d{2})([A-Za-z]{3})(\d{4})$/.exec(String(item?.Title ?? '').trim());
    const date = title && isoFromEnglish(title[1]!, title[2]!, title[3]!);
    const pdf = item?.AttachmentFiles?.results?.find((file) =>
      /\.pdf$/i.test(file?.ServerRelativeUrl ?? ''),
    )?.ServerRelativeUrl;
    // Items that are not a dated bulletin with its PDF (none so far) are not bulletins.
    if (date && pdf) bulletins.push({ date, url: new URL(pdf, BSP_ORIGIN).href });
  }
  return { bulletins, next: body.d?.__next };
}

/* A PDF's text, enough for the bulletin: one page of WinAnsi strings in Flate-compressed streams. */

interface TextItem {
  x: number;
  y: number;
  text: string;
}

/** The decoded streams of a PDF's objects, by object number. */
function pdfStreams(bytes: Uint8Array): Map<number, string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('latin1');
  const streams = new Map<number, string>();
  const header = /(\d+) 0 obj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) throw new Error('a PDF stream has no end (cut short?)');
    const length = /\/Length (\d+)(?!\d)(?!\s+\d+\s+R)/.exec(match[2]!);
    const data = buffer.subarray(start, length ? start + Number(length[1]) : end);
    const dictionary = match[2]!;
    if (/\/Filter\s*\/FlateDecode/.test(dictionary) && !/\/DecodeParms/.test(dictionary)) {
      try {
        streams.set(
          Number(match[1]),
          // A stream that inflates past the cap (a decompression bomb) is refused, not read.
          inflateSync(data, {
            finishFlush: constants.Z_SYNC_FLUSH,
            maxOutputLength: MAX_INFLATED_BYTES,
          }).toString('latin1'),
        );
      } catch {
        // Fonts and images need not be read; a content stream that fails shows as missing text.
      }
    } else if (!/\/Filter/.test(dictionary)) {
      streams.set(Number(match[1]), data.toString('latin1'));
    }
    header.lastIndex = end;
  }
  return streams;
}

/** Every object's dictionary text by number: plain objects and those packed in object streams. */
function pdfObjects(text: string, streams: Map<number, string>): Map<number, string> {
  const objects = new Map<number, string>();
  for (const match of text.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)) {
    objects.set(Number(match[1]), match[2]!.split(/\bstream\r?\n/)[0]!);
  }
  for (const [number, body] of objects) {
    if (!/\/Type\s*\/ObjStm/.test(body)) continue;
    const stream = streams.get(number);
    const first = Number(/\/First (\d+)/.exec(body)?.[1]);
    if (stream === undefined || !Number.isInteger(first)) continue;
    const table = stream.slice(0, first).trim().split(/\s+/).map(Number);
    for (let index = 0; index + 1 < table.length; index += 2) {
      const start = first + table[index + 1]!;
      const end = index + 3 < table.length ? first + table[index + 3]! : stream.length;
      objects.set(table[index]!, stream.slice(start, end));
    }
  }
  return objects;
}

/** The content streams of the PDF's pages, in the order of the objects. */
function pageContents(bytes: Uint8Array, streams: Map<number, string>): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const parts: string[] = [];
  const objects = [...pdfObjects(text, streams)].sort(([a], [b]) => a - b);
  for (const [, body] of objects) {
    if (!/\/Type\s*\/Page(?![a-zA-Z])/.test(body)) continue;
    const contents = /\/Contents\s*(\[[^\]]*\]|\d+\s+0\s+R)/.exec(body)?.[1] ?? '';
    for (const reference of contents.matchAll(/(\d+)\s+0\s+R/g)) {
      const stream = streams.get(Number(reference[1]));
      if (stream === undefined) {
        throw new Error(`the PDF's content stream ${reference[1]} cannot be read`);
      }
      parts.push(stream);
    }
  }
  if (parts.length === 0) throw new Error('the PDF has no page content');
  return parts.join('\n');
}

/** A PDF literal string's bytes, escapes resolved. */
function literal(text: string): string {
  return text.replace(/\\([nrtbf()\\]|[0-7]{1,3}|\r?\n)/g, (_, escape: string) => {
    const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
    if (named[escape]) return named[escape];
    if (/^[0-7]+$/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    if (/^\r?\n$/.test(escape)) return '';
    return escape;
  });
}

/** The strings a content stream shows, with where each starts (text space, ignoring `cm`). */
function textItems(content: string): TextItem[] {
  const items: TextItem[] = [];
  const tokens = content.matchAll(
    /\((?:\\[\s\S]|[^\\)])*\)|<[0-9A-Fa-f\s]*>|\[|\]|[-+]?(?:\d+\.?\d*|\.\d+)|\/[^\s/[\]()<>]+|[A-Za-z'"*]+/g,
  );
  const operands: string[] = [];
  let line = [1, 0, 0, 1, 0, 0];
  let leading = 0;
  let array: string[] | undefined;
  const show = (strings: string[]) => {
    items.push({ x: line[4]!, y: line[5]!, text: strings.join('') });
  };
  const moveLine = (tx: number, ty: number) => {
    const [a, b, c, d, e, f] = line as [number, number, number, number, number, number];
    line = [a, b, c, d, e + tx * a + ty * c, f + tx * b + ty * d];
  };
  for (const [token] of tokens) {
    if (token === '[') {
      array = [];
      continue;
    }
    if (token === ']') {
      operands.push(JSON.stringify(array ?? []));
      array = undefined;
      continue;
    }
    if (array) {
      // In a TJ array a large negative adjustment is a gap between words.
      if (token.startsWith('(')) array.push(literal(token.slice(1, -1)));
      else if (/^[-+]?[\d.]+$/.test(token) && Number(token) < -250) array.push(' ');
      continue;
    }
    if (/^[A-Za-z'"*]+$/.test(token)) {
      const number = (index: number) => Number(operands[operands.length - index]);
      switch (token) {
        case 'BT':
          line = [1, 0, 0, 1, 0, 0];
          break;
        case 'Tm':
          line = [number(6), number(5), number(4), number(3), number(2), number(1)];
          break;
        case 'Td':
          moveLine(number(2), number(1));
          break;
        case 'TD':
          leading = -number(1);
          moveLine(number(2), number(1));
          break;
        case 'TL':
          leading = number(1);
          break;
        case 'T*':
          moveLine(0, -leading);
          break;
        case 'Tj':
          show([literal(operands[operands.length - 1]!.slice(1, -1))]);
          break;
        case "'":
          moveLine(0, -leading);
          show([literal(operands[operands.length - 1]!.slice(1, -1))]);
          break;
        case 'TJ':
          show(JSON.parse(operands[operands.length - 1] ?? '[]') as string[]);
          break;
        default:
          break;
      }
      operands.length = 0;
      continue;
    }
    operands.push(token);
  }
  return items;
}

/** The page's text as lines, top to bottom, each a list of the strings on it, left to right. */
export function pdfTextLines(bytes: Uint8Array): string[][] {
  if (!Buffer.from(bytes.subarray(0, 8)).toString('latin1').startsWith('%PDF-')) {
    throw new Error('not a PDF file');
  }
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString('latin1');
  if (!/%%EOF\s*$/.test(tail)) throw new Error('the PDF ends before %%EOF (cut short?)');
  const items = textItems(pageContents(bytes, pdfStreams(bytes)));
  const lines: { y: number; items: TextItem[] }[] = [];
  for (const item of items) {
    if (item.text.trim() === '') continue;
    const line = lines.find((candidate) => Math.abs(candidate.y - item.y) < 2);
    if (line) line.items.push(item);
    else lines.push({ y: item.y, items: [item] });
  }
  return lines
    .sort((a, b) => b.y - a.y)
    .map((line) => line.items.sort((a, b) => a.x - b.x).map((item) => item.text.trim()));
}

/** What one bulletin holds: its date and its rates. */
export interface BspBulletinRates extends Extraction {
  date: string;
}

/**
 * A Reference Exchange Rate Bulletin (PDF): its date under the title ("28 May 2026") and a table
 * of `#, COUNTRY, UNIT, SYMBOL, EURO, U.S.DOLLAR, PHIL.PESO EQUIVALENT`, each the value of one
 * unit of the currency. The peso column is stored; "N/A" (the Kuwaiti dinar of late) is dropped
 * and counted. The lines under the table (the BSP buying, selling and reference rates for the
 * dollar, gold and silver prices) are not part of it.
 */
export function parseBspBulletin(bytes: Uint8Array, source: ObservationSource): BspBulletinRates {
  const lines = pdfTextLines(bytes);
  const joined = lines.map((line) => line.join(' '));
  if (!joined.some((line) => /REFERENCE EXCHANGE RATE BULLETIN/i.test(line))) {
    throw new Error('not a Reference Exchange Rate Bulletin');
  }
  const heading = lines.find((line) => /PHIL\.?\s*PESO/i.test(line.join(' ')));
  if (!heading || !/PESO/i.test(heading[heading.length - 1] ?? '')) {
    throw new Error('the bulletin has no peso column last');
  }
  const dated = joined
    .map((line) => /^(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})$/.exec(line.trim()))
    .find((match) => match !== null);
  const date = dated ? isoFromEnglish(dated[1]!, dated[2]!, dated[3]!) : undefined;
  if (!date) throw new Error('the bulletin has no date under its title');
  const builder = new ObservationBuilder(source);
  let rows = 0;
  for (const line of lines) {
    if (line.length < 7 || !/^\d+$/.test(line[0]!)) continue;
    const symbol = line[line.length - 4]!;
    if (!/^[A-Z]{3}$/.test(symbol)) continue;
    rows++;
    builder.addPrice(date, symbol, readDecimal(line[line.length - 1]));
  }
  if (rows === 0) throw new Error('the bulletin has no rows of rates');
  return { ...builder.result(), date };
}

/** The list's bulletins dated within the window, oldest first, walking back as far as needed. */
async function bulletinsIn(window: FetchWindow, context: FetchContext): Promise<BspBulletin[]> {
  const found: BspBulletin[] = [];
  for (let url: string | undefined = BSP_LIST_URL; url !== undefined;) {
    const fetched = await context.http.requestText(url, {
      headers: { accept: 'application/json;odata=verbose' },
    });
    let page: BspListPage;
    try {
      page = parseBspList(fetched.text);
    } catch (error) {
      throw new PublisherFormatError(`${fetched.url}: ${(error as Error).message}`);
    }
    found.push(...page.bulletins.filter((b) => b.date >= window.from && b.date <= window.to));
    const oldest = page.bulletins.reduce<string | undefined>(
      (least, b) => (least === undefined || b.date < least ? b.date : least),
      undefined,
    );
    url = oldest !== undefined && oldest > window.from ? page.next : undefined;
  }
  return found.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export const publisher: Publisher = {
  key: 'bsp',
  name: 'Bangko Sentral ng Pilipinas, Reference Exchange Rate Bulletin',
  relativeCurrency: 'PHP',
  url: 'https://www.bsp.gov.ph/SitePages/Statistics/ExchangeRate.aspx',
  countryCode: 'PH',
  timeZone: 'Asia/Manila',
  fixingTime: '00:00',
  isDst: false,
  historyStart: '2017-11-06',
  publishWindowUtc: { from: '00:00', to: '02:30', weekdaysOnly: true },
  fetches:
    'the RERB list (SharePoint JSON), then each bulletin PDF in the window; peso equivalents',
  async *fetch(window, context) {
    for (const bulletin of await bulletinsIn(window, context)) {
      const batch = await fetchBytesBatch(context, bulletin.url, (bytes) => {
        const rates = parseBspBulletin(bytes, publisher);
        if (rates.date !== bulletin.date) {
          throw new Error(`the bulletin listed for ${bulletin.date} is dated ${rates.date}`);
        }
        return rates;
      });
      yield completing(batch, bulletin.date);
    }
  },
};
