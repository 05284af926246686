import type { QueryLimits } from '../app.js';
import type { Env } from '../env.js';
import type { ResponseCache } from '../http/response-cache.js';
import type { Store } from '../store/store.js';

/** What every route needs from the running service. */
export interface ServiceContext {
  store: Store;
  /** Today's UTC date, YYYY-MM-DD; a function so that tests can fix the day. */
  today: () => string;
  query: QueryLimits;
  /** Rendered small answers, also answered at the socket when their URL comes again. */
  answers: ResponseCache;
  /** About how many rows one window of a long range returns (see range-windows.ts). */
  rowsPerWindow?: number;
  /** Observations from which a range's statement sorts only the series that miss a day (rate-request.ts). */
  manyPairsFrom?: number;
  /** How long a range's statement waits for the engine's memory before 503, in ms (30 s). */
  memoryWaitMs?: number;
  ingest: {
    env: Env;
    /** Whether this process runs the ingestion schedule. */
    enabled: boolean;
    /** The sources this process keeps current when it ingests; every source when undefined. */
    sources: readonly string[] | undefined;
    /** Sources this process is ingesting right now. */
    running: () => ReadonlySet<string>;
    /**
     * `ingesting` while this process holds the ingest lease and runs the schedule, `serving`
     * otherwise (another replica ingests, or --no-ingest).
     */
    role: () => 'ingesting' | 'serving';
    /** When this process runs a source next (null when it does not ingest it). */
    nextAttempt: (source: string) => Date | null;
  };
}
