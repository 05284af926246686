import type { IngestState } from '../store/store.js';

/** The ingest state is read again at most this often while the data stays the same. */
const REREAD_MS = 1000;

/**
 * Whether the stored history of sources reaches a date: ingestion has fetched every date of
 * the source's history up to it, so no later run can add or change what an answer about that
 * date shows. A source's `completeThrough` says so: it is recorded only by a run that started
 * at or before where the last one stopped (the publisher's first date on the first run), so any
 * value means "everything from the beginning through here". A source never ingested, or one
 * whose first backfill has not yet reached the date, does not cover it.
 *
 * `completeThrough` only grows, so a date once covered stays covered and is answered from
 * memory. Otherwise the state is read again when the data changed (a run stores its batches
 * before it records its progress) or a second has passed, never on every request: until then
 * an answer errs on the side of the shorter cache.
 */
export class HistoryCoverage {
  private readonly completeThrough = new Map<string, string>();
  private dataVersion: number | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly ingestStates: () => Promise<ReadonlyMap<string, IngestState>>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async covers(sources: readonly string[], date: string, dataVersion: number): Promise<boolean> {
    if (dataVersion !== this.dataVersion) {
      // Possibly another database altogether: start over.
      this.completeThrough.clear();
      this.dataVersion = dataVersion;
      this.readAt = Number.NEGATIVE_INFINITY;
    }
    const reached = (key: string): boolean => (this.completeThrough.get(key) ?? '') >= date;
    if (sources.every(reached)) return true;
    if (this.now() - this.readAt >= REREAD_MS) await this.read();
    return sources.every(reached);
  }

  /** One read at a time; requests arriving meanwhile wait for it. */
  private read(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const started = this.now();
        for (const [key, state] of await this.ingestStates()) {
          if (state.completeThrough !== null) this.completeThrough.set(key, state.completeThrough);
        }
        this.readAt = started;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
