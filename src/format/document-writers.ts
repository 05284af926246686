import { XML_DECLARATION, csvLine, xmlEscape } from './text-escapes.js';

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

/** `{ status: "error", error }` in the requested format (CONTRACT §8). */
export function errorText(format: ErrorFormat, message: string): string {
  if (format === 'csv') return csvText(['status', 'error'], [['error', message]]);
  if (format === 'xml') {
    return `${XML_DECLARATION}\n<exchangerates>\n  <status>error</status>\n  <error>${xmlEscape(message)}</error>\n</exchangerates>\n`;
  }
  return jsonText({ status: 'error', error: message }, true);
}

export interface QueryResultDocument {
  columns: readonly string[];
  rows: readonly (readonly (string | number | boolean | null)[])[];
  error?: string;
}

/** Rows of the query endpoint: json `{status, num_rows, columns, rows: [{col: value}]}`, csv, or xml. */
export function queryResultText(
  format: ErrorFormat,
  result: QueryResultDocument,
  prettyPrint: boolean,
): string {
  if (format === 'csv') return csvText(result.columns, result.rows);
  if (format === 'xml') {
    const newline = prettyPrint ? '\n' : '';
    const indent = (depth: number): string => (prettyPrint ? '  '.repeat(depth) : '');
    let text = `${XML_DECLARATION}${newline}<exchangerates>${newline}${indent(1)}<status>success</status>`;
    if (result.error !== undefined)
      text += `${newline}${indent(1)}<error>${xmlEscape(result.error)}</error>`;
    text += `${newline}${indent(1)}<num_rows>${result.rows.length}</num_rows>${newline}${indent(1)}<columns>`;
    for (const column of result.columns)
      text += `${newline}${indent(2)}<column>${xmlEscape(column)}</column>`;
    text += `${newline}${indent(1)}</columns>${newline}${indent(1)}<rows>`;
    for (const row of result.rows) {
      text += `${newline}${indent(2)}<row>`;
      row.forEach((value, index) => {
        const name = xmlEscape(result.columns[index]!);
        text +=
          value === null
            ? `${newline}${indent(3)}<value column="${name}" null="true"/>`
            : `${newline}${indent(3)}<value column="${name}">${xmlEscape(String(value))}</value>`;
      });
      text += `${newline}${indent(2)}</row>`;
    }
    return `${text}${newline}${indent(1)}</rows>${newline}</exchangerates>${newline}`;
  }
  const rows = result.rows.map((row) =>
    Object.fromEntries(result.columns.map((column, index) => [column, row[index] ?? null])),
  );
  return jsonText(
    {
      status: 'success',
      ...(result.error !== undefined ? { error: result.error } : {}),
      num_rows: rows.length,
      columns: result.columns,
      rows,
    },
    prettyPrint,
  );
}
