/**
 * fxrates measured against its performance targets in one run, each figure from a real
 * `fxrates serve` child process loaded by `fxrates import`, as an operator would run them: the
 * installed command (bin/fxrates: the built dist/cli.js, which `npm run bench:compare` builds
 * first, with jemalloc preloaded where the system has it; the run says which malloc the server
 * has), not the sources through a TypeScript loader, which would add its own memory to every
 * figure.
 *
 * - data sets: the ECB history file (217k observations) and generated sets of 1,000,000 and
 *   4,000,000 observations (4 sources, 40 a business day from 1900-01-01 onward);
 * - engines: DuckDB (a file) and PostgreSQL (a database of a throwaway cluster, as in
 *   bench:engines, or FXRATES_TEST_PG_URL);
 * - per data set and engine: the load time; p50 latency, req/s and MB/s (identity bodies) of
 *   uncached one-date requests, one-year ranges, the full history (pretty and compact json),
 *   month aggregation over everything and response-cache hits, from N keep-alive clients each
 *   sending its next request when the previous answer is complete (the one-date and one-year
 *   scenarios in three rounds taken in turn, each figure the median of the rounds'); the server's
 *   peak RSS above the warmed process (VmHWM after clear_refs) per scenario; the cache hits
 *   against a bare node:http server answering the same bytes and headers
 *   (bench/bare-server.mjs), the ceiling, in rounds taken in turn with fxrates' own;
 * - once the server has stopped: the statements of the one-date and one-year requests alone,
 *   planned as the server plans them and run through the store in this process, beside the
 *   requests' p50: what the engine takes of each request and what the service adds;
 * - Frankfurter v1's published figures (ECB data, other machine) beside fxrates' own: one date
 *   and one-year ranges in JPY and USD, and, on the ECB file, in EUR as the peer answers them;
 *   with FXRATES_BENCH_PEER_URL (a Frankfurter v1 over the same ECB data) a side-by-side run;
 * - a summary of the targets: met or not.
 *
 *   npm run bench:compare   (npm run build, then node --import tsx bench/compare.bench.mts)
 *     FXRATES_BENCH_SETS=ecb,1m,4m          data sets (default all; ecb needs ../shared/fixtures)
 *     FXRATES_BENCH_ENGINES=duckdb,postgres engines (default both)
 *     FXRATES_BENCH_QUICK=1                 fewer requests per scenario: a short run
 *     FXRATES_BENCH_PEER_URL=http://host:port
 * A scenario that fails (a status other than 200, an answer cut short) is reported with what the
 * server logged, the others still run, and the exit status is 1.
 * Figures vary with the machine; compare the ratios of one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mallocInUse } from '../src/allocator.js';
import { addDays, daysBetween } from '../src/dates.js';
import { SERVE_THREADS } from '../src/config.js';
import { planRateRequest, type RatePath } from '../src/resolve/rate-request.js';
import { openServiceStore } from '../src/service-store.js';
import {
  GENERATED_FIRST_DATE,
  GENERATED_SOURCE_KEYS,
  generateObservations,
  generatedLastDate,
} from '../scripts/generate-observations.js';
import { chosen, ecbDates, median, printTable } from './common.mjs';
import { postgresCluster, skipWithoutPostgres } from '../test/support/postgres-cluster.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
/** The installed command: dist/cli.js, with jemalloc preloaded where the system has it. */
const LAUNCHER = join(ROOT, 'bin', 'fxrates');
const BARE_SERVER = join(ROOT, 'bench', 'bare-server.mjs');
const ECB_FILE = resolve(ROOT, '..', 'shared', 'fixtures', 'history', 'eurofxref-hist.csv');
const GENERATED_SOURCES = `sources=${GENERATED_SOURCE_KEYS}`;
const QUICK = process.env.FXRATES_BENCH_QUICK === '1';
const PEER_URL = process.env.FXRATES_BENCH_PEER_URL;

/** Requests per scenario. */
const COUNTS = QUICK
  ? { oneDate: 60, range1: 12, range32: 96, history1: 1, history32: 32, hit1: 3_000, hit32: 9_000 }
  : {
      oneDate: 300,
      range1: 42,
      range32: 96,
      history1: 3,
      history32: 32,
      hit1: 6_000,
      hit32: 21_000,
    };

// ---------------------------------------------------------------------------------------------
// Choices from the environment

const SET_KEYS = ['ecb', '1m', '4m'] as const;
type SetKey = (typeof SET_KEYS)[number];
const ENGINE_KEYS = ['duckdb', 'postgres'] as const;
type Engine = (typeof ENGINE_KEYS)[number];

// ---------------------------------------------------------------------------------------------
// Data sets

interface DataSet {
  key: SetKey;
  title: string;
  /** The observations file, written by `prepare`. */
  path: string;
  prepare(): Promise<void>;
  firstDate: string;
  lastDate: string;
  /** The query parameter naming the sources, or '' for the default ones. */
  sources: string;
}

function generatedSet(key: SetKey, count: number, dir: string): DataSet {
  const path = join(dir, `generated-${key}.csv`);
  return {
    key,
    title: `generated, ${count.toLocaleString('en')} observations`,
    path,
    prepare: () => generateObservations(path, count),
    firstDate: GENERATED_FIRST_DATE,
    lastDate: generatedLastDate(count),
    sources: GENERATED_SOURCES,
  };
}

function dataSets(dir: string): DataSet[] {
  const sets: DataSet[] = [];
  for (const key of chosen('FXRATES_BENCH_SETS', SET_KEYS)) {
    if (key === 'ecb') {
      if (!existsSync(ECB_FILE)) {
        console.log(`ECB history skipped: ${ECB_FILE} not found`);
        continue;
      }
      sets.push({
        key,
        title: 'ECB history, eurofxref-hist.csv',
        path: ECB_FILE,
        prepare: async () => undefined,
        ...ecbDates(ECB_FILE),
        sources: '',
      });
    } else {
      sets.push(generatedSet(key, key === '1m' ? 1_000_000 : 4_000_000, dir));
    }
  }
  return sets;
}

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  /** Key of the figure, e.g. `date@1`. */
  id: string;
  label: string;
  connections: number;
  paths: string[];
  /** Requests before the timed ones, on the same connections. */
  warmup: string[];
  /** Accept-Encoding of every request; none by default. */
  encoding?: string;
}

function withQuery(path: string, ...params: string[]): string {
  const query = params.filter((param) => param !== '').join('&');
  return query === '' ? path : `${path}?${query}`;
}

