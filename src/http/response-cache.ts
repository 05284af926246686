/**
 * Rendered bodies of small answers (latest, one date), reused until the data or the day
 * changes: most traffic asks the same few questions, and a repeated one costs no query.
 * Entries are keyed by the parsed request, not the URL, so spelling a request differently
 * cannot fill the cache; the whole cache is bounded in bytes, least recently used first out.
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
  private generation = '';
  private bytes = 0;

  constructor(
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly maxBodyLength = 256 * 1024,
  ) {}

  /** Forgets everything when `generation` (data version and day) differs from the last one seen. */
  clearIfStale(generation: string): void {
    if (generation !== this.generation) {
      this.entries.clear();
      this.bytes = 0;
      this.generation = generation;
    }
  }

  get(key: string): string | undefined {
    const body = this.entries.get(key);
    if (body !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  set(key: string, body: string): void {
    if (body.length > this.maxBodyLength) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.bytes -= sizeOf(key, previous);
      this.entries.delete(key);
    }
    this.entries.set(key, body);
    this.bytes += sizeOf(key, body);
    for (const [oldKey, oldBody] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= sizeOf(oldKey, oldBody);
    }
  }

  /** Bytes held (two per character of keys and bodies). */
  get size(): number {
    return this.bytes;
  }
}

function sizeOf(key: string, body: string): number {
  return 2 * (key.length + body.length);
}

export async function collectText(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}
