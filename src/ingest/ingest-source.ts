import { utcDateOf } from '../dates.js';
import { clip } from '../params/raw-params.js';
import type { Env } from '../env.js';
import type { HttpPolicy } from '../sources/http-client.js';
import { DEFAULT_HTTP_POLICY, SourceHttp } from '../sources/http-client.js';
import { idleReason, type FetchWindow } from '../sources/publisher.js';
import type { SourceEntry } from '../sources/registry.js';
import type { IngestState, Store } from '../store/store.js';

export interface IngestOptions {
  /** Explicit dates to request; without them the run continues from what is stored. */
  from?: string;
  to?: string;
  env: Env;
  http?: Partial<HttpPolicy>;
  now?: () => Date;
  /** Cancels requests in flight (the service is shutting down). */
  signal?: AbortSignal;
  /** Called when a failed request is going to be retried, with the reason. */
  onRetry?: (message: string) => void;
  /** Called after each response is stored: HTTP requests so far, and the dates now covered. */
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  /** HTTP requests made so far, failed and retried ones included. */
  requests: number;
  /** Observations added or changed so far. */
  stored: number;
  /** The latest date the run has covered so far (its published or its stored data's). */
  through: string | null;
}

export interface IngestReport {
  source: string;
  window: FetchWindow | null;
  /** Responses handled (each stored in its own transaction). */
  requests: number;
  /** HTTP requests made, failed and retried ones included. */
  httpRequests: number;
  /** Observations added or changed. */
  stored: number;
  dropped: number;
  dropReasons: string[];
  /** Set when the run failed; batches stored before the failure stay stored. */
  error: string | null;
  /** Set when the source cannot run here (FRED without an API key). */
  idle: string | null;
  /**
   * Set when the dates asked end before the source's history starts: nothing was requested,
   * and nothing recorded (no attempt, no success, no progress).
   */
  nothingToFetch: string | null;
}

/** `FXRATES_ORIGIN_<KEY>`: scheme, host and port that replace the publisher's in every request. */
export const ORIGIN_PREFIX = 'FXRATES_ORIGIN_';

/** What is wrong with the value of an origin setting, or undefined when it is an http(s) origin. */
export function originProblem(name: string, value: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return `${name} '${clip(value)}' is not an http:// or https:// URL, such as http://127.0.0.1:9000`;
  }
  if (`${url.origin}/` !== url.href) {
    return `${name} '${clip(value)}' replaces scheme, host and port only: leave out its path, query and user`;
  }
  return undefined;
}

export function originOverride(source: SourceEntry, env: Env): string | undefined {
  const name = `${ORIGIN_PREFIX}${source.key.toUpperCase()}`;
  const value = env[name];
  if (!value) return undefined;
  const problem = originProblem(name, value);
  if (problem) throw new Error(problem);
  return new URL(value).origin;
}

/**
 * The dates a run requests, never before the source's history starts. Explicit dates win;
 * otherwise a source that never completed a run
 * backfills its whole history, and later runs start at its last stored observation (or earlier,
 * where a failed run left a gap), to today.
 */
export function plannedWindow(
  source: SourceEntry,
  state: IngestState | undefined,
  lastStoredDate: string | null,
  options: { from?: string; to?: string; today: string },
): { window: FetchWindow; continuous: boolean } {
  const recorded =
    state?.completeThrough == null
      ? source.historyStart
      : lastStoredDate !== null && lastStoredDate < state.completeThrough
        ? lastStoredDate
        : state.completeThrough;
  // Nothing is published before a source's history starts: no window reaches further back, and
  // a resume point before it (rows imported from older files) leaves no gap to fill there.
  const resumeFrom = recorded > source.historyStart ? recorded : source.historyStart;
  const asked = options.from ?? resumeFrom;
  const from = asked > source.historyStart ? asked : source.historyStart;
  const to = options.to ?? options.today;
  // A run that starts no later than the resume point leaves no gap behind it.
  return { window: { from, to }, continuous: from <= resumeFrom };
}

/**
 * One ingestion run of one source: fetch, parse, store each response in its own transaction,
 * and record the outcome. Never throws for the publisher's faults; the report says what happened.
 */