function repeat<T>(value: T, count: number): T[] {
  return Array.from({ length: count }, () => value);
}

/** `count` distinct dates spread evenly over the data set, shifted by `shift` of a step. */
function spreadDates(set: DataSet, count: number, shift: number): string[] {
  const span = daysBetween(set.firstDate, set.lastDate);
  return Array.from({ length: count }, (_, i) =>
    addDays(set.firstDate, Math.floor(((i + shift) * span) / count)),
  );
}

/** `count` years with complete data, spread over the data set (repeating when too few). */
function spreadYears(set: DataSet, count: number): number[] {
  const first = Number(set.firstDate.slice(0, 4)) + 1;
  const years = Number(set.lastDate.slice(0, 4)) - first;
  return Array.from(
    { length: count },
    (_, i) => first + (Math.floor(((i + 0.5) * years) / count) % years),
  );
}

/** Paths of one data set: what each scenario requests. */
class Paths {
  constructor(private readonly set: DataSet) {}

  /** One date, with `base`: uncached while no other scenario uses that base. */
  oneDate(date: string, base: string): string {
    return withQuery(`/v1/exchangerate/${date}`, `base=${base}`, this.set.sources);
  }

  oneYear(year: number, ...params: string[]): string {
    return withQuery(`/v1/exchangerate/${year}-01-01/${year}-12-31`, ...params, this.set.sources);
  }

  /** Everything held up to today: /all (a generated set of 4 M runs on past today). */
  history(...params: string[]): string {
    return withQuery('/v1/exchangerate/all', ...params, this.set.sources);
  }

  latest(): string {
    return withQuery('/v1/exchangerate/latest', this.set.sources);
  }

  /** 2020-06-01 when the data set holds it, else its middle date. */
  repeatedDate(): string {
    const date =
      this.set.firstDate <= '2020-06-01' && '2020-06-01' <= this.set.lastDate
        ? '2020-06-01'
        : addDays(
            this.set.firstDate,
            Math.floor(daysBetween(this.set.firstDate, this.set.lastDate) / 2),
          );
    return withQuery(`/v1/exchangerate/${date}`, this.set.sources);
  }

