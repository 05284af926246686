/**
 * What every publisher test does: replay the publisher's recorded responses through its origin
 * override, ingest them with the real `ingestSource` into a real DuckDB file behind the real app,
 * and read the figures back over HTTP as a user would.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IngestReport } from '../../src/ingest/ingest-source.js';
import { ingestSource } from '../../src/ingest/ingest-source.js';
import type { Extraction, Publisher } from '../../src/sources/publisher.js';
import { findSource } from '../../src/sources/registry.js';
import { getJson, startService, type TestService } from './harness.js';
import { RECORDED, ReplayServer } from './replay-server.js';

/** The `skip` option of a publisher's suite: a reason when a recording it needs is absent. */
export function skipWithoutRecordings(files: readonly string[]): string | false {
  const missing = files.filter((file) => !existsSync(join(RECORDED, file)));
  return missing.length === 0
    ? false
    : `recordings not found in ${RECORDED} (the shared folder beside the checkout): ${missing.join(', ')}`;
}

export interface ReplayOptions {
  /** Files in ../shared/fixtures/recorded the replay server answers from; only these. */
  recordings: readonly string[];
  /** Dates the first run requests, both inclusive. */
  from: string;
  to: string;
  /** More environment for the publisher, such as its API key variables. */
  env?: Record<string, string>;
  /** The service's today, YYYY-MM-DD; the default lies after every recording. */
  today?: string;
}

/** One rate entry of the date endpoint, as csv prints it. */
export interface RateEntry {
  /** The rate exactly as printed. */
  rate: string;
  observationTime: string;
  source: string;
}

export interface PublisherReplay {
  readonly publisher: Publisher;
  /** The report of the first run, over `from`..`to`. */
  readonly report: IngestReport;
  readonly service: TestService;
  readonly replay: ReplayServer;
  /** Another run of the same publisher against the same replay server and database. */
  ingest(window?: { from?: string; to?: string }): Promise<IngestReport>;
  /** GET a path of the app, JSON body parsed. */
  get(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  /**
   * The entry for `symbol` in GET /v1/exchangerate/{date}?sources=<key>&base=&symbols=
   * &decimals=&format=csv; fails the test when there is none.
   */
  rate(date: string, base: string, symbol: string, decimals?: number): Promise<RateEntry>;
  close(): Promise<void>;
}

const TODAY = '2026-11-22';
const FAST_HTTP = { politenessMs: 0, retries: 0, timeoutMs: 5000 };

/** Starts the replay server and the service, and runs the publisher once over the window. */
export async function replayPublisher(
  key: string,
  options: ReplayOptions,
): Promise<PublisherReplay> {
  const publisher = findSource(key);
  if (!publisher) throw new Error(`no registered publisher '${key}'`);
  const replay = await ReplayServer.start(options.recordings);
  const env = replay.env([key], options.env);
  let service: TestService;
  try {
    service = await startService({
      today: () => options.today ?? TODAY,
      ingestEnv: env,
      ingesting: true,
    });
  } catch (error) {
    await replay.close();
    throw error;
  }
  const ingest = (window: { from?: string; to?: string } = {}) =>
    ingestSource(service.store, publisher, { env, http: FAST_HTTP, ...window });
  const report = await ingest({ from: options.from, to: options.to });
  return {
    publisher,
    report,
    service,
    replay,
    ingest,
    get: (url) => getJson(service.app, url),
    async rate(date, base, symbol, decimals = 16) {
      const url =
        `/v1/exchangerate/${date}?sources=${key}&base=${base}&symbols=${symbol}` +
        `&decimals=${decimals}&format=csv`;
      const response = await service.app.inject(url);
      assert.equal(response.statusCode, 200, url);
      const rows = response.body.trimEnd().split('\r\n').slice(1);
      const row = rows.map((line) => line.split(',')).find((fields) => fields[2] === symbol);
      assert.ok(row, `${url}: no ${symbol} in\n${response.body}`);
      const [, , , source, rate, observationTime] = row as [string, ...string[]];
      return { rate: rate!, observationTime: observationTime!, source: source! };
    },
    async close() {
      await service.close();
      await replay.close();
    },
  };
}

/** What a run of recorded responses must have left: the counts a test takes from the files. */
export interface Ingested {
  /** Observations the recorded responses hold. */
  stored: number;
  /** Symbols among them (the sources endpoint lists these plus the relative currency). */
  symbols: number;
  /** Values the files hold that are not storable (codes that are no currency, and such). */
  dropped?: number;
}

/**
 * The first run stored every recorded rate, and the sources and status endpoints say so: the
 * checks every publisher test starts with.
 */
export async function assertIngested(run: PublisherReplay, expected: Ingested): Promise<void> {
  const { key } = run.publisher;
  assert.equal(run.report.error, null);
  assert.equal(run.report.idle, null);
  assert.equal(run.report.stored, expected.stored);
  assert.equal(run.report.dropped, expected.dropped ?? 0, run.report.dropReasons.join('; '));
  const listed = (await run.get(`/v1/exchangerate/sources?sources=${key}`)).body.currencies[key];
  // The symbols a source lists include its own relative currency (CONTRACT §5).
  assert.equal(listed.num_symbols, expected.symbols + 1);
  const status = (await run.get('/v1/exchangerate/status')).body;
  const row = status.sources.find((s: any) => s.source === key);
  assert.equal(row.state, 'ok');
  assert.equal(row.last_error, null);
  assert.equal(row.observations, expected.stored);
  assert.equal(row.last_run_stored, expected.stored);
}

/** A published figure and how the date endpoint must print it. */
export interface Spot {
  date: string;
  base: string;
  symbol: string;
  /** The rate as printed, e.g. '0.592589' or `divideDecimals(symbolLeg, baseLeg, 10)`. */
  rate: string;
  observationTime: string;
  /**
   * `decimals` of the request (16 by default). A quote the publisher prints the other way round
   * is stored inverted, so reading the figure back means dividing by it once more: ask for a
   * few decimals fewer than 16 so the answer is the figure itself, not its last-digit noise.
   */
  decimals?: number;
}

/** Each spot comes back through the date endpoint exactly as expected, from this publisher. */
export async function assertSpots(run: PublisherReplay, spots: readonly Spot[]): Promise<void> {
  for (const spot of spots) {
    const entry = await run.rate(spot.date, spot.base, spot.symbol, spot.decimals);
    const what = `${spot.date} ${spot.base}->${spot.symbol}`;
    assert.deepEqual(
      entry,
      { rate: spot.rate, observationTime: spot.observationTime, source: run.publisher.key },
      what,
    );
  }
}

/** A parser's observations as [symbol, ISO time, rate], for compact assertions on inline samples. */
export function observationRows(extraction: Extraction): [string, string, number][] {
  return extraction.observations.map((o) => [o.symbol, o.observationTime.toISOString(), o.rate]);
}
