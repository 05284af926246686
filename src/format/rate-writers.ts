import type { RateBatch } from '../resolve/rate-query.js';
import type { RateFormat } from '../params/rate-params.js';
import type { Decimal } from '../exact-decimal.js';
import { formatScaledQuotient } from './rate-number.js';
import { XML_DECLARATION, csvField, csvLine, xmlEscape } from './text-escapes.js';

/** The fields of a rate response that come before its rates, in output order. */
export interface RateHead {
  status: 'success';
  date?: string;
  start_date?: string;
  end_date?: string;
  base: string;
  error?: string;
  query?: string;
}

export interface RateWriterOptions {
  prettyPrint: boolean;
  decimals: number;
  /** Each rate is multiplied by this before rounding (the `amount` parameter; 1 by default). */
  amount: Decimal;
  /** max_sources_per_symbol > 1: each symbol maps source keys to entries (CONTRACT §6). */
  perSource: boolean;
  /** Range and all responses nest the symbols under their dates. */
  byDate: boolean;
}

export const RATE_CSV_HEADER = ['date', 'base', 'symbol', 'source', 'rate', 'observation_time'];

/**
 * Pieces of a long answer stay below the size from which V8 puts a string (flattened when the
 * socket writes it) in its large-object space (128 KB), which only a full collection frees: the
 * pieces of a long answer then die young instead of piling up until the next full collection.
 * Half that size rather than a quarter: every piece is one more write through the stream and
 * the socket, and `/all` took 4-5% less time with pieces of 64 KB than of 32 KB.
 */
const PIECE_LENGTH = 65_536;

/** The response body as text pieces of about PIECE_LENGTH at most, so that a long range never sits in memory. */
export function writeRates(
  format: RateFormat,
  head: RateHead,
  batches: AsyncIterable<RateBatch>,
  options: RateWriterOptions,
): AsyncIterable<string> {
  if (format === 'csv') return writeCsv(head, batches, options);
  if (format === 'xml') return writeXml(head, batches, options);
  return writeJson(head, batches, options);
}