  middleYear(): number {
    return spreadYears(this.set, 1)[0]!;
  }
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The timed scenarios except the cache hits. */
function timedScenarios(set: DataSet): Scenario[] {
  const paths = new Paths(set);
  const oneDate = (
    id: string,
    connections: number,
    base: string,
    warmupBase: string,
    shift = 0.5,
  ): Scenario => ({
    id,
    label: `one date, uncached (base=${base})`,
    connections,
    paths: spreadDates(set, COUNTS.oneDate, shift).map((date) => paths.oneDate(date, base)),
    // The same dates with another base: the server's code is compiled and the engine's blocks
    // are loaded, as in any server that has run a while (or a second repeat), and no timed
    // answer is cached.
    warmup: spreadDates(set, COUNTS.oneDate, shift).map((date) => paths.oneDate(date, warmupBase)),
  });
  const oneYear = (
    id: string,
    connections: number,
    count: number,
    ...params: string[]
  ): Scenario => ({
    id,
    label: `one-year range${params.length > 0 ? ` (${params.join('&')})` : ''}`,
    connections,
    paths: spreadYears(set, count).map((year) => paths.oneYear(year, ...params)),
    warmup: spreadYears(set, Math.max(connections, 8)).map((year) =>
      paths.oneYear(year, ...params),
    ),
  });
  const history = (
    id: string,
    label: string,
    connections: number,
    count: number,
    query: string[],
    encoding?: string,
  ): Scenario => ({
    id,
    label,
    connections,
    paths: repeat(paths.history(...query), count),
    warmup: [paths.history(...query)],
    encoding,
  });
  return [
    oneDate('date@1', 1, 'JPY', 'CHF'),
    oneDate('date@8', 8, 'GBP', 'CAD'),
    // The ECB's rates as published, against EUR: what the peer answers by default. (Other dates
    // than the peer comparison's, so that none of its answers is cached here.)
    ...(set.key === 'ecb' ? [oneDate('date-eur@1', 1, 'EUR', 'SEK', 0.25)] : []),
    oneYear('range@1', 1, COUNTS.range1),
    oneYear('range@32', 32, COUNTS.range32),
    ...(set.key === 'ecb' ? [oneYear('range-eur@1', 1, COUNTS.range1, 'base=EUR')] : []),
    history('history@1', 'full history, pretty json', 1, COUNTS.history1, []),
    history('history@32', 'full history, pretty json', 32, COUNTS.history32, []),
    history('compact@1', 'full history, compact json', 1, COUNTS.history1, ['pretty_print=false']),
    history('month@1', 'full history, aggregation=month', 1, COUNTS.history1, [
      'aggregation=month',
      'pretty_print=false',
    ]),
    // The longest look-back, which carries a stopped series over a century: each window reads
    // only what reaches into it from the days before it. Not on 4 M (minutes on PostgreSQL).
    ...(set.key === '4m'
      ? []
      : [
          history(
            'month-reach@1',
            'full history, aggregation=month, up_to_days_before=36525',
            1,
            COUNTS.history1,
            ['aggregation=month', 'up_to_days_before=36525', 'pretty_print=false'],
          ),
        ]),
    // As most clients ask (curl --compressed, browsers, Go): each answer being compressed is in
    // flight longer, so more of them hold a window at once. On the ECB file only (4 M: minutes).
    ...(set.key === 'ecb'
      ? [history('gzip@32', 'full history, pretty json, gzip', 32, COUNTS.history32, [], 'gzip')]
      : []),
  ];
}

/** The response-cache hits: the same path again and again, after a warm-up that caches it. */
function cacheHitScenarios(set: DataSet): Scenario[] {
  const paths = new Paths(set);
  const hits: Scenario[] = [];
  for (const [id, label, path] of [
    ['latest', 'cache hit, latest', paths.latest()],
    ['hit', 'cache hit, one date', paths.repeatedDate()],
  ] as const) {
    for (const [connections, count] of [
      [1, COUNTS.hit1],
      [32, COUNTS.hit32],
    ] as const) {
      hits.push({
        id: `${id}@${connections}`,
        label,
        connections,
        paths: repeat(path, count),
        // Enough for the JIT of both servers to settle: fewer make the first scenarios slower.
        warmup: repeat(path, 2_000),
      });
    }
  }
  return hits;
}

/**
 * One request each, after the same request once: the server's peak memory while it answers
 * (the largest of PEAK_REPEATS).
 */
function memoryScenarios(set: DataSet): Scenario[] {
  const paths = new Paths(set);
  const single = (id: string, label: string, path: string): Scenario => ({
    id,
    label,
    connections: 1,
    paths: [path],
    warmup: [path],
  });
  return [
    single('mem:range', 'one-year range', paths.oneYear(paths.middleYear())),
    single('mem:compact', 'full history, compact json', paths.history('pretty_print=false')),
    single(
      'mem:month',
      'full history, aggregation=month',
      paths.history('aggregation=month', 'pretty_print=false'),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Load generator

interface Measurement {
  requests: number;
  p50: number;
  reqPerSec: number;
  mbPerSec: number;
  /** The server's peak RSS above the warmed process, MiB (NaN when not watched). */
  peakMiB: number;
  /** The warmed server's RSS when the timed requests began, MiB (NaN when not watched). */
  rssMiB: number;
}

/** A listening server: fxrates, the bare server, a peer. */
interface Target {
  url: URL;
  /** The process whose memory is watched; none for a peer elsewhere. */
  pid?: number;
}

/**
 * GETs `path` (without Accept-Encoding unless `encoding` is given) and resolves to the size of
 * the body as sent; anything but 200 throws.
 */
function get(agent: http.Agent, url: URL, path: string, encoding?: string): Promise<number> {
  const failed = (why: string): Error => new Error(`${url.origin}${path}: ${why}`);
  return new Promise((resolve, reject) => {
    const headers = encoding === undefined ? {} : { 'accept-encoding': encoding };
    const request = http.get(
      { hostname: url.hostname, port: url.port, path, agent, headers },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('error', (error) => reject(failed(error.message)));
        response.once('end', () => {
          if (response.statusCode === 200) resolve(bytes);
          else reject(failed(`status ${response.statusCode}`));
        });
      },
    );
    request.on('error', (error) => reject(failed(error.message)));
  });
}

/**
 * `clients` clients, each sending the next of `paths` when its previous answer is complete.
 * After a failure no client starts another request; the first failure is thrown once all stop.
 */
async function drive(
  agent: http.Agent,
  url: URL,
  paths: string[],
  clients: number,
  encoding?: string,
): Promise<{ latencies: number[]; bytes: number }> {
  const latencies: number[] = [];
  let bytes = 0;
  let next = 0;
  let failure: unknown;
  const client = async (): Promise<void> => {
    while (failure === undefined && next < paths.length) {
      const path = paths[next++]!;
      const started = performance.now();
      try {
        bytes += await get(agent, url, path, encoding);
      } catch (error) {
        failure ??= error;
        return;
      }
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, paths.length) }, client));
  if (failure !== undefined) throw failure;
  return { latencies, bytes };
}

/** Warms up, then times the scenario's requests and watches the target's peak memory. */
async function measure(target: Target, scenario: Scenario): Promise<Measurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: scenario.connections });
  try {
    await drive(agent, target.url, scenario.warmup, scenario.connections, scenario.encoding);
    const watch = target.pid === undefined ? undefined : await watchPeakMemory(target.pid);
    const stopWatching = watch ? watch.stop : async () => NaN;
    const started = performance.now();
    const timed = await drive(
      agent,
      target.url,
      scenario.paths,
      scenario.connections,
      scenario.encoding,
    ).catch(async (error: unknown) => {
      await stopWatching();
      throw error;
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      requests: scenario.paths.length,
      p50: median(timed.latencies),
      reqPerSec: scenario.paths.length / seconds,
      mbPerSec: timed.bytes / 1e6 / seconds,
      peakMiB: await stopWatching(),
      rssMiB: watch ? watch.baselineKiB / 1024 : NaN,
    };
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Peak memory of a child process

async function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const value = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  if (value === undefined) throw new Error(`no ${field} for process ${pid}`);
  return Number(value);
}

let samplingSaid = false;

/**
 * Starts watching the peak RSS of `pid` from its RSS now (`baselineKiB`); `stop` gives the peak
 * above that, in MiB. Exact: writing 5 to clear_refs resets VmHWM to the current RSS. Where that
 * is not allowed, VmRSS sampled every 5 ms.
 */
async function watchPeakMemory(
  pid: number,
): Promise<{ baselineKiB: number; stop: () => Promise<number> }> {
  let exact = true;
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
  } catch {
    exact = false;
  }
  const baseline = await statusKiB(pid, 'VmRSS');
  // RSS counters are a few pages inexact: a peak a hair below the baseline is none.
  const above = (peak: number): number => Math.max(0, peak - baseline) / 1024;
  if (exact)
    return { baselineKiB: baseline, stop: async () => above(await statusKiB(pid, 'VmHWM')) };
  if (!samplingSaid) {
    console.log(`(peak memory sampled every 5 ms: /proc/${pid}/clear_refs is not writable)`);
    samplingSaid = true;
  }
  let peak = baseline;
  const timer = setInterval(() => {
    statusKiB(pid, 'VmRSS').then(
      (rss) => (peak = Math.max(peak, rss)),
      () => undefined,
    );
  }, 5);
  return {
    baselineKiB: baseline,
    stop: async () => {
      clearInterval(timer);
      return above(peak);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Child processes

interface Child {
  process: ChildProcess;
  /** The last 20,000 characters of its stdout and stderr. */
  output(): string;
  /** First lines of the warnings and errors it logged (JSON log lines at level warn or above). */
  problems: string[];
}

/** The first line of a JSON log line's error, when it is a warning or worse. */
function problemOf(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    if ((entry.level ?? 0) < 40) return undefined;
    return (entry.err?.message ?? entry.msg ?? line).split('\n')[0];
  } catch {
    return undefined;
  }
}

function startChild(command: string, args: string[], env: Record<string, string> = {}): Child {
  const proc = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
  const child: Child = { process: proc, output: () => output, problems: [] };
  let output = '';
  let partial = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const problem of lines.map(problemOf)) if (problem) child.problems.push(problem);
  });
  for (const stream of [proc.stdout, proc.stderr]) {
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  }
  return child;
}

/** Runs `fxrates ARGS...` to its end; a failure throws with its output. */
async function runCli(args: string[]): Promise<void> {
  const child = startChild(process.execPath, [CLI, ...args]);
  const [code] = (await once(child.process, 'close')) as [number | null];
  if (code !== 0) throw new Error(`fxrates ${args[0]} exited with ${code}: ${child.output()}`);
}

