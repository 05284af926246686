import type { RateRow } from '../resolve/rate-query.js';
import type { RateFormat } from '../params/rate-params.js';
import type { Decimal } from '../exact-decimal.js';
import { formatScaledQuotient } from './rate-number.js';
import { XML_DECLARATION, csvLine, xmlEscape } from './text-escapes.js';

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

/** The response body as text pieces, one per batch of rows, so that a long range never sits in memory. */
export function writeRates(
  format: RateFormat,
  head: RateHead,
  batches: AsyncIterable<readonly RateRow[]>,
  options: RateWriterOptions,
): AsyncIterable<string> {
  if (format === 'csv') return writeCsv(head, batches, options);
  if (format === 'xml') return writeXml(head, batches, options);
  return writeJson(head, batches, options);
}

async function* writeJson(
  head: RateHead,
  batches: AsyncIterable<readonly RateRow[]>,
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

  // Objects are opened along the path date > symbol > source; `open` holds the keys of the
  // objects still open below "rates", and each row is a leaf written whole from fixed pieces.
  const leafDepth = (byDate ? 1 : 0) + (perSource ? 1 : 0) + 2;
  const rateKey = `{${newline}${indent(leafDepth + 1)}"rate"${colon}`;
  const timeKey = `,${newline}${indent(leafDepth + 1)}"observation_time"${colon}"`;
  const sourceKey = `",${newline}${indent(leafDepth + 1)}"source"${colon}"`;
  const leafClose = `"${newline}${indent(leafDepth)}}`;
  const leafIndent = `${newline}${indent(leafDepth)}`;
  let open: string[] = [];
  let written = false;
  for await (const rows of batches) {
    text = '';
    for (const row of rows) {
      const containers = byDate
        ? perSource
          ? [row.date, row.symbol]
          : [row.date]
        : perSource
          ? [row.symbol]
          : [];
      let common = 0;
      while (common < open.length && open[common] === containers[common]) common++;
      for (let depth = open.length - 1; depth >= common; depth--)
        text += `${newline}${indent(depth + 2)}}`;
      for (let depth = common; depth < containers.length; depth++) {
        text += `${depth === common && depth < open.length ? ',' : ''}${member(depth + 2, containers[depth]!, '{')}`;
      }
      const leafKey = perSource ? row.source : row.symbol;
      text += `${written && common === containers.length ? ',' : ''}${leafIndent}"${leafKey}"${colon}${rateKey}${formatScaledQuotient(row.symbolRate, row.baseRate, options.amount, decimals)}${timeKey}${row.observationTime}`;
      text += perSource ? leafClose : `${sourceKey}${row.source}${leafClose}`;
      open = containers;
      written = true;
    }
    if (text) yield text;
  }
  text = '';
  for (let depth = open.length - 1; depth >= 0; depth--) text += `${newline}${indent(depth + 2)}}`;
  text += written ? `${newline}${indent(1)}}` : '}';
  yield `${text}${newline}}${newline}`;
}

async function* writeCsv(
  head: RateHead,
  batches: AsyncIterable<readonly RateRow[]>,
  options: RateWriterOptions,
): AsyncIterable<string> {
  yield csvLine(RATE_CSV_HEADER);
  for await (const rows of batches) {
    let text = '';
    for (const row of rows) {
      text += csvLine([
        row.date,
        head.base,
        row.symbol,
        row.source,
        formatScaledQuotient(row.symbolRate, row.baseRate, options.amount, options.decimals),
        row.observationTime,
      ]);
    }
    if (text) yield text;
  }
}

async function* writeXml(
  head: RateHead,
  batches: AsyncIterable<readonly RateRow[]>,
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
  for await (const rows of batches) {
    text = '';
    for (const row of rows) {
      text += `${newline}${indent(2)}<rate date="${row.date}" symbol="${xmlEscape(row.symbol)}" source="${xmlEscape(
        row.source,
      )}" observation_time="${row.observationTime}">${formatScaledQuotient(row.symbolRate, row.baseRate, options.amount, options.decimals)}</rate>`;
    }
    written ||= text !== '';
    if (text) yield text;
  }
  yield `${written ? `${newline}${indent(1)}` : ''}</rates>${newline}</exchangerates>${newline}`;
}
