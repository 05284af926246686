import type { Env } from '../env.js';
import type { Observation } from '../store/store.js';
import type { SourceHttp } from './http-client.js';

/** Dates to request, both inclusive, YYYY-MM-DD. */
export interface FetchWindow {
  from: string;
  to: string;
}

/** What a parser made of one response: observations in CONTRACT §1 form and what it refused. */
export interface Extraction {
  observations: Observation[];
  /** Values that were not positive finite numbers, codes that are not currencies, and the like. */
  dropped: number;
  /** The first few reasons for dropping, for logs and the status endpoint. */
  dropReasons: string[];
}

/** The observations of one response; the store writes each batch in one transaction. */
export interface Batch extends Extraction {
  url: string;
  /**
   * Set by publishers that walk a window in date order: with this batch, every request for
   * dates up to here has succeeded, so a later run need not fetch them again even if this one
   * fails.
   */
  completeThrough?: string;
}

export interface FetchContext {
  http: SourceHttp;
  /** The environment, for the credentials named in `Publisher.apiKey`. */
  env: Env;
}

/** When new figures usually appear, as UTC HH:MM. */
export interface PublishWindow {
  from: string;
  to: string;
  /** True when the publisher rests on Saturdays and Sundays. */
  weekdaysOnly: boolean;
}

/**
 * One publisher of rates, whole: its identity and publishing facts (CONTRACT §1-§2) and its
 * request plan. Each lives in `src/sources/<key>.ts` beside the pure parsers its `fetch` uses,
 * and is registered by one line in `src/sources/index.ts`; everything else (precedence, the
 * store's `sources` table, defaults, docs) is derived from these objects.
 */
export interface Publisher {
  /** Short name used in URLs, responses and `FXRATES_ORIGIN_<KEY>`: lower case, [a-z0-9_]. */
  readonly key: string;
  readonly name: string;
  /** The currency the publisher quotes against: 1 unit of it buys `rate` units of a symbol. */
  readonly relativeCurrency: string;
  /** Where the publisher documents its rates, for people. */
  readonly url: string;
  /** ISO 3166 alpha-2 code of the publisher's country (EU for the ECB); null for the IMF and feeds. */
  readonly countryCode: string | null;
  /** IANA time zone of the publisher. */
  readonly timeZone: string;
  /** Documented local fixing or publication time, HH:MM; 00:00 when none is documented. */
  readonly fixingTime: string;
  /** True when the publisher's time zone observes daylight-saving time (CONTRACT §1). */
  readonly isDst: boolean;
  /** First date the publisher's data can be fetched from; a first ingest backfills from here. */
  readonly historyStart: string;
  /**
   * When new figures usually appear; ingestion polls every half hour across this window
   * (publishers are often late) on the listed days.
   */
  readonly publishWindowUtc: PublishWindow;
  /** What ingestion fetches, in a line, for the README's table of sources. */
  readonly fetches: string;
  /**
   * Environment variables the publisher's API needs. Without them the publisher stays idle and
   * the status endpoint says which to set (see `idleReason`).
   */
  readonly apiKey?: { readonly variables: readonly string[] };
  /**
   * Yields one batch per response covering at least `window`, which never starts before
   * `historyStart` (ingestion clamps it) and is not empty. A response may hold more than
   * the window (publishers send whole years or whole histories); all of it is kept. Parsing is
   * done by the module's pure exported parse functions; nothing here touches the database.
   */
  fetch(window: FetchWindow, context: FetchContext): AsyncIterable<Batch>;
}

/** Why a publisher cannot run with this environment (a missing API key), or undefined. */
export function idleReason(publisher: Publisher, env: Env): string | undefined {
  const missing = (publisher.apiKey?.variables ?? []).filter((name) => !env[name]);
  if (missing.length === 0) return undefined;
  const owner = publisher.key.toUpperCase();
  const what = missing.length === 1 ? `a ${owner} API key` : `${owner} API credentials`;
  return `idle: set ${missing.join(' and ')} to ${what} to ingest this source`;
}
