import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { etagMatches } from './caching.js';

/** An answer as it was sent: its headers (content-length and encoding aside) and its body. */
export interface CachedAnswer {
  headers: Record<string, string | number | string[] | undefined>;
  etag: string;
  body: Buffer;
  /** Its headers can change before the generation does: it is not answered at the socket. */
  revalidate: boolean;
}

interface Entry extends CachedAnswer {
  encoded: Partial<Record<Encoding, Buffer>>;
  size: number;
}

type Encoding = 'br' | 'gzip';

/**
 * How answers are compressed, by the framework (app.ts registers @fastify/compress with these)
 * and by the cache below for the answers it sends itself.
 */
export const COMPRESSION = {
  /** In order of preference. */
  encodings: ['br', 'gzip'] as Encoding[],
  // A 256 KiB window, not brotli's 4 MiB: each stream being compressed holds about 2 MB where it
  // held about 10 (32 long answers at once held 300 MB for it), and JSON's repeats lie closer
  // than that: `/all` comes out no larger.
  brotliOptions: {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_LGWIN]: 18 },
  },
  /** Bodies shorter than this go uncompressed. */
  threshold: 1024,
};

/**
 * Whether a long answer to a request with these headers goes compressed: it takes one of
 * COMPRESSION's encodings (or any, `*`) with a q-value above 0, and does not opt out.
 */
export function answersCompressed(headers: IncomingHttpHeaders): boolean {
  const accepted = headers['accept-encoding'];
  if (!accepted || headers['x-no-compression'] !== undefined) return false;
  return accepted
    .toLowerCase()
    .split(',')
    .some((part) => {
      const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
      const q = params.find((param) => param.startsWith('q='));
      const known = name === '*' || (COMPRESSION.encodings as string[]).includes(name);
      return known && (q === undefined || Number(q.slice(2)) > 0);
    });
}

/**
 * Rendered answers of small requests (latest, one date), reused until the data or the day
 * changes: most traffic asks the same few questions, and a repeated one costs no query.
 *
 * Answers are keyed by the parsed request, not the URL, so that spelling a request differently
 * cannot fill the cache; the whole cache is bounded in bytes, least recently used first out.
 * Beside them, the URLs that were answered from an entry point to it, so that a URL asked again
 * is answered at the socket (`answer`), before any routing, parsing or planning: the stored
 * headers and ETag, and the body compressed once per encoding.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly urls = new Map<string, string>();
  private generation = '';
  private held = 0;

  /**
   * @param currentGeneration what the answers are computed from besides the request: the data
   *   version and the day; when it changes, everything is forgotten.
   */
  constructor(
    private readonly currentGeneration: () => string,
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly maxBodyLength = 256 * 1024,
    private readonly maxUrls = 20_000,
  ) {}

  /** The answer stored under `key` in the current generation. */
  get(key: string): CachedAnswer | undefined {
    return this.entry(key);
  }

  private entry(key: string): Entry | undefined {
    this.dropIfStale();
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * Keeps `answer` under `key`, and `url` as a way to it, when `generation` (what the answer
   * was computed from) is still the current one.
   */
  set(key: string, url: string, generation: string, answer: CachedAnswer): void {
    this.dropIfStale();
    if (generation !== this.generation || answer.body.length > this.maxBodyLength) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.held -= previous.size;
      this.entries.delete(key);
    }
    const entry: Entry = { ...answer, encoded: {}, size: 2 * key.length + answer.body.length };
    this.entries.set(key, entry);
    this.held += entry.size;
    for (const [oldKey, old] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.held -= old.size;
    }
    this.noteUrl(url, key);
  }

  /** Records that `url` is answered by the entry under `key`. */
  noteUrl(url: string, key: string): void {
    if (url.length > 2048 || this.urls.get(url) === key) return;
    this.urls.delete(url);
    this.urls.set(url, key);
    if (this.urls.size > this.maxUrls) this.urls.delete(this.urls.keys().next().value!);
  }

  /**
   * Answers a GET whose URL was answered before in this generation, straight on the socket;
   * false (nothing written) for any other request. A request with an Accept-Encoding this
   * cannot match exactly as the framework would (q-values, wildcards) is left to the framework.
   */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || this.urls.size === 0) return false;
    const key = this.urls.get(request.url ?? '');
    if (key === undefined) return false;
    const entry = this.entry(key);
    if (entry === undefined || entry.revalidate) return false;
    const { headers } = request;
    if (headers['x-no-compression'] !== undefined) return false;
    const accepted = headers['accept-encoding'];
    let encoding: Encoding | undefined;
    if (accepted !== undefined && accepted !== '' && entry.body.length >= COMPRESSION.threshold) {
      if (/[;*]/.test(accepted)) return false;
      const names = accepted
        .toLowerCase()
        .split(',')
        .map((name) => name.trim());
      encoding = COMPRESSION.encodings.find((name) => names.includes(name));
    }
    if (etagMatches(headers['if-none-match'], entry.etag)) {
      const headers304 = { ...entry.headers };
      delete headers304['content-type'];
      response.writeHead(304, headers304);
      response.end();
      return true;
    }
    const body = encoding === undefined ? entry.body : this.encodedBody(entry, encoding);
    response.writeHead(200, {
      ...entry.headers,
      'content-length': body.length,
      ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
    });
    response.end(body);
    return true;
  }

  private encodedBody(entry: Entry, encoding: Encoding): Buffer {
    let body = entry.encoded[encoding];
    if (body === undefined) {
      body =
        encoding === 'br'
          ? brotliCompressSync(entry.body, COMPRESSION.brotliOptions)
          : gzipSync(entry.body);
      entry.encoded[encoding] = body;
      entry.size += body.length;
      this.held += body.length;
    }
    return body;
  }

  private dropIfStale(): void {
    const generation = this.currentGeneration();
    if (generation !== this.generation) {
      this.entries.clear();
      this.urls.clear();
      this.held = 0;
      this.generation = generation;
    }
  }

  /** Bytes held: two per character of keys, bodies and their compressed forms. */
  get size(): number {
    return this.held;
  }
}

export async function collectText(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}
