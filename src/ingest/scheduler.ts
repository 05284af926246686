import { setMaxListeners } from 'node:events';
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

  constructor(
    private readonly store: Store,
    private readonly options: SchedulerOptions,
  ) {
    // Every run's requests and waits listen to this one signal: dozens of listeners is normal.
    setMaxListeners(0, this.abort.signal);
  }

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

  /** Stops polling, cancels requests in flight and waits for the runs to record their outcome. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled(this.running.values());
  }

  private schedule(source: SourceEntry, delayMs: number): void {
    if (this.abort.signal.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(source.key);
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
      });
    } catch (error) {
      this.options.logger.warn(`ingest ${source.key}: ${(error as Error).message}`);
    }
    if (this.abort.signal.aborted) return;
    const now = new Date();
    let next = nextPollAfter(now, source.publishWindowUtc);
    if (report?.idle) {
      this.options.logger.info(`ingest ${source.key}: ${report.idle}`);
    } else if (!report || report.error) {
      const failures = (this.failures.get(source.key) ?? 0) + 1;
      this.failures.set(source.key, failures);
      const retryAt = new Date(now.getTime() + retryDelayMs(failures));
      if (retryAt < next) next = retryAt;
      if (report) this.options.logger.warn(`ingest ${source.key} failed: ${report.error}`);
    } else {
      this.failures.delete(source.key);
      this.options.logger.info(
        `ingest ${source.key}: ${report.stored} observations new or changed from ${report.requests} requests` +
          (report.dropped > 0 ? `, ${report.dropped} values dropped` : ''),
      );
    }
    this.schedule(source, next.getTime() - now.getTime());
  }
}