export async function ingestSource(
  store: Store,
  source: SourceEntry,
  options: IngestOptions,
): Promise<IngestReport> {
  const now = options.now ?? (() => new Date());
  const report: IngestReport = {
    source: source.key,
    window: null,
    requests: 0,
    httpRequests: 0,
    stored: 0,
    dropped: 0,
    dropReasons: [],
    error: null,
    idle: idleReason(source, options.env) ?? null,
    nothingToFetch: null,
  };
  const previous = (await store.ingestStates()).get(source.key);
  const state: IngestState = {
    source: source.key,
    lastAttempt: now(),
    lastSuccess: previous?.lastSuccess ?? null,
    lastError: null,
    completeThrough: previous?.completeThrough ?? null,
    lastRunStored: 0,
    lastRunDropped: 0,
  };
  if (report.idle) {
    state.lastError = report.idle;
    await store.saveIngestState(state);
    return report;
  }
  let http: SourceHttp | undefined;
  /** The latest date the run has covered so far. */
  let reached: string | null = null;
  try {
    const holdings = (await store.catalog()).get(source.key);
    const plan = plannedWindow(source, previous, holdings?.lastDate ?? null, {
      from: options.from,
      to: options.to,
      today: utcDateOf(now()),
    });
    if (plan.window.from > plan.window.to) {
      report.nothingToFetch = `nothing to fetch: ${source.key} publishes from ${source.historyStart}, and the dates asked end ${plan.window.to}`;
      return report;
    }
    report.window = plan.window;
    // The run is recorded as begun: another replica's status says so (running), and its answers
    // about dates the run may still fill are not cached for a day meanwhile. What the previous
    // run stored and dropped stays until this one has its own figures.
    await store.saveIngestState({
      ...state,
      lastRunStored: previous?.lastRunStored ?? 0,
      lastRunDropped: previous?.lastRunDropped ?? 0,
    });
    http = new SourceHttp(
      source.key,
      { ...DEFAULT_HTTP_POLICY, ...options.http },
      originOverride(source, options.env),
      options.signal,
    );
    http.onRetry = options.onRetry;
    for await (const batch of source.fetch(plan.window, { http, env: options.env })) {
      report.requests++;
      report.httpRequests = http.requests;
      report.stored += await store.writeObservations(batch.observations);
      if (
        plan.continuous &&
        batch.completeThrough &&
        batch.completeThrough > (state.completeThrough ?? '')
      ) {
        state.completeThrough = batch.completeThrough;
        // Progress is recorded as it is made: a process killed in the middle of a long backfill
        // (or a replica that takes the ingest lease over) resumes from here.
        await store.saveIngestState({
          ...state,
          lastRunStored: report.stored,
          lastRunDropped: report.dropped + batch.dropped,
        });
      }
      report.dropped += batch.dropped;
      for (const reason of batch.dropReasons) {
        if (report.dropReasons.length < 5) report.dropReasons.push(reason);
      }
      if (options.onProgress) {
        let latest = batch.completeThrough ?? '';
        for (const { observationTime } of batch.observations) {
          const date = utcDateOf(observationTime);
          if (date > latest) latest = date;
        }
        if (latest > (reached ?? '')) reached = latest;
        options.onProgress({ requests: http.requests, stored: report.stored, through: reached });
      }
    }
    report.httpRequests = http.requests;
    state.lastSuccess = now();
    if (plan.continuous && (state.completeThrough ?? '') < plan.window.to) {
      state.completeThrough = plan.window.to;
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
    report.httpRequests = http?.requests ?? 0;
    // Stopped by a shutdown, not by the publisher: what was stored stays, the state is put back
    // as it was (with the progress this run made), and the next start simply runs again.
    if (options.signal?.aborted) {
      await store
        .saveIngestState({
          ...(previous ?? { ...state, lastAttempt: null }),
          completeThrough: state.completeThrough,
        })
        .catch(() => undefined);
      return report;
    }
    state.lastError = report.error;
  }
  state.lastRunStored = report.stored;
  state.lastRunDropped = report.dropped;
  await store.saveIngestState(state);
  return report;
}
