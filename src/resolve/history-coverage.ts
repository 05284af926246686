import type { IngestState } from '../store/store.js';

/** The ingest state is read again at most this often while the data stays the same. */
const REREAD_MS = 1000;

/**
 * Whether ingestion can still change what an answer about a date shows: a requested source that
 * ingestion has attempted (or is running now) but whose history is not fetched through that date
 * may yet add or correct figures of it. A source's `completeThrough` is recorded only by a run
 * that started at or before where the last one stopped (the publisher's first date on the first
 * run), so any value means "everything from the beginning through here". Sources that ingestion
 * never attempted here (a service started with --no-ingest, a source left out of
 * FXRATES_INGEST_SOURCES, data that came by import) hold what they hold: only an import changes
 * them, and an answer about them settles like any other (CONTRACT §9).
 *
 * `completeThrough` only grows, so a date once covered stays covered and is answered from
 * memory. Otherwise the state is read again when the data changed (a run stores its batches
 * before it records its progress) or a second has passed, never on every request: until then
 * an answer errs on the side of the shorter cache.
 */
export class HistoryCoverage {
  private readonly completeThrough = new Map<string, string>();
  /** Sources ingestion has attempted in this database. */
  private readonly attempted = new Set<string>();
  private dataVersion: number | undefined;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly ingestStates: () => Promise<ReadonlyMap<string, IngestState>>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * True when no requested source can still change `date`'s answer through ingestion; `running`
   * are the sources this process is ingesting now.
   */
  async covers(
    sources: readonly string[],
    date: string,
    dataVersion: number,
    running: ReadonlySet<string>,
  ): Promise<boolean> {
    if (dataVersion !== this.dataVersion) {
      // Possibly another database altogether: start over.
      this.completeThrough.clear();
      this.attempted.clear();
      this.dataVersion = dataVersion;
      this.readAt = Number.NEGATIVE_INFINITY;
    }
    const reached = (key: string): boolean => (this.completeThrough.get(key) ?? '') >= date;
    if (sources.every(reached)) return true;
    if (this.now() - this.readAt >= REREAD_MS) await this.read();
    // A source ingestion has never attempted (and is not running) holds what it holds.
    const settled = (key: string): boolean =>
      reached(key) || (!running.has(key) && !this.attempted.has(key));
    return sources.every(settled);
  }

  /** One read at a time; requests arriving meanwhile wait for it. */
  private read(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const started = this.now();
        for (const [key, state] of await this.ingestStates()) {
          if (state.completeThrough !== null) this.completeThrough.set(key, state.completeThrough);
          if (state.lastAttempt !== null) this.attempted.add(key);
        }
        this.readAt = started;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
