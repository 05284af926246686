export interface CsvRecord {
  /** 1-based line number where the record starts. */
  line: number;
  fields: string[];
}

/** RFC 4180 records (quoted fields, doubled quotes, CRLF or LF); a leading BOM is dropped. */
export function* readCsvRecords(text: string): Generator<CsvRecord> {
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (position < text.length) {
    const startLine = line;
    const fields: string[] = [];
    let field = '';
    let inQuotes = false;
    let atFieldStart = true;
    for (; position < text.length; position++) {
      const char = text[position]!;
      if (inQuotes) {
        if (char === '"') {
          if (text[position + 1] === '"') {
            field += '"';
            position++;
          } else {
            inQuotes = false;
          }
        } else {
          if (char === '\n') line++;
          field += char;
        }
      } else if (char === '"' && atFieldStart) {
        inQuotes = true;
        atFieldStart = false;
      } else if (char === ',') {
        fields.push(field);
        field = '';
        atFieldStart = true;
      } else if (char === '\n' || char === '\r') {
        if (char === '\r' && text[position + 1] === '\n') position++;
        position++;
        line++;
        break;
      } else {
        field += char;
        atFieldStart = false;
      }
    }
    if (inQuotes) throw new CsvSyntaxError(startLine, 'a quoted field is not closed');
    fields.push(field);
    if (fields.length === 1 && fields[0] === '') continue;
    yield { line: startLine, fields };
  }
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}