/** Waits until the child prints `listening at URL`; stops it when it does not within a minute. */
async function listening(child: Child, what: string): Promise<Target> {
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const match = /listening at (http:\/\/[\d.]+:\d+)/i.exec(child.output());
      if (match) resolve(match[1]!);
    };
    child.process.stdout!.on('data', look);
    child.process.stderr!.on('data', look);
    child.process.once('exit', (code) =>
      reject(new Error(`${what} exited with ${code}: ${child.output()}`)),
    );
    setTimeout(
      () => reject(new Error(`${what} did not listen: ${child.output()}`)),
      60_000,
    ).unref();
  }).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  return { url: new URL(url), pid: child.process.pid! };
}

function exited(child: Child): boolean {
  return child.process.exitCode !== null || child.process.signalCode !== null;
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the process has gone. */
async function stop(child: Child): Promise<void> {
  if (exited(child)) return;
  const gone = once(child.process, 'exit');
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

interface Recorded {
  status: number;
  /** Raw header names and values in turn, without those Node's server adds itself. */
  headers: string[];
  /** Base64. */
  body: string;
}

const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** fxrates' answer to `path` (identity), as the bare server is to repeat it. */
function record(url: URL, path: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const request = http.get({ hostname: url.hostname, port: url.port, path }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.once('end', () => {
        if (response.statusCode !== 200) {
          reject(new Error(`${url.origin}${path}: status ${response.statusCode}`));
          return;
        }
        const headers: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i]!;
          if (!ADDED_BY_NODE.has(name.toLowerCase())) {
            headers.push(name, response.rawHeaders[i + 1]!);
          }
        }
        resolve({ status: 200, headers, body: Buffer.concat(chunks).toString('base64') });
      });
    });
    request.on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// One data set on one engine

interface EngineRun {
  set: DataSet;
  engine: Engine;
  loadMs: number;
  scenarios: Map<string, Scenario>;
  /** fxrates' figures by scenario id. */
  figures: Map<string, Measurement>;
  /** The bare server's figures for the cache hits. */
  bare: Map<string, Measurement>;
  /** Why a scenario failed, by its id (`bare:` and the id for the bare server). */
  failures: Map<string, string>;
  /** The p50 of the requests' statements alone, ms, by scenario id (see timeStatements). */
  statementMs: Map<string, number>;
}

/** A fresh database: a DuckDB file in `dir`, or a database of the PostgreSQL cluster. */
async function freshDatabase(engine: Engine, dir: string, set: DataSet): Promise<string> {
  if (engine === 'duckdb') return join(dir, `${set.key}-${Date.now()}.duckdb`);
  return (await postgresCluster()).createDatabase();
}

async function dropDatabase(engine: Engine, db: string): Promise<void> {
  if (engine === 'duckdb') {
    rmSync(db, { force: true });
    rmSync(`${db}.wal`, { force: true });
  } else {
    await (await postgresCluster()).dropDatabase(db);
  }
}

async function runEngine(set: DataSet, engine: Engine, dir: string): Promise<EngineRun> {
  const db = await freshDatabase(engine, dir, set);
  try {
    const started = performance.now();
    await runCli(['import', '--db', db, set.path]);
    const loadMs = performance.now() - started;
    console.log(`\n${set.title} on ${engine}: loaded by fxrates import in ${formatMs(loadMs)} ms`);
    const server = startChild(LAUNCHER, ['serve', '--no-ingest', '--port', '0', '--db', db], {
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    let run: EngineRun;
    try {
      const fxrates = await listening(server, 'fxrates serve');
      console.log(
        `fxrates serve runs on ${mallocInUse(`/proc/${fxrates.pid}/maps`) ?? 'its malloc'}`,
      );
      run = await measureAll(set, engine, { child: server, target: fxrates }, dir, loadMs);
      printRun(run);
      if (PEER_URL && set.key === 'ecb') await peerSideBySide(set, fxrates, new URL(PEER_URL));
    } finally {
      await stop(server);
    }
    // Once the server has stopped: it holds a DuckDB file alone.
    await timeStatements(run, db);
    printStatementTimes(run);
    return run;
  } finally {
    await dropDatabase(engine, db);
  }
}

interface Server {
  child: Child;
  target: Target;
}

/**
 * Measures `scenario`, or notes why it failed under `key`, with what the server logged
 * meanwhile; a server that has exited ends the run.
 */
async function attempt(
  run: EngineRun,
  server: Server,
  scenario: Scenario,
  key: string,
): Promise<Measurement | undefined> {
  const logged = server.child.problems.length;
  try {
    return await measure(server.target, scenario);
  } catch (error) {
    const said = [...new Set(server.child.problems.slice(logged))];
    const why = `${(error as Error).message}${said.length > 0 ? `; the server logged: ${said.slice(0, 2).join(' | ')}` : ''}`;
    run.failures.set(key, why);
    if (exited(server.child)) throw new Error(`the server exited: ${server.child.output()}`);
    return undefined;
  }
}

/**
 * How often a memory scenario's request is repeated. One request's peak depends on when the
 * garbage collector last ran: the largest of a few is the steadier figure.
 */
const PEAK_REPEATS = 3;

/** A memory scenario, PEAK_REPEATS times (warmed up the first time): the largest peak. */
async function attemptPeak(
  run: EngineRun,
  server: Server,
  scenario: Scenario,
): Promise<Measurement | undefined> {
  let largest: Measurement | undefined;
  for (let r = 0; r < PEAK_REPEATS; r++) {
    const warmed = r === 0 ? scenario : { ...scenario, warmup: [] };
    const figure = await attempt(run, server, warmed, scenario.id);
    if (!figure) return undefined;
    if (!largest || figure.peakMiB > largest.peakMiB) largest = figure;
  }
  return largest;
}

/**
 * Rounds of each cache-hit scenario, fxrates' and the bare server's in turn (noise hits both),
 * and of the one-date and one-year scenarios (measureInRounds).
 */
const ROUNDS = 3;

/** The round of median req/s, with the requests of all rounds. */
function medianRound(rounds: Measurement[]): Measurement {
  const sorted = [...rounds].sort((a, b) => a.reqPerSec - b.reqPerSec);
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  return { ...sorted[Math.floor(sorted.length / 2)]!, requests };
}

/**
 * The one-date and one-year scenarios (those of many requests, one at a time or 32 at once):
 * measured in ROUNDS rounds taken in turn, each round every ROUNDS-th of a scenario's requests,
 * so that the noise of a shared machine hits them all alike; each figure (p50, req/s, MB/s) is
 * the median of the rounds', the peak memory the largest.
 * (Each round asks other dates: none is answered from the cache.)
 */
function inRounds(scenario: Scenario): boolean {
  return (
    /^(date|range)/.test(scenario.id) && scenario.paths.length >= ROUNDS * scenario.connections
  );
}

async function measureInRounds(
  run: EngineRun,
  fxrates: Server,
  scenarios: Scenario[],
): Promise<void> {
  const rounds = new Map<string, Measurement[]>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const scenario of scenarios) {
      const measured = rounds.get(scenario.id) ?? [];
      if (measured.length < r) continue;
      // The warm-up once; later rounds open their connections with one request each of it (a
      // one-date warm-up asks the timed dates in another base: no timed answer is cached).
      const round: Scenario = {
        ...scenario,
        paths: scenario.paths.filter((_, index) => index % ROUNDS === r),
        warmup: r === 0 ? scenario.warmup : scenario.warmup.slice(0, scenario.connections),
      };
      const figure = await attempt(run, fxrates, round, scenario.id);
      if (figure) rounds.set(scenario.id, [...measured, figure]);
    }
  }
  for (const [id, measured] of rounds) {
    if (measured.length === ROUNDS) run.figures.set(id, medianFigures(measured));
  }
}

