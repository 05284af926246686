/**
 * Rendered bodies of small answers (latest, one date), reused until the data or the day
 * changes: most traffic asks the same few questions, and a repeated one costs no query.
 * Keys carry the data version, so a write makes every old entry unreachable; `clearIfStale`
 * then frees them. Least recently used entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
  private generation = '';

  constructor(
    private readonly maxEntries = 2_000,
    private readonly maxBodyLength = 256 * 1024,
  ) {}

  /** Forgets everything when `generation` (data version and day) differs from the last one seen. */
  clearIfStale(generation: string): void {
    if (generation !== this.generation) {
      this.entries.clear();
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
    this.entries.set(key, body);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

export async function collectText(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}
