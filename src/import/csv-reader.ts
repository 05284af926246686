export interface CsvRecord {
  /** 1-based line number where the record starts. */
  line: number;
  fields: string[];
}

export interface CsvLimits {
  /** Characters in one record (one line, or several when a quoted field holds line breaks). */
  maxRecordLength: number;
  maxFieldLength: number;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

const UNLIMITED: CsvLimits = {
  maxRecordLength: Number.POSITIVE_INFINITY,
  maxFieldLength: Number.POSITIVE_INFINITY,
};

/**
 * RFC 4180 records (quoted fields, doubled quotes, CRLF or LF; a leading BOM is dropped), read
 * from text that arrives in pieces: `push` takes the next piece and returns the records it
 * completes, `end` the last one. A record or field longer than the limits is an error at its
 * line, so that a file without line breaks cannot fill the memory.
 */
export class CsvParser {
  private fields: string[] = [];
  private field = '';
  private inQuotes = false;
  private atFieldStart = true;
  /** A quote inside a quoted field: the end of the field, or the first of a doubled quote. */
  private quotePending = false;
  /** A carriage return ended the last piece: a line feed may follow in the next one. */
  private carriageReturn = false;
  private line = 1;
  private recordLine = 1;
  private recordLength = 0;
  private started = false;

  constructor(private readonly limits: CsvLimits = UNLIMITED) {}

  push(text: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    let position = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) position = 1;
    }
    const length = text.length;
    while (position < length) {
      const code = text.charCodeAt(position);
      if (this.carriageReturn) {
        this.carriageReturn = false;
        if (code === LF) {
          position++;
          continue;
        }
      }
      if (this.quotePending) {
        this.quotePending = false;
        if (code === QUOTE) {
          this.append('"');
          position++;
          continue;
        }
        this.inQuotes = false;
      }
      if (this.inQuotes) {
        // Up to the next quote, all of it is the field's.
        let end = text.indexOf('"', position);
        if (end < 0) end = length;
        const piece = text.slice(position, end);
        for (let index = piece.indexOf('\n'); index >= 0; index = piece.indexOf('\n', index + 1))
          this.line++;
        this.append(piece);
        if (end < length) this.quotePending = true;
        position = end + 1;
        continue;
      }
      if (code === QUOTE && this.atFieldStart) {
        this.inQuotes = true;
        this.atFieldStart = false;
        this.count(1);
        position++;
        continue;
      }
      if (code === COMMA) {
        this.fields.push(this.field);
        this.field = '';
        this.atFieldStart = true;
        this.count(1);
        position++;
        continue;
      }
      if (code === LF || code === CR) {
        if (code === CR) this.carriageReturn = true;
        this.finishRecord(records);
        this.line++;
        this.recordLine = this.line;
        position++;
        continue;
      }
      // Unquoted text: up to the next separator, line break or the end of this piece.
      let end = position + 1;
      while (end < length) {
        const next = text.charCodeAt(end);
        if (next === COMMA || next === LF || next === CR) break;
        end++;
      }
      this.append(text.slice(position, end));
      this.atFieldStart = false;
      position = end;
    }
    return records;
  }

  end(): CsvRecord[] {
    if (this.inQuotes && !this.quotePending) {
      throw new CsvSyntaxError(this.recordLine, 'a quoted field is not closed');
    }
    const records: CsvRecord[] = [];
    this.quotePending = false;
    this.inQuotes = false;
    this.finishRecord(records);
    return records;
  }

  private append(text: string): void {
    this.field += text;
    this.count(text.length);
    if (this.field.length > this.limits.maxFieldLength) {
      throw new CsvSyntaxError(
        this.recordLine,
        `a field is longer than ${this.limits.maxFieldLength} characters`,
      );
    }
  }

  private count(characters: number): void {
    this.recordLength += characters;
    if (this.recordLength > this.limits.maxRecordLength) {
      throw new CsvSyntaxError(
        this.recordLine,
        `the line is longer than ${this.limits.maxRecordLength} characters`,
      );
    }
  }

  private finishRecord(records: CsvRecord[]): void {
    this.fields.push(this.field);
    const fields = this.fields;
    this.fields = [];
    this.field = '';
    this.atFieldStart = true;
    this.recordLength = 0;
    // Blank lines are no records.
    if (fields.length === 1 && fields[0] === '') return;
    records.push({ line: this.recordLine, fields });
  }
}

/** The records of a whole text, for publishers' small CSV answers. */
export function* readCsvRecords(text: string): Generator<CsvRecord> {
  const parser = new CsvParser();
  yield* parser.push(text);
  yield* parser.end();
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}