/** Each figure the median of the rounds' own (the peak memory the largest), with their requests. */
function medianFigures(rounds: Measurement[]): Measurement {
  const middle = (figure: (m: Measurement) => number): number => median(rounds.map(figure));
  return {
    requests: rounds.reduce((sum, round) => sum + round.requests, 0),
    p50: middle((m) => m.p50),
    reqPerSec: middle((m) => m.reqPerSec),
    mbPerSec: middle((m) => m.mbPerSec),
    peakMiB: Math.max(...rounds.map((m) => m.peakMiB)),
    rssMiB: middle((m) => m.rssMiB),
  };
}

/** The cache hits on fxrates and on the bare server, interleaved round by round. */
async function measureHits(
  run: EngineRun,
  fxrates: Server,
  bare: Server,
  hits: Scenario[],
): Promise<void> {
  for (const scenario of hits) {
    const round = { ...scenario, paths: scenario.paths.slice(0, scenario.paths.length / ROUNDS) };
    const ours: Measurement[] = [];
    const theirs: Measurement[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const fx = await attempt(run, fxrates, round, scenario.id);
      const plain = await attempt(run, bare, round, `bare:${scenario.id}`);
      if (!fx || !plain) break;
      ours.push(fx);
      theirs.push(plain);
    }
    if (ours.length < ROUNDS) continue;
    run.figures.set(scenario.id, medianRound(ours));
    run.bare.set(scenario.id, medianRound(theirs));
  }
}

async function measureAll(
  set: DataSet,
  engine: Engine,
  fxrates: Server,
  dir: string,
  loadMs: number,
): Promise<EngineRun> {
  const timed = timedScenarios(set);
  const memory = memoryScenarios(set);
  const hits = cacheHitScenarios(set);
  const run: EngineRun = {
    set,
    engine,
    loadMs,
    scenarios: new Map([...timed, ...memory, ...hits].map((scenario) => [scenario.id, scenario])),
    figures: new Map(),
    bare: new Map(),
    failures: new Map(),
    statementMs: new Map(),
  };
  // The 32 concurrent full histories come last: a server that fails them (out of memory) may
  // fail the large requests after them too.
  const concurrentHistory = (scenario: Scenario): boolean =>
    scenario.id === 'history@32' || scenario.id === 'gzip@32';
  await measureInRounds(run, fxrates, timed.filter(inRounds));
  const ordered = [
    ...timed.filter((scenario) => !inRounds(scenario) && !concurrentHistory(scenario)),
    ...memory,
    ...timed.filter(concurrentHistory),
  ];
  for (const scenario of ordered) {
    const figure = scenario.id.startsWith('mem:')
      ? await attemptPeak(run, fxrates, scenario)
      : await attempt(run, fxrates, scenario, scenario.id);
    if (figure) run.figures.set(scenario.id, figure);
  }
  const bare = await startBare(fxrates.target.url, hits, dir);
  try {
    await measureHits(run, fxrates, bare, hits);
  } finally {
    await stop(bare.child);
  }
  return run;
}

/** The bare server, answering the cache-hit paths as fxrates did. */
async function startBare(fxrates: URL, scenarios: Scenario[], dir: string): Promise<Server> {
  const responses: Record<string, Recorded> = {};
  for (const path of new Set(scenarios.map((scenario) => scenario.paths[0]!))) {
    responses[path] = await record(fxrates, path);
  }
  const file = join(dir, 'bare-responses.json');
  writeFileSync(file, JSON.stringify(responses));
  const child = startChild(process.execPath, [BARE_SERVER, file]);
  return { child, target: await listening(child, 'bare server') };
}

// ---------------------------------------------------------------------------------------------
// The statements alone

/**
 * The scenarios whose statements are also timed alone (see timeStatements): one statement each,
 * read whole before a byte is written. A full history is not: the service writes its windows
 * while it computes the next ones on other connections (PostgreSQL: on other server processes),
 * so its statements one after the other take longer than the request.
 */
const STATEMENT_SCENARIOS = ['date@1', 'date-eur@1', 'range@1', 'range-eur@1'];

