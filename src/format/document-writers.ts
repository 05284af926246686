import {
  XML_DECLARATION,
  csvLine,
  isXmlText,
  xmlAttribute,
  xmlEscape,
  xmlText,
} from './text-escapes.js';
import { problemsText } from '../params/problems.js';

/** Small, whole responses: the currencies and sources lists, query results and errors. */

export function jsonText(value: unknown, prettyPrint: boolean): string {
  return prettyPrint ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
}

export function csvText(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null)[])[],
): string {
  return csvLine(header) + rows.map(csvLine).join('');
}

export type ErrorFormat = 'json' | 'csv' | 'xml';

/** `{ status: "error", error }` in the requested format (CONTRACT §8), laid out as `pretty_print` asks. */
export function errorText(format: ErrorFormat, message: string, prettyPrint = true): string {
  if (format === 'csv') return csvText(['status', 'error'], [['error', message]]);
  if (format === 'xml') {
    const [newline, indent] = prettyPrint ? ['\n', '  '] : ['', ''];
    return `${XML_DECLARATION}${newline}<exchangerates>${newline}${indent}<status>error</status>${newline}${indent}<error>${xmlEscape(message)}</error>${newline}</exchangerates>${newline}`;
  }
  return jsonText({ status: 'error', error: message }, prettyPrint);
}

export interface QueryResultDocument {
  columns: readonly string[];
  rows: readonly (readonly (string | number | boolean | null)[])[];
}

/** A value of a json row: NaN and the infinities, which JSON has not, as their names in text. */
function jsonValue(value: string | number | boolean | null): string {
  return typeof value === 'number' && !Number.isFinite(value)
    ? `"${String(value)}"`
    : JSON.stringify(value);
}

/**
 * Column names made unique for the json rows, where a repeated name would hide a value: a
 * repeat gets the first free suffix `_1`, `_2`, ... that no other column already has.
 */
function uniqueColumnNames(names: readonly string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let suffix = 1;
    while (taken.has(`${name}_${suffix}`)) suffix++;
    const unique = `${name}_${suffix}`;
    taken.add(unique);
    seen.add(unique);
    return unique;
  });
}

/** Rows written between two turns of the event loop. */
const ROWS_PER_SLICE = 2048;

export interface RenderedQueryResult {
  text: string;
  /** Rows in the text: fewer than given when the next one would have passed `maxBytes`. */
  rowsShown: number;
  /** Characters XML cannot hold were replaced (xml only). */
  replacedCharacters: boolean;
}

/**
 * Rows of the query endpoint: json `{status, num_rows, columns, rows: [{col: value}]}`, csv, or
 * xml, with at most `maxBytes` of rows (whole rows; the rest are left out), every column under a
 * name of its own (see uniqueColumnNames). `problems` are the
 * parameter problems so far; the caller adds the cut and reports them all in X-Error, and they
 * are also written into the json and xml body.
 */
export async function queryResultText(
  format: ErrorFormat,
  result: QueryResultDocument,
  prettyPrint: boolean,
  maxBytes: number,
  problems: (rendered: Omit<RenderedQueryResult, 'text'>) => readonly string[],
): Promise<RenderedQueryResult> {
  const newline = prettyPrint ? '\n' : '';
  const indent = (depth: number): string => (prettyPrint ? '  '.repeat(depth) : '');
  const pieces: string[] = [];
  let size = 0;
  const columns = uniqueColumnNames(result.columns);
  let replacedCharacters = format === 'xml' && !columns.every(isXmlText);
  // Attribute values: tabs and line breaks written as references, or a parser reads spaces.
  const attributes = format === 'xml' ? columns.map(xmlAttribute) : [];
  // Written out key by key: an object would put names that look like numbers first.
  const keys = columns.map((column) => JSON.stringify(column));
  const [objectOpen, memberSeparator, objectClose] = prettyPrint
    ? ['\n    {\n      ', ',\n      ', '\n    }']
    : ['{', ',', '}'];
  const colon = prettyPrint ? ': ' : ':';
  for (const [index, row] of result.rows.entries()) {
    // Other requests are served between slices: 100,000 rows take about 100 ms to write.
    if (index > 0 && index % ROWS_PER_SLICE === 0) await new Promise(setImmediate);
    let piece: string;
    if (format === 'csv') piece = csvLine(row);
    else if (format === 'xml') {
      piece = `${newline}${indent(2)}<row>`;
      row.forEach((value, index) => {
        const name = attributes[index]!;
        if (value === null) piece += `${newline}${indent(3)}<value column="${name}" null="true"/>`;
        else {
          const text = String(value);
          replacedCharacters ||= !isXmlText(text);
          piece += `${newline}${indent(3)}<value column="${name}">${xmlText(text)}</value>`;
        }
      });
      piece += `${newline}${indent(2)}</row>`;
    } else {
      const members = keys.map((key, index) => key + colon + jsonValue(row[index] ?? null));
      piece =
        members.length > 0
          ? objectOpen + members.join(memberSeparator) + objectClose
          : prettyPrint
            ? '\n    {}'
            : '{}';
    }
    // Bytes as sent (UTF-8), not characters: '€' is three.
    const bytes = Buffer.byteLength(piece);
    if (size + bytes > maxBytes) break;
    size += bytes;
    pieces.push(piece);
  }
  const rowsShown = pieces.length;
  const listed = problems({ rowsShown, replacedCharacters });
  const error = listed.length > 0 ? problemsText(listed) : undefined;
  let text: string;
  if (format === 'csv') {
    text = csvLine(columns) + pieces.join('');
  } else if (format === 'xml') {
    text = `${XML_DECLARATION}${newline}<exchangerates>${newline}${indent(1)}<status>success</status>`;
    if (error !== undefined) text += `${newline}${indent(1)}<error>${xmlText(error)}</error>`;
    text += `${newline}${indent(1)}<num_rows>${rowsShown}</num_rows>${newline}${indent(1)}<columns>`;
    for (const column of columns)
      text += `${newline}${indent(2)}<column>${xmlText(column)}</column>`;
    text += `${newline}${indent(1)}</columns>${newline}${indent(1)}<rows>${pieces.join('')}`;
    text += `${rowsShown > 0 ? `${newline}${indent(1)}` : ''}</rows>${newline}</exchangerates>${newline}`;
  } else {
    const head = jsonText(
      {
        status: 'success',
        ...(error !== undefined ? { error } : {}),
        num_rows: rowsShown,
        columns,
        rows: [],
      },
      prettyPrint,
    );
    // The head ends with `"rows": []` and the closing brace: the rows go between the brackets.
    const open = head.lastIndexOf('[]');
    const rows = prettyPrint
      ? rowsShown > 0
        ? `[${pieces.join(',')}\n  ]`
        : '[]'
      : `[${pieces.join(',')}]`;
    text = head.slice(0, open) + rows + head.slice(open + 2);
  }
  return { text, rowsShown, replacedCharacters };
}