async function* writeJson(
  head: RateHead,
  batches: AsyncIterable<RateBatch>,
  options: RateWriterOptions,
): AsyncIterable<string> {
  const { prettyPrint, decimals, perSource, byDate } = options;
  const newline = prettyPrint ? '\n' : '';
  const colon = prettyPrint ? ': ' : ':';
  const indent = (depth: number): string => (prettyPrint ? '  '.repeat(depth) : '');
  const member = (depth: number, key: string, value: string): string =>
    `${newline}${indent(depth)}${JSON.stringify(key)}${colon}${value}`;

  let text = '{';
  for (const [key, value] of Object.entries(head)) {
    if (value !== undefined) text += `${member(1, key, JSON.stringify(value))},`;
  }
  text += member(1, 'rates', '{');
  yield text;

  // Objects are opened along the path date > symbol > source: `levels` of them above each
  // leaf (0 to 2), `open` of them open now, with their keys in open0 and open1. Each row is a
  // leaf written whole from fixed pieces.
  const levels = (byDate ? 1 : 0) + (perSource ? 1 : 0);
  const leafDepth = levels + 2;
  const rateKey = `{${newline}${indent(leafDepth + 1)}"rate"${colon}`;
  const timeKey = `,${newline}${indent(leafDepth + 1)}"observation_time"${colon}"`;
  const sourceKey = `",${newline}${indent(leafDepth + 1)}"source"${colon}"`;
  const leafClose = `"${newline}${indent(leafDepth)}}`;
  const leafIndent = `${newline}${indent(leafDepth)}`;
  const closeAt = [0, 1].map((depth) => `${newline}${indent(depth + 2)}}`);
  const { amount } = options;
  let open = 0;
  let open0 = '';
  let open1 = '';
  let written = false;
  const leafOpens = new Map<string, string>();
  let lastTime: string | undefined;
  let lastSource: string | undefined;
  let tail = '';
  for await (const { rowCount, columns } of batches) {
    const [dates, symbols, sources, symbolRates, baseRates, observationTimes] = columns;
    text = '';
    for (let row = 0; row < rowCount; row++) {
      const symbol = symbols[row]!;
      const key0 = byDate ? dates[row]! : symbol;
      let common = 0;
      if (open > 0 && open0 === key0) common = open > 1 && open1 === symbol ? 2 : 1;
      if (common < levels) {
        for (let depth = open - 1; depth >= common; depth--) text += closeAt[depth];
        for (let depth = common; depth < levels; depth++) {
          const key = depth === 0 ? key0 : symbol;
          text += `${depth === common && depth < open ? ',' : ''}${member(depth + 2, key, '{')}`;
        }
        open0 = key0;
        open1 = symbol;
        open = levels;
      }
      const source = sources[row]!;
      const time = observationTimes[row]!;
      // A leaf is its key's opening, the rate, and what follows the rate, which the rows of one
      // date mostly share.
      if (time !== lastTime || source !== lastSource) {
        lastTime = time;
        lastSource = source;
        tail = perSource
          ? `${timeKey}${time}${leafClose}`
          : `${timeKey}${time}${sourceKey}${source}${leafClose}`;
      }
      const leafKey = perSource ? source : symbol;
      let leafOpen = leafOpens.get(leafKey);
      if (leafOpen === undefined) {
        leafOpen = `${leafIndent}"${leafKey}"${colon}${rateKey}`;
        leafOpens.set(leafKey, leafOpen);
      }
      if (written && common === levels) text += ',';
      text +=
        leafOpen +
        formatScaledQuotient(symbolRates[row]!, baseRates[row]!, amount, decimals) +
        tail;
      written = true;
      if (text.length >= PIECE_LENGTH) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
  text = '';
  for (let depth = open - 1; depth >= 0; depth--) text += closeAt[depth];
  text += written ? `${newline}${indent(1)}}` : '}';
  yield `${text}${newline}}${newline}`;
}

async function* writeCsv(
  head: RateHead,
  batches: AsyncIterable<RateBatch>,
  options: RateWriterOptions,
): AsyncIterable<string> {
  yield csvLine(RATE_CSV_HEADER);
  // Dates, rates and times never need quoting; codes are quoted once each if they ever do.
  const field = memoized(csvField);
  const base = `,${field(head.base)},`;
  for await (const { rowCount, columns } of batches) {
    const [dates, symbols, sources, symbolRates, baseRates, observationTimes] = columns;
    let text = '';
    for (let row = 0; row < rowCount; row++) {
      text += `${dates[row]}${base}${field(symbols[row]!)},${field(sources[row]!)},${formatScaledQuotient(symbolRates[row]!, baseRates[row]!, options.amount, options.decimals)},${observationTimes[row]}\r\n`;
      if (text.length >= PIECE_LENGTH) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
}

/** `format` of each distinct text, computed once per answer. */
function memoized(format: (text: string) => string): (text: string) => string {
  const texts = new Map<string, string>();
  return (text) => {
    let formatted = texts.get(text);
    if (formatted === undefined) {
      formatted = format(text);
      texts.set(text, formatted);
    }
    return formatted;
  };
}

async function* writeXml(
  head: RateHead,
  batches: AsyncIterable<RateBatch>,
  options: RateWriterOptions,
): AsyncIterable<string> {
  const newline = options.prettyPrint ? '\n' : '';
  const indent = (depth: number): string => (options.prettyPrint ? '  '.repeat(depth) : '');
  let text = `${XML_DECLARATION}${newline}<exchangerates>`;
  for (const [key, value] of Object.entries(head)) {
    if (value !== undefined) text += `${newline}${indent(1)}<${key}>${xmlEscape(value)}</${key}>`;
  }
  text += `${newline}${indent(1)}<rates>`;
  yield text;
  let written = false;
  const escaped = memoized(xmlEscape);
  const rateIndent = `${newline}${indent(2)}`;
  for await (const { rowCount, columns } of batches) {
    const [dates, symbols, sources, symbolRates, baseRates, observationTimes] = columns;
    text = '';
    for (let row = 0; row < rowCount; row++) {
      text += `${rateIndent}<rate date="${dates[row]}" symbol="${escaped(symbols[row]!)}" source="${escaped(
        sources[row]!,
      )}" observation_time="${observationTimes[row]}">${formatScaledQuotient(symbolRates[row]!, baseRates[row]!, options.amount, options.decimals)}</rate>`;
      written = true;
      if (text.length >= PIECE_LENGTH) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
  yield `${written ? `${newline}${indent(1)}` : ''}</rates>${newline}</exchangerates>${newline}`;
}
