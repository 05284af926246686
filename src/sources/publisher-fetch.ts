/** What publishers' `fetch` plans share: one request made a batch, windows split, bodies checked. */
import { addDays, isWeekend, lastDayOfMonth } from '../dates.js';
import type { RequestOptions } from './http-client.js';
import { FetchError } from './http-client.js';
import type { Batch, Extraction, FetchContext, FetchWindow } from './publisher.js';

/** Marks a batch as the last one for dates up to `date` (see Batch.completeThrough). */
export function completing(batch: Batch, date: string): Batch {
  return { ...batch, completeThrough: date };
}

/** Error in what a publisher sent: not retried, reported with the URL. */
export class PublisherFormatError extends FetchError {
  constructor(message: string) {
    super(message, false);
  }
}

/**
 * Fetches one URL and parses it; a body that cannot be read fails with the URL and the reason.
 * Whatever else the parser returns (the Bank of Russia's currency ids) comes back too.
 */
export async function fetchBatch<T extends Extraction>(
  context: FetchContext,
  url: string,
  parse: (text: string) => T,
  options: RequestOptions & {
    /** The publisher's data is an HTML page (its rates are a table in it): do not refuse HTML. */
    html?: boolean;
  } = {},
): Promise<T & Batch> {
  const fetched = await context.http.requestText(url, options);
  if (!options.html && /^\s*<(!doctype\s+html|html[\s>])/i.test(fetched.text)) {
    throw new PublisherFormatError(`${fetched.url}: received an HTML page instead of data`);
  }
  try {
    return { url: fetched.url, ...parse(fetched.text) };
  } catch (error) {
    throw new PublisherFormatError(`${fetched.url}: ${(error as Error).message}`);
  }
}

/**
 * Fetches one file (a spreadsheet) and parses its bytes; a file that cannot be read fails with
 * the URL and the reason, like `fetchBatch`. An HTML page where a file was expected (an error
 * or login page) is refused before parsing.
 */
export async function fetchBytesBatch<T extends Extraction>(
  context: FetchContext,
  url: string,
  parse: (bytes: Uint8Array) => T,
  options: RequestOptions = {},
): Promise<T & Batch> {
  const fetched = await context.http.requestBytes(url, options);
  const head = new TextDecoder('latin1').decode(fetched.bytes.subarray(0, 512));
  if (/^\s*<(!doctype\s+html|html[\s>])/i.test(head)) {
    throw new PublisherFormatError(`${fetched.url}: received an HTML page instead of a file`);
  }
  try {
    return { url: fetched.url, ...parse(fetched.bytes) };
  } catch (error) {
    throw new PublisherFormatError(`${fetched.url}: ${(error as Error).message}`);
  }
}

/** Splits a window into consecutive windows of at most `days` days. */
export function windowChunks(window: FetchWindow, days: number): FetchWindow[] {
  const chunks: FetchWindow[] = [];
  for (let from = window.from; from <= window.to; from = addDays(from, days)) {
    const to = addDays(from, days - 1);
    chunks.push({ from, to: to < window.to ? to : window.to });
  }
  return chunks;
}

/** Monday to Friday within a window, both ends included, for publishers that rest at weekends. */
export function weekdays(window: FetchWindow): string[] {
  const days: string[] = [];
  for (let day = window.from; day <= window.to; day = addDays(day, 1)) {
    if (!isWeekend(day)) days.push(day);
  }
  return days;
}

/** Splits a window at calendar-year boundaries. */
export function yearChunks(window: FetchWindow): FetchWindow[] {
  const chunks: FetchWindow[] = [];
  const lastYear = Number(window.to.slice(0, 4));
  for (let year = Number(window.from.slice(0, 4)); year <= lastYear; year++) {
    const from = `${year}-01-01` > window.from ? `${year}-01-01` : window.from;
    const to = `${year}-12-31` < window.to ? `${year}-12-31` : window.to;
    chunks.push({ from, to });
  }
  return chunks;
}

/** Parses JSON from a publisher, saying plainly when the body is not JSON or is cut short. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`response is not valid JSON (cut short?): ${(error as Error).message}`);
  }
}

/** Fails unless a text body ends with a line break: publishers' CSV files do, cut-off ones do not. */
export function requireCompleteText(text: string): void {
  if (!/\n\s*$/.test(text)) throw new Error('response ends in the middle of a line (cut short?)');
}

/** An attribute of an XML element's start tag, for the small fixed XML formats publishers use. */
export function xmlAttribute(element: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(element)?.[1];
}

/** Text of the first `<tag>` child element, trimmed. */
export function xmlChildText(element: string, tag: string): string | undefined {
  return new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(element)?.[1]?.trim();
}

/** Fails unless an XML document ends with its root's closing tag: a cut-off body does not. */
export function requireXmlRoot(text: string, root: string): void {
  if (!new RegExp(`<${root}[\\s>]`).test(text)) {
    throw new Error(`response is not the expected XML (no <${root}> element)`);
  }
  if (!new RegExp(`</${root}>\\s*$`).test(text)) {
    throw new Error(`XML response ends before </${root}> (cut short?)`);
  }
}

/** Months' last days from `from` to `to`, as YYYY-MM-DD. */
export function monthEnds(window: FetchWindow): string[] {
  const ends: string[] = [];
  let year = Number(window.from.slice(0, 4));
  let month = Number(window.from.slice(5, 7));
  const last = window.to.slice(0, 7);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    if (key > last) break;
    ends.push(lastDayOfMonth(year, month));
    month++;
    if (month === 13) [year, month] = [year + 1, 1];
  }
  return ends;
}