/** The endpoint and query string of a rate path, as the server's routes read them. */
function ratePathOf(path: string): { ratePath: RatePath; query: string } {
  const [pathname = '', query = ''] = path.split('?', 2);
  const segments = pathname.replace(/^\/v1\/exchangerate\//, '').split('/');
  const [first = '', second] = segments;
  if (second !== undefined)
    return { ratePath: { endpoint: 'range', start: first, end: second }, query };
  if (first === 'all' || first === 'latest') return { ratePath: { endpoint: first }, query };
  return { ratePath: { endpoint: 'date', date: first }, query };
}

/**
 * Times the statement of each request of the one-date and one-year scenarios, planned as the
 * server plans it and run through the store in this process once the server has stopped, one
 * at a time, each once untimed first: its p50 in run.statementMs. What a request would take if
 * answering it cost nothing beyond its statement. The difference to the request's own p50 is
 * what this service adds: planning, turning the engine's values into text, HTTP, and the client.
 */
async function timeStatements(run: EngineRun, db: string): Promise<void> {
  const store = await openServiceStore(db, { threads: SERVE_THREADS });
  try {
    const catalog = await store.catalog();
    for (const id of STATEMENT_SCENARIOS) {
      const scenario = run.scenarios.get(id);
      if (!scenario || !run.figures.has(id)) continue;
      const ms: number[] = [];
      for (const path of scenario.paths) {
        const { ratePath, query } = ratePathOf(path);
        const { statements } = planRateRequest(ratePath, query, catalog, store.dialect, today());
        // (A range long enough to be cut into windows is not one statement: not timed here.)
        const [sql, ...more] = statements;
        if (sql === undefined || more.length > 0) continue;
        await store.readColumns(sql);
        const started = performance.now();
        await store.readColumns(sql);
        ms.push(performance.now() - started);
      }
      if (ms.length > 0) run.statementMs.set(id, median(ms));
    }
  } catch (error) {
    // Reported (and the run counted as failed) without losing the figures measured before. The
    // run's failures were printed already: this one is printed here.
    const key = 'timing the statements alone';
    run.failures.set(key, (error as Error).message);
    console.log(`\nFAILED ${key}: ${(error as Error).message}`);
  } finally {
    await store.close();
  }
}

function printStatementTimes(run: EngineRun): void {
  if (run.statementMs.size === 0) return;
  const peer = new Map(PEER_PUBLISHED.map(({ id, p50 }) => [id, p50]));
  const ecb = run.set.key === 'ecb';
  console.log(
    `\n${run.set.title} on ${run.engine}: each request's statement alone (as the server plans it, run in this process after it stopped, on ${mallocInUse() ?? 'its malloc'})`,
  );
  printTable(
    [
      'scenario',
      'request p50 ms',
      'statement p50 ms',
      'the rest, ms',
      ...(ecb ? ['peer ÷ statement'] : []),
    ],
    [...run.statementMs].map(([id, statementMs]) => {
      const request = run.figures.get(id)!.p50;
      const peerMs = peer.get(id);
      return [
        run.scenarios.get(id)!.label,
        formatMs(request),
        formatMs(statementMs),
        formatMs(request - statementMs),
        ...(ecb ? [peerMs === undefined ? '' : formatRatio(peerMs / statementMs)] : []),
      ];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Frankfurter v1

/** Frankfurter v1's published figures (ECB data set, 217,526 observations, another machine). */
const PEER_PUBLISHED: { label: string; p50: number; id: string; target?: number }[] = [
  { label: 'one date, uncached', p50: 5.6, id: 'date@1', target: 2 },
  { label: 'one date, uncached, in EUR', p50: 5.6, id: 'date-eur@1', target: 2 },
  { label: 'one-year range', p50: 94, id: 'range@1', target: 5 },
  { label: 'one-year range, in EUR', p50: 94, id: 'range-eur@1', target: 5 },
  { label: 'full history', p50: 2_725, id: 'history@1', target: 5 },
  { label: 'cache hit, latest', p50: 3.6, id: 'latest@1' },
  { label: 'cache hit, one date', p50: 3.6, id: 'hit@1' },
];

/** The same requests to fxrates and to a Frankfurter v1, a pair at a time: fxrates' and the peer's. */
function peerPairs(set: DataSet, repeatIndex: number): [string, Scenario, Scenario][] {
  const batch = QUICK ? 10 : 30;
  const dates = spreadDates(set, batch, (repeatIndex + 1) / 4);
  const years = spreadYears(set, QUICK ? 3 : 8);
  const scenario = (paths: string[], warmup: string[]): Scenario => ({
    id: 'peer',
    label: 'peer',
    connections: 1,
    paths,
    warmup,
  });
  const fxAll = '/v1/exchangerate/all?base=EUR';
  const fxLatest = '/v1/exchangerate/latest?base=EUR';
  return [
    [
      'one date, uncached',
      scenario(
        dates.map((date) => `/v1/exchangerate/${date}?base=EUR`),
        [],
      ),
      scenario(
        dates.map((date) => `/v1/${date}`),
        [],
      ),
    ],
    [
      'one-year range',
      scenario(
        years.map((year) => `/v1/exchangerate/${year}-01-01/${year}-12-31?base=EUR`),
        [],
      ),
      scenario(
        years.map((year) => `/v1/${year}-01-01..${year}-12-31`),
        [],
      ),
    ],
    [
      'full history',
      scenario([fxAll], [fxAll]),
      scenario([`/v1/${set.firstDate}..`], [`/v1/${set.firstDate}..`]),
    ],
    [
      'cache hit, latest',
      scenario(repeat(fxLatest, 20 * batch), [fxLatest]),
      scenario(repeat('/v1/latest', 20 * batch), ['/v1/latest']),
    ],
  ];
}

/** fxrates and a running Frankfurter v1 over the same ECB data, interleaved, 3 times: medians. */
async function peerSideBySide(set: DataSet, fxrates: Target, peerUrl: URL): Promise<void> {
  const peer: Target = { url: peerUrl };
  const p50s = new Map<string, { fx: number[]; peer: number[] }>();
  try {
    for (let r = 0; r < 3; r++) {
      for (const [label, ours, theirs] of peerPairs(set, r)) {
        const entry = p50s.get(label) ?? { fx: [], peer: [] };
        entry.fx.push((await measure(fxrates, ours)).p50);
        entry.peer.push((await measure(peer, theirs)).p50);
        p50s.set(label, entry);
      }
    }
  } catch (error) {
    console.log(`\nFrankfurter v1 at ${peerUrl.origin}: FAILED, ${(error as Error).message}`);
    return;
  }
  console.log(
    `\nFrankfurter v1 at ${peerUrl.origin}, side by side on this machine (3 interleaved repeats, medians)`,
  );
  printTable(
    ['scenario', 'fxrates p50 ms', 'peer p50 ms', 'peer ÷ fxrates'],
    [...p50s].map(([label, { fx, peer }]) => [
      label,
      formatMs(median(fx)),
      formatMs(median(peer)),
      formatRatio(median(peer) / median(fx)),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Tables

function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en');
}

function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a';
}

function formatMiB(mib: number): string {
  return Number.isFinite(mib) ? mib.toFixed(1) : 'n/a';
}

function formatRate(perSecond: number): string {
  return perSecond < 10 ? perSecond.toFixed(2) : Math.round(perSecond).toLocaleString('en');
}

function describe(scenario: Scenario): string {
  if (scenario.id.startsWith('mem:')) return `${scenario.label}, once, for the peak memory`;
  return `${scenario.label}, ${scenario.connections} conn`;
}

function printFailures(run: EngineRun): void {
  for (const [key, why] of run.failures) {
    const bare = key.startsWith('bare:');
    // A key that names no scenario says what failed itself.
    const scenario = run.scenarios.get(bare ? key.slice(5) : key);
    const what = scenario ? describe(scenario) : key;
    console.log(`FAILED ${bare ? 'bare server, ' : ''}${what}: ${why}`);
  }
}

const FAILED = 'FAILED';

function printRun(run: EngineRun): void {
  const paths = new Paths(run.set);
  console.log(`full history: ${paths.history()}; one date repeated: ${paths.repeatedDate()}`);
  printTable(
    ['scenario', 'conn', 'requests', 'p50 ms', 'req/s', 'MB/s', 'peak +MiB'],
    [...run.scenarios.values()]
      .filter((scenario) => !scenario.id.startsWith('mem:'))
      .map((scenario) => {
        const m = run.figures.get(scenario.id);
        const requests = m?.requests ?? scenario.paths.length;
        const head = [scenario.label, String(scenario.connections), String(requests)];
        if (!m) return [...head, FAILED];
        return [
          ...head,
          formatMs(m.p50),
          formatRate(m.reqPerSec),
          m.mbPerSec.toFixed(1),
          formatMiB(m.peakMiB),
        ];
      }),
  );
  console.log(
    `\nserver peak RSS above the warmed process (after the same request once; the largest of ${PEAK_REPEATS})`,
  );
  const peak = (id: string): string[] => {
    const m = run.figures.get(id);
    return m ? [formatMiB(m.peakMiB), formatMiB(m.rssMiB)] : [FAILED, FAILED];
  };
  printTable(
    ['request', 'peak +MiB', 'warmed RSS MiB'],
    [
      ...['mem:range', 'mem:compact', 'mem:month'].map((id) => [
        `${run.scenarios.get(id)!.label}, once`,
        ...peak(id),
      ]),
      ['full history, pretty json, 32 concurrent', ...peak('history@32')],
      ...(run.scenarios.has('gzip@32')
        ? [['full history, pretty json, gzip, 32 concurrent', ...peak('gzip@32')]]
        : []),
    ],
  );
  console.log(
    '\ncache hits: fxrates against a bare node:http server answering the same bytes and headers',
  );
  printTable(
    ['scenario', 'conn', 'fxrates req/s', 'bare req/s', 'fxrates ÷ bare'],
    cacheHitScenarios(run.set).map((scenario) => {
      const fx = run.figures.get(scenario.id);
      const bare = run.bare.get(scenario.id);
      return [
        scenario.label,
        String(scenario.connections),
        fx ? formatRate(fx.reqPerSec) : FAILED,
        bare ? formatRate(bare.reqPerSec) : FAILED,
        fx && bare ? formatRatio(fx.reqPerSec / bare.reqPerSec) : '',
      ];
    }),
  );
  if (run.set.key === 'ecb') printPeerPublished(run);
  printFailures(run);
}

function printPeerPublished(run: EngineRun): void {
  console.log(
    "\nagainst the peer's published figures (other machine): Frankfurter v1 (Ruby, SQLite), ECB data, 217,526 observations",
  );
  printTable(
    ['scenario', 'peer p50 ms', 'fxrates p50 ms', 'peer ÷ fxrates', 'target'],
    PEER_PUBLISHED.map(({ label, p50, id, target }) => {
      const fx = run.figures.get(id)?.p50;
      return [
        label,
        formatMs(p50),
        fx === undefined ? FAILED : formatMs(fx),
        fx === undefined ? '' : formatRatio(p50 / fx),
        target === undefined ? '' : `≥ ${target}`,
      ];
    }),
  );
}

/** PostgreSQL's figures beside DuckDB's and their ratio, for one data set. */
function engineRatioRows(duck: EngineRun, pg: EngineRun): string[][] {
  const row = (
    figure: string,
    d: number | undefined,
    p: number | undefined,
    format: (n: number) => string,
  ): string[] => [
    figure,
    d === undefined ? FAILED : format(d),
    p === undefined ? FAILED : format(p),
    d === undefined || p === undefined ? '' : formatRatio(p / d),
  ];
  const rows = [row('load, ms', duck.loadMs, pg.loadMs, formatMs)];
  for (const scenario of duck.scenarios.values()) {
    const d = duck.figures.get(scenario.id);
    const p = pg.figures.get(scenario.id);
    if (scenario.id.startsWith('mem:')) {
      rows.push(row(`${scenario.label}, once, peak +MiB`, d?.peakMiB, p?.peakMiB, formatMiB));
      continue;
    }
    rows.push(row(`${describe(scenario)}, p50 ms`, d?.p50, p?.p50, formatMs));
    rows.push(row(`${describe(scenario)}, req/s`, d?.reqPerSec, p?.reqPerSec, formatRate));
  }
  return rows;
}

const ENGINE_RATIO_NOTE =
  '(time, p50, memory: > 1 is PostgreSQL slower or larger; req/s: < 1 is PostgreSQL slower)';

function printEngineRatios(duck: EngineRun, pg: EngineRun): void {
  console.log(`\n${duck.set.title}: PostgreSQL ÷ DuckDB ${ENGINE_RATIO_NOTE}`);
  printTable(['figure', 'duckdb', 'postgres', 'postgres ÷ duckdb'], engineRatioRows(duck, pg));
}

// ---------------------------------------------------------------------------------------------
// Summary

interface Check {
  figure: string;
  target: string;
  measured: string;
  met?: boolean;
}

/** A ratio or figure against `target`; undefined (a failed scenario) fails the target. */
function check(
  figure: string,
  value: number | undefined,
  target?: { atLeast: number } | { atMost: number },
): Check {
  const targetText =
    target === undefined ? '' : 'atLeast' in target ? `≥ ${target.atLeast}` : `≤ ${target.atMost}`;
  if (value === undefined)
    return { figure, target: targetText, measured: FAILED, met: target && false };
  const met =
    target === undefined
      ? undefined
      : 'atLeast' in target
        ? value >= target.atLeast
        : value <= target.atMost;
  return { figure, target: targetText, measured: formatRatio(value), met };
}

function ratioOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a / b;
}

function find(runs: EngineRun[], key: SetKey, engine: Engine): EngineRun | undefined {
  return runs.find((run) => run.set.key === key && run.engine === engine);
}

function peerChecks(ecb: EngineRun): Check[] {
  return PEER_PUBLISHED.map(({ label, p50, id, target }) =>
    check(
      `${label}: peer p50 ÷ fxrates p50 (published figures, ecb)`,
      ratioOf(p50, ecb.figures.get(id)?.p50),
      target === undefined ? undefined : { atLeast: target },
    ),
  );
}

function scalingChecks(m1: EngineRun, m4: EngineRun): Check[] {
  const p50 = (run: EngineRun, id: string): number | undefined => run.figures.get(id)?.p50;
  return [
    check('one date p50, 4m ÷ 1m', ratioOf(p50(m4, 'date@1'), p50(m1, 'date@1')), { atMost: 1.2 }),
    check('one-year range p50, 4m ÷ 1m', ratioOf(p50(m4, 'range@1'), p50(m1, 'range@1'))),
  ];
}

/** Peaks on the largest data set measured (meant for 4m) over its one-year range's (≥ 1 MiB). */
function memoryChecks(big: EngineRun): Check[] {
  const peak = (id: string): number | undefined => big.figures.get(id)?.peakMiB;
  const range = peak('mem:range');
  const floor = range === undefined ? undefined : Math.max(range, 1);
  return [
    check(
      `peak RSS, full history compact ÷ one-year range (${big.set.key})`,
      ratioOf(peak('mem:compact'), floor),
      { atMost: 2 },
    ),
    check(
      `peak RSS, aggregation=month ÷ one-year range (${big.set.key})`,
      ratioOf(peak('mem:month'), floor),
      {
        atMost: 2,
      },
    ),
  ];
}

function setChecks(run: EngineRun): Check[] {
  const key = run.set.key;
  const peakFigure = (figure: string, id: string): Check => {
    const peak = run.figures.get(id)?.peakMiB;
    return { figure, target: '', measured: peak === undefined ? FAILED : formatMiB(peak) };
  };
  const checks: Check[] = [
    check(`full history compact json, MB/s (${key})`, run.figures.get('compact@1')?.mbPerSec, {
      atLeast: 80,
    }),
    peakFigure(`peak RSS, 32 concurrent full history, MiB (${key})`, 'history@32'),
  ];
  if (run.scenarios.has('gzip@32'))
    checks.push(
      peakFigure(`peak RSS, 32 concurrent full history with gzip, MiB (${key})`, 'gzip@32'),
    );
  for (const connections of [1, 32]) {
    const ratios = ['latest', 'hit'].map((kind) => {
      const id = `${kind}@${connections}`;
      return ratioOf(run.figures.get(id)?.reqPerSec, run.bare.get(id)?.reqPerSec);
    });
    checks.push({
      figure: `cache hit req/s ÷ bare, ${connections} conn: latest, one date (${key})`,
      target: '≥ 0.8',
      measured: ratios
        .map((ratio) => (ratio === undefined ? FAILED : formatRatio(ratio)))
        .join(', '),
      met: ratios.every((ratio) => ratio !== undefined && ratio >= 0.8),
    });
  }
  return checks;
}

function engineChecks(runs: EngineRun[], engine: Engine): Check[] {
  const mine = runs.filter((run) => run.engine === engine);
  if (mine.length === 0) return [];
  const ecb = find(runs, 'ecb', engine);
  const m1 = find(runs, '1m', engine);
  const m4 = find(runs, '4m', engine);
  const largest = mine.reduce((a, b) =>
    SET_KEYS.indexOf(b.set.key) > SET_KEYS.indexOf(a.set.key) ? b : a,
  );
  const checks = [
    ...(ecb ? peerChecks(ecb) : []),
    ...(m1 && m4 ? scalingChecks(m1, m4) : []),
    ...memoryChecks(largest),
    ...mine.flatMap(setChecks),
  ];
  return checks.map((c) => ({ ...c, figure: `${engine}: ${c.figure}` }));
}

function printSummary(runs: EngineRun[]): void {
  console.log('\nSUMMARY');
  const checks = ENGINE_KEYS.flatMap((engine) => engineChecks(runs, engine));
  printTable(
    ['figure', 'target', 'measured', 'met'],
    checks.map((c) => [
      c.figure,
      c.target,
      c.measured,
      c.met === undefined ? '' : c.met ? 'yes' : 'NO',
    ]),
  );
  const pairs = SET_KEYS.map((key) => [
    find(runs, key, 'duckdb'),
    find(runs, key, 'postgres'),
  ]).filter(
    (pair): pair is [EngineRun, EngineRun] => pair[0] !== undefined && pair[1] !== undefined,
  );
  if (pairs.length > 0) {
    console.log(`\nPostgreSQL ÷ DuckDB, same data set ${ENGINE_RATIO_NOTE}`);
    // Rows are matched by figure: a set may have scenarios another has not (gzip on ECB only).
    const ratios = pairs.map(
      ([duck, pg]) => new Map(engineRatioRows(duck, pg).map((row) => [row[0]!, row[3]!])),
    );
    const figures = [...new Set(ratios.flatMap((table) => [...table.keys()]))];
    printTable(
      ['figure', ...pairs.map(([duck]) => duck.set.key)],
      figures.map((figure) => [figure, ...ratios.map((table) => table.get(figure) ?? '-')]),
    );
  }
  const failed = runs.reduce((count, run) => count + run.failures.size, 0);
  if (failed > 0) console.log(`\n${failed} scenario(s) FAILED: see FAILED lines above`);
}

// ---------------------------------------------------------------------------------------------
// Main

function engines(): Engine[] {
  return chosen('FXRATES_BENCH_ENGINES', ENGINE_KEYS).filter((engine) => {
    const skip = engine === 'postgres' && skipWithoutPostgres();
    if (skip) console.log(`PostgreSQL skipped: ${skip}`);
    return !skip;
  });
}

/** Runs everything; whether every scenario succeeded. */
async function main(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-compare-'));
  try {
    if (!existsSync(CLI)) {
      throw new Error(`${CLI} not found: build it with npm run build (npm run bench:compare does)`);
    }
    const chosenEngines = engines();
    const sets = dataSets(dir);
    console.log(
      `fxrates compare${QUICK ? ' (quick)' : ''}: data sets ${sets.map((set) => set.key).join(', ') || 'none'}; engines ${chosenEngines.join(', ') || 'none'}; today ${today()}`,
    );
    const runs: EngineRun[] = [];
    for (const set of sets) {
      console.log(`\n=== ${set.title}: ${set.firstDate} to ${set.lastDate}`);
      await set.prepare();
      for (const engine of chosenEngines) runs.push(await runEngine(set, engine, dir));
      const duck = find(runs, set.key, 'duckdb');
      const pg = find(runs, set.key, 'postgres');
      if (duck && pg) printEngineRatios(duck, pg);
      if (set.path !== ECB_FILE) rmSync(set.path, { force: true });
    }
    printSummary(runs);
    return runs.every((run) => run.failures.size === 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const succeeded = await main();
// Exits now: the PostgreSQL cluster is stopped on exit.
process.exit(succeeded ? 0 : 1);
