/**
 * The same requests on both engines, over the same data: the ECB history file and a generated
 * multi-source set (FXRATES_BENCH_ROWS observations, 2,000,000 by default). Prints, per engine
 * and data set, p50 latency and req/s of uncached one-date requests, one-year ranges, /all
 * (compact json) and month aggregation over everything, the peak RSS growth of this process
 * during /all and during a one-year range, then PostgreSQL's ratios to DuckDB, and the req/s of
 * uncached one-date requests against 1 and 3 `fxrates serve` replicas on one PostgreSQL database.
 *
 *   npm run bench:engines        (PostgreSQL: a throwaway cluster from Debian's postgresql
 *                                 binaries, or FXRATES_TEST_PG_URL)
 * Figures vary with the machine; compare the ratios of one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { addDays } from '../src/dates.js';
import { importFile } from '../src/import/import-file.js';
import { openServiceStore } from '../src/service-store.js';
import type { Store } from '../src/store/store.js';
import { GENERATED_SOURCE_KEYS, generateObservations } from '../scripts/generate-observations.js';
import { postgresCluster, skipWithoutPostgres } from '../test/support/postgres-cluster.js';
import { median } from './common.mjs';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const ECB = resolve(ROOT, '..', 'shared', 'fixtures', 'history', 'eurofxref-hist.csv');
const ROWS = Number(process.env.FXRATES_BENCH_ROWS ?? 2_000_000);

interface Timing {
  p50: number;
  reqPerSec: number;
  peakRssMiB: number;
}

/** Requests `paths` with `concurrency` clients, spread over `baseUrls` in turn. */
async function run(baseUrls: string[], paths: string[], concurrency: number): Promise<Timing> {
  const ms: number[] = [];
  let next = 0;
  let peak = process.memoryUsage().rss;
  const before = peak;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < paths.length) {
        const index = next++;
        const t = performance.now();
        const response = await fetch(baseUrls[index % baseUrls.length]! + paths[index]!);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${paths[index]}: ${response.status}`);
        ms.push(performance.now() - t);
      }
    }),
  );
  clearInterval(watch);
  return {
    p50: median(ms),
    reqPerSec: (paths.length * 1000) / (performance.now() - started),
    peakRssMiB: (peak - before) / 2 ** 20,
  };
}

interface DataSet {
  name: string;
  load(store: Store): Promise<void>;
  firstDate: string;
  years: number;
}

const dir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
const generated = join(dir, 'generated.csv');
const dataSets: DataSet[] = [];
if (existsSync(ECB)) {
  dataSets.push({
    name: 'ECB history (217,555)',
    load: async (store) => void (await importFile(store, ECB)),
    firstDate: '1999-01-04',
    years: 27,
  });
}
dataSets.push({
  name: `generated (${ROWS.toLocaleString('en')})`,
  load: async (store) => void (await importFile(store, generated)),
  firstDate: '1900-01-01',
  years: Math.floor(ROWS / 40 / 261),
});

const scenarios = (data: DataSet): [string, string[], number][] => {
  const dates = Array.from({ length: 150 }, (_, i) =>
    addDays(data.firstDate, 30 + ((i * 97) % (data.years * 360))),
  );
  const years = Array.from(
    { length: 12 },
    (_, i) => Number(data.firstDate.slice(0, 4)) + 1 + (i % data.years),
  );
  return [
    [
      'one date, uncached',
      dates.map((d) => `/v1/exchangerate/${d}?sources=${GENERATED_SOURCE_KEYS}`),
      1,
    ],
    [
      'one date, uncached, 8 conn',
      dates.map((d) => `/v1/exchangerate/${d}?sources=${GENERATED_SOURCE_KEYS}&base=GBP`),
      8,
    ],
    [
      'one-year range',
      years.map((y) => `/v1/exchangerate/${y}-01-01/${y}-12-31?sources=${GENERATED_SOURCE_KEYS}`),
      1,
    ],
    [
      '/all compact json',
      Array.from(
        { length: 2 },
        () => `/v1/exchangerate/all?pretty_print=false&sources=${GENERATED_SOURCE_KEYS}`,
      ),
      1,
    ],
    [
      'month aggregation, all',
      Array.from(
        { length: 2 },
        () =>
          `/v1/exchangerate/${data.firstDate}/2026-04-13?aggregation=month&pretty_print=false&sources=${GENERATED_SOURCE_KEYS}`,
      ),
      1,
    ],
  ];
};

function startReplica(url: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'serve', '--no-ingest', '--port', '0'],
    {
      cwd: ROOT,
      env: { ...process.env, FXRATES_DB: url, LOG_LEVEL: 'info' },
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening at (http:\/\/[\d.]+:\d+)/i.exec(output);
      if (match) resolve({ child, baseUrl: match[1]! });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`replica exited ${code}: ${output}`)));
  });
}

try {
  await generateObservations(generated, ROWS);
  const engines: [string, () => Promise<string>][] = [
    ['duckdb', async () => join(dir, `${Date.now()}.duckdb`)],
  ];
  if (!skipWithoutPostgres()) {
    engines.push(['postgres', async () => (await postgresCluster()).createDatabase()]);
  } else {
    console.log(`PostgreSQL skipped: ${skipWithoutPostgres()}`);
  }
  const results = new Map<string, Timing>();
  for (const data of dataSets) {
    console.log(`\n${data.name}`);
    console.log('engine    scenario                       p50 ms    req/s  peak RSS +MiB');
    for (const [engine, location] of engines) {
      const where = await location();
      const store = await openServiceStore(where);
      const loadStarted = performance.now();
      await data.load(store);
      console.log(
        `${engine.padEnd(10)}load                      ${(performance.now() - loadStarted).toFixed(0).padStart(11)}`,
      );
      const app = await buildApp({ store, today: () => '2026-04-14' });
      const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
      for (const [name, paths, concurrency] of scenarios(data)) {
        await run([baseUrl], paths.slice(0, 1), 1); // warm-up, then the rest uncached
        const timing = await run([baseUrl], paths.slice(1), concurrency);
        results.set(`${data.name}|${engine}|${name}`, timing);
        console.log(
          `${engine.padEnd(10)}${name.padEnd(28)}${timing.p50.toFixed(1).padStart(9)}${timing.reqPerSec.toFixed(1).padStart(9)}${timing.peakRssMiB.toFixed(0).padStart(14)}`,
        );
      }
      if (engine === 'postgres' && data === dataSets[0]) {
        const replicas = await Promise.all([0, 1, 2].map(() => startReplica(where)));
        try {
          const paths = scenarios(data)[0]![1].map((p) => `${p}&base=CHF`);
          const one = await run([replicas[0]!.baseUrl], paths, 24);
          const three = await run(
            replicas.map((r) => r.baseUrl),
            paths.map((p) => `${p}&symbols=USD,JPY`),
            24,
          );
          console.log(
            `postgres  one date, 24 conn, 1 replica ${one.reqPerSec.toFixed(1).padStart(16)} req/s`,
          );
          console.log(
            `postgres  one date, 24 conn, 3 replicas${three.reqPerSec.toFixed(1).padStart(16)} req/s`,
          );
        } finally {
          for (const replica of replicas) replica.child.kill('SIGTERM');
        }
      }
      await app.close();
      await store.close();
    }
    if (engines.length === 2) {
      console.log('PostgreSQL / DuckDB         p50 ratio');
      for (const [name] of scenarios(data)) {
        const duck = results.get(`${data.name}|duckdb|${name}`)!;
        const pg = results.get(`${data.name}|postgres|${name}`)!;
        console.log(`  ${name.padEnd(28)}${(pg.p50 / duck.p50).toFixed(2).padStart(8)}`);
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
