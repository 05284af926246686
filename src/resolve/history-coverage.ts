import type { IngestState } from '../store/store.js';

/**
 * Whether the stored history of sources reaches a date: ingestion has fetched every date of
 * the source's history up to it, so no later run can add or change what an answer about that
 * date shows. A source's `completeThrough` says so: it is recorded only by a run that started
 * at or before where the last one stopped (the publisher's first date on the first run), so any
 * value means "everything from the beginning through here". A source never ingested, or one
 * whose first backfill has not yet reached the date, does not cover it.
 *
 * `completeThrough` only grows, so a date once covered stays covered: those answers are kept,
 * and the ingest state is read again only for dates not yet known to be covered.
 */
export class HistoryCoverage {
  private readonly completeThrough = new Map<string, string>();
  private dataVersion: number | undefined;

  constructor(private readonly ingestStates: () => Promise<ReadonlyMap<string, IngestState>>) {}

  async covers(sources: readonly string[], date: string, dataVersion: number): Promise<boolean> {
    // A database replaced under a running service starts over.
    if (dataVersion !== this.dataVersion) {
      this.completeThrough.clear();
      this.dataVersion = dataVersion;
    }
    const reached = (key: string): boolean => (this.completeThrough.get(key) ?? '') >= date;
    if (sources.every(reached)) return true;
    for (const [key, state] of await this.ingestStates()) {
      if (state.completeThrough !== null) this.completeThrough.set(key, state.completeThrough);
    }
    return sources.every(reached);
  }
}
