import type { HttpPolicy } from '../sources/http-client.js';
import { SOURCES, type SourceEntry } from '../sources/registry.js';
import type { Store } from '../store/store.js';
import type { Env } from '../env.js';
import type { IngestReport } from './ingest-source.js';
import { ingestSource } from './ingest-source.js';
import { nextPollAfter, retryDelayMs } from './schedule.js';

export interface SchedulerLogger {
  info(message: string): void;
  warn(message: string): void;
  debug?(message: string): void;
}

export interface SchedulerOptions {
  env: Env;
  logger: SchedulerLogger;
  http?: Partial<HttpPolicy>;
  /** Keys of the sources to keep current; every registered source when absent. */
  sources?: readonly string[];
  /**
   * Runs at once at most (a first start backfills every publisher's history: they take turns
   * instead of opening ninety long backfills together). Default DEFAULT_MAX_CONCURRENT_RUNS.
   */
  maxConcurrentRuns?: number;
}

export const DEFAULT_MAX_CONCURRENT_RUNS = 8;

/**
 * Keeps every source current inside `fxrates serve`: a run for each source at start (the first
 * one backfills), then polls across each publication window. Sources run independently: one
 * failing, slow or garbled never holds up or touches another.
 */
export class IngestScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, number>();
  private readonly abort = new AbortController();
  /** Sources whose time has come, waiting for a free run slot, in order. */
  private readonly waiting: SourceEntry[] = [];
  /** When each source that is neither running nor waiting runs next. */
  private readonly nextAt = new Map<string, Date>();
  /**
   * Failures to reach a publisher and idle sources, told together once the runs in progress
   * are over: without a network, one line instead of one per publisher.
   */
  private unreachable: { source: string; error: string }[] = [];
  private idle: { source: string; reason: string }[] = [];
  private reportTimer: NodeJS.Timeout | undefined;
  /** The log said the publishers were unreachable; it is not repeated until one answers. */
  private reportedUnreachable = false;
  /** The log said when the unreachable publishers are tried again. */
  private reportedRetry = false;
  /** Publishers whose requests fail to connect and are being retried, before their runs end. */
  private readonly retrying = new Map<string, string>();
  private earlyTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: SchedulerOptions,
  ) {}

  start(): void {
    const keys = this.options.sources;
    for (const source of SOURCES) {
      if (!keys || keys.includes(source.key)) this.schedule(source, 0);
    }
  }

  /** Sources with a run in progress. */
  runningSources(): ReadonlySet<string> {
    return new Set(this.running.keys());
  }

  /**
   * When this source runs next: null while it runs or waits for a run slot (or once stopped).
   */
  nextAttempt(key: string): Date | null {
    return this.nextAt.get(key) ?? null;
  }

  /** Stops polling, cancels requests in flight and waits for the runs to record their outcome. */
  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.reportTimer);
    clearTimeout(this.earlyTimer);
    this.nextAt.clear();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled(this.running.values());
  }

  private schedule(source: SourceEntry, delayMs: number): void {
    if (this.abort.signal.aborted) return;
    this.nextAt.set(source.key, new Date(Date.now() + delayMs));
    const timer = setTimeout(() => {
      this.timers.delete(source.key);
      this.nextAt.delete(source.key);
      this.waiting.push(source);
      this.startWaiting();
    }, delayMs);
    timer.unref();
    this.timers.set(source.key, timer);
  }

  /** Starts waiting runs while there is a free slot. */
  private startWaiting(): void {
    const limit = this.options.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS;
    while (this.running.size < limit && this.waiting.length > 0 && !this.abort.signal.aborted) {
      const source = this.waiting.shift()!;
      const run = this.run(source).finally(() => {
        this.running.delete(source.key);
        this.startWaiting();
      });
      this.running.set(source.key, run);
    }
  }

  private async run(source: SourceEntry): Promise<void> {
    let report: IngestReport | undefined;
    try {
      report = await ingestSource(this.store, source, {
        env: this.options.env,
        http: this.options.http,
        signal: this.abort.signal,
        onRetry: (message) => this.noteRetry(source.key, message),
      });
    } catch (error) {
      this.options.logger.warn(`ingest ${source.key}: ${(error as Error).message}`);
    }
    if (this.abort.signal.aborted) return;
    const now = new Date();
    let next = nextPollAfter(now, source.publishWindowUtc);
    if (report?.idle) {
      this.idle.push({ source: source.key, reason: report.idle });
    } else if (!report || report.error) {
      const failures = (this.failures.get(source.key) ?? 0) + 1;
      this.failures.set(source.key, failures);
      const retryAt = new Date(now.getTime() + retryDelayMs(failures));
      if (retryAt < next) next = retryAt;
      if (report?.error && isUnreachable(report.error)) {
        this.unreachable.push({ source: source.key, error: report.error });
      } else if (report) {
        this.options.logger.warn(
          `ingest ${source.key} failed: ${report.error}; next attempt ${at(retryAt)}`,
        );
      }
    } else {
      this.failures.delete(source.key);
      this.reportedUnreachable = false;
      this.reportedRetry = false;
      this.options.logger.info(
        `ingest ${source.key}: ${report.stored} observations new or changed from ${report.requests} requests` +
          (report.dropped > 0 ? `, ${report.dropped} values dropped` : ''),
      );
    }
    this.schedule(source, next.getTime() - now.getTime());
    this.reportSoon();
  }

  /**
   * A request failed to connect and waits for its retry: without a network every publisher does,
   * and the log says so a moment later, before the retries run out.
   */
  private noteRetry(source: string, message: string): void {
    if (this.reportedUnreachable || !isUnreachable(message)) return;
    this.retrying.set(source, message);
    this.earlyTimer ??= setTimeout(() => {
      this.earlyTimer = undefined;
      if (this.reportedUnreachable || this.abort.signal.aborted) return;
      this.reportedUnreachable = true;
      this.options.logger.warn(
        `publishers unreachable (${reasonsOf([...this.retrying.values()]).join(', ')}; ${this.retrying.size} so far): is this machine offline? ` +
          `Requests are retried with backoff, then each source again in a few minutes; /v1/exchangerate/status shows each source's error`,
      );
      this.retrying.clear();
    }, 2_000).unref();
  }

  /** Reports gathered failures when no run is left in progress, or after a minute at most. */
  private reportSoon(): void {
    if (this.unreachable.length === 0 && this.idle.length === 0) return;
    if (this.running.size <= 1 && this.waiting.length === 0) {
      this.report();
      return;
    }
    this.reportTimer ??= setTimeout(() => this.report(), 60_000).unref();
  }

  private report(): void {
    clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    const { logger } = this.options;
    if (this.idle.length > 0) {
      logger.info(
        `${this.idle.length} ${this.idle.length === 1 ? 'source is' : 'sources are'} idle: ${this.idle.map(({ source, reason }) => `${source} (${reason.replace(/^idle: /, '')})`).join(', ')}`,
      );
      this.idle = [];
    }
    const failed = this.unreachable;
    this.unreachable = [];
    if (failed.length === 0) return;
    const retries = failed
      .map(({ source }) => this.nextAt.get(source))
      .filter((date): date is Date => date !== undefined);
    const retry =
      retries.length > 0
        ? `next attempt ${at(new Date(Math.min(...retries.map((date) => date.getTime()))))}`
        : 'it retries';
    if (failed.length === 1) {
      logger.warn(`ingest ${failed[0]!.source} failed: ${failed[0]!.error}; ${retry}`);
      return;
    }
    const reasons = reasonsOf(failed.map(({ error }) => error));
    const message =
      `${failed.length} publishers unreachable (${reasons.join(', ')}): is this machine offline? ` +
      `${retry}; /v1/exchangerate/status shows each source's error`;
    // Once as a warning, or after the early warning once more with the time of the next attempt.
    if (!this.reportedUnreachable) logger.warn(message);
    else if (!this.reportedRetry) logger.info(message);
    else (logger.debug ?? logger.info)(message);
    this.reportedUnreachable = true;
    this.reportedRetry = true;
  }
}

/** A network failure (no answer at all), as opposed to a publisher answering badly. */
function isUnreachable(error: string): boolean {
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ECONNRESET|ETIMEDOUT|no complete response within the time limit/.test(
    error,
  );
}

/** "at 07:15 UTC (in 5 min)". */
function at(date: Date): string {
  const minutes = Math.max(0, Math.round((date.getTime() - Date.now()) / 60_000));
  const wait =
    minutes < 1
      ? 'in under a minute'
      : minutes < 120
        ? `in ${minutes} min`
        : `in ${Math.round(minutes / 60)} h`;
  return `at ${date.toISOString().slice(11, 16)} UTC (${wait})`;
}

/** The error codes of network failures: ECONNREFUSED, ENOTFOUND, timeout. */
function reasonsOf(errors: readonly string[]): string[] {
  return [
    ...new Set(
      errors.map(
        (error) =>
          /\((E[A-Z_]+)\)/.exec(error)?.[1] ?? (/time limit/.test(error) ? 'timeout' : 'no answer'),
      ),
    ),
  ];
}
