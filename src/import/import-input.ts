import { createReadStream } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { ImportError } from './import-error.js';

/** How an import file is packed: plain text, gzip, or a zip archive holding one CSV. */
export type InputPacking = 'plain' | 'gzip' | 'zip';

/** An import file opened for reading: its text in pieces, and how far the reading has got. */
export interface ImportInput {
  packing: InputPacking;
  /** The CSV inside a zip archive. */
  entryName?: string;
  /** Bytes to read in all (of the CSV inside a zip, else of the file as stored). */
  totalBytes: number;
  /** Bytes read so far, in the same measure. */
  bytesRead(): number;
  text: AsyncIterable<string>;
}

/** Other compressed or archive formats, recognised by their first bytes, to say what they are. */
const OTHER_FORMATS: [string, number[]][] = [
  ['bzip2-compressed', [0x42, 0x5a, 0x68]],
  ['xz-compressed', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd-compressed', [0x28, 0xb5, 0x2f, 0xfd]],
  ['7z archive', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['rar archive', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['spreadsheet (xls)', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46, 0x2d]],
];

const READS =
  'fxrates import reads CSV files, gzip-compressed ones (.gz) and zip archives of one CSV';

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/**
 * Opens an import file by what its first bytes say it is, whatever its name: gzip and zip are
 * unpacked as they are read (memory stays flat), other compressed formats and binary content
 * are refused with a one-line reason (never echoing their bytes).
 */
export async function openImportInput(path: string, size: number): Promise<ImportInput> {
  const head = Buffer.alloc(8);
  const handle = await openFile(path, 'r');
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const other = OTHER_FORMATS.find(([, magic]) => startsWith(head, magic));
  if (other) throw new ImportError(`${path}: a ${other[0]} file; ${READS}`);
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return openZip(path);
  }
  let read = 0;
  const raw = createReadStream(path, { highWaterMark: 1024 * 1024 });
  if (startsWith(head, [0x1f, 0x8b])) {
    // Progress counts the compressed bytes read of the file's size.
    raw.on('data', (chunk) => (read += chunk.length));
    const gunzip = createGunzip();
    raw.on('error', (error) => gunzip.destroy(error));
    // A broken file can fail before the text is read: the reading reports it (the stream keeps
    // its error), instead of an unhandled 'error' event.
    gunzip.on('error', () => undefined);
    raw.pipe(gunzip);
    return {
      packing: 'gzip',
      totalBytes: size,
      bytesRead: () => read,
      text: decodeText(gunzip, '', 'gzip'),
    };
  }
  raw.on('error', () => undefined);
  return {
    packing: 'plain',
    totalBytes: size,
    bytesRead: () => read,
    text: decodeText(raw, '', undefined, (bytes) => (read += bytes)),
  };
}

async function openZip(path: string): Promise<ImportInput> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) =>
      error
        ? reject(new ImportError(`${path}: not a readable zip archive (${error.message})`))
        : resolve(file),
    ),
  );
  try {
    const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
      const found: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        // Folders and the resource forks macOS adds are no data.
        if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/')) {
          found.push(entry);
        }
        zip.readEntry();
      });
      zip.once('end', () => resolve(found));
      zip.once('error', (error: Error) =>
        reject(new ImportError(`${path}: not a readable zip archive (${error.message})`)),
      );
      zip.readEntry();
    });
    if (entries.length !== 1) {
      const names = entries.slice(0, 5).map((entry) => entry.fileName);
      throw new ImportError(
        `${path}: the zip archive holds ${entries.length} files${names.length > 0 ? ` (${names.join(', ')}${entries.length > 5 ? ', ...' : ''})` : ''}; it must hold one CSV`,
      );
    }
    const entry = entries[0]!;
    const stream = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (error, readable) =>
        error
          ? reject(new ImportError(`${path}: ${entry.fileName} cannot be read (${error.message})`))
          : resolve(readable),
      ),
    );
    let read = 0;
    stream.on('error', () => undefined);
    stream.once('close', () => zip.close());
    return {
      packing: 'zip',
      entryName: entry.fileName,
      totalBytes: entry.uncompressedSize,
      bytesRead: () => read,
      text: decodeText(stream, `${entry.fileName}: `, 'zip', (bytes) => (read += bytes)),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/**
 * The text of a byte stream, UTF-8; `name` prefixes its problems (the entry of a zip archive). The first piece is looked at: NUL bytes or many control
 * characters mean binary content, which is refused without showing it.
 */
async function* decodeText(
  bytes: AsyncIterable<Buffer>,
  name: string,
  packing?: 'gzip' | 'zip',
  onBytes?: (bytes: number) => void,
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  try {
    for await (const chunk of bytes) {
      onBytes?.(chunk.length);
      if (first && chunk.length > 0) {
        first = false;
        if (looksBinary(chunk)) {
          throw new ImportError(
            `${name}binary content, not CSV text${packing === 'zip' ? ' (inside the zip archive)' : packing === 'gzip' ? ' (inside the gzip file)' : ''}; ${READS}`,
          );
        }
      }
      const text = decoder.decode(chunk, { stream: true });
      if (text !== '') yield text;
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (packing === 'gzip' && typeof code === 'string' && code.startsWith('Z_')) {
      throw new ImportError(`${name}not a valid gzip file (${(error as Error).message})`);
    }
    if (packing === 'zip') {
      throw new ImportError(`${name}the zip entry cannot be read (${(error as Error).message})`);
    }
    throw error;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

function looksBinary(chunk: Buffer): boolean {
  const sample = chunk.subarray(0, 4096);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13) control++;
  }
  return control > sample.length / 20;
}
