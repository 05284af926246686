/**
 * The rate statements alone, as this build plans them and, with FXRATES_BENCH_BASELINE (the
 * root of another checkout of fxrates, built with `npm run build`), as that build plans them:
 * both run in turn through one store, over the same data, and each request's rows are compared
 * between the two. Prints per scenario the p50 of each build's engine time (every statement of
 * a request, read whole into this process) and their ratio, so that a change to the statements
 * is measured within one run on a noisy machine, and shown to give the same rows.
 *
 *   npm run bench:statements
 *     FXRATES_BENCH_BASELINE=<checkout>     the build to compare with (none: this build alone)
 *     FXRATES_BENCH_SETS=ecb,generated      ECB history file (needs ../shared/fixtures) and a
 *                                           generated set of FXRATES_BENCH_ROWS (1,000,000)
 *     FXRATES_BENCH_ENGINES=duckdb,postgres PostgreSQL: a throwaway cluster from Debian's
 *                                           postgresql binaries, or FXRATES_TEST_PG_URL
 * Exits 1 when the two builds' rows differ for some request.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVE_THREADS } from '../src/config.js';
import { addDays, daysBetween } from '../src/dates.js';
import { importFile } from '../src/import/import-file.js';
import { planRateRequest, type RatePath } from '../src/resolve/rate-request.js';
import { openServiceStore } from '../src/service-store.js';
import type { ColumnBatch, SqlDialect, Store } from '../src/store/store.js';
import {
  GENERATED_FIRST_DATE,
  GENERATED_SOURCE_KEYS,
  generateObservations,
  generatedLastDate,
} from '../scripts/generate-observations.js';
import { chosen, ecbDates, median, printTable } from './common.mjs';
import { postgresCluster, skipWithoutPostgres } from '../test/support/postgres-cluster.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const ECB = resolve(ROOT, '..', 'shared', 'fixtures', 'history', 'eurofxref-hist.csv');
const ROWS = Number(process.env.FXRATES_BENCH_ROWS ?? 1_000_000);
const BASELINE = process.env.FXRATES_BENCH_BASELINE;
const ENGINES = ['duckdb', 'postgres'] as const;
type Engine = (typeof ENGINES)[number];

type Plan = typeof planRateRequest;

/** A build's planner and its dialect for each engine. */
interface Build {
  plan: Plan;
  dialect(engine: Engine, store: Store): SqlDialect;
}

const current: Build = { plan: planRateRequest, dialect: (_, store) => store.dialect };

async function baselineBuild(root: string): Promise<Build> {
  const load = (path: string): Promise<Record<string, unknown>> =>
    import(pathToFileURL(join(resolve(root), 'dist', path)).href) as Promise<
      Record<string, unknown>
    >;
  const [request, duckdb, postgres] = await Promise.all([
    load('resolve/rate-request.js'),
    load('store/duckdb/dialect.js'),
    load('store/postgres/dialect.js'),
  ]);
  const dialects = {
    duckdb: duckdb.duckdbDialect as SqlDialect,
    postgres: postgres.postgresDialect as SqlDialect,
  };
  return { plan: request.planRateRequest as Plan, dialect: (engine) => dialects[engine] };
}

interface DataSet {
  key: string;
  name: string;
  file: string;
  first: string;
  last: string;
  /** The sources' query parameter, if not the default ones. */
  sources?: string;
}

/** `count` dates spread over the set. */
function spread(set: DataSet, count: number, from = set.first): string[] {
  const span = daysBetween(from, set.last);
  return Array.from({ length: count }, (_, i) =>
    addDays(from, Math.floor(((i + 0.5) * span) / count)),
  );
}

/** The scenarios of a set: a name and the requests' paths and query strings. */
function scenarios(set: DataSet): [string, [RatePath, string][]][] {
  const query = (...params: string[]): string =>
    [...params, ...(set.sources ? [`sources=${set.sources}`] : [])].join('&');
  const years = (span: number, count: number): [RatePath, string][] =>
    spread(set, count, addDays(set.first, 366)).map((date) => {
      const end = Number(date.slice(0, 4));
      return [
        { endpoint: 'range', start: `${end - span + 1}-01-01`, end: `${end}-12-31` },
        query(),
      ];
    });
  return [
    [
      'one date (base=JPY)',
      spread(set, 40).map((date) => [{ endpoint: 'date', date }, query('base=JPY')]),
    ],
    [
      'one date (base=EUR)',
      spread(set, 40).map((date) => [{ endpoint: 'date', date }, query('base=EUR')]),
    ],
    ['one-year range', years(1, 12)],
    ['five-year range', years(5, 6)],
    ['all, by month', [0, 1, 2].map(() => [{ endpoint: 'all' }, query('aggregation=month')])],
    ['all', [0, 1, 2].map(() => [{ endpoint: 'all' }, query()])],
  ];
}

/** Runs every statement of a request, read whole: its rows and how long it took, ms. */
async function runAll(
  store: Store,
  statements: readonly string[],
): Promise<[ColumnBatch[], number]> {
  const batches: ColumnBatch[] = [];
  const started = performance.now();
  for (const sql of statements) batches.push(...(await store.readColumns(sql)));
  return [batches, performance.now() - started];
}

/** The rows of column batches, one text per row. */
function rowTexts(batches: ColumnBatch[]): string[] {
  const rows: string[] = [];
  for (const { rowCount, columns } of batches) {
    for (let row = 0; row < rowCount; row++)
      rows.push(JSON.stringify(columns.map((column) => column[row])));
  }
  return rows;
}

function sameRows(a: ColumnBatch[], b: ColumnBatch[]): boolean {
  const [left, right] = [rowTexts(a), rowTexts(b)];
  return left.length === right.length && left.every((row, index) => row === right[index]);
}

const dir = mkdtempSync(join(tmpdir(), 'fxrates-statements-'));
let differing = 0;
try {
  const baseline = BASELINE === undefined ? undefined : await baselineBuild(BASELINE);
  const sets: DataSet[] = [];
  for (const key of chosen('FXRATES_BENCH_SETS', ['ecb', 'generated'] as const)) {
    if (key === 'ecb') {
      if (existsSync(ECB)) {
        const { firstDate, lastDate } = ecbDates(ECB);
        sets.push({ key, name: 'ECB history', file: ECB, first: firstDate, last: lastDate });
      } else console.log(`ECB history skipped: ${ECB} not found`);
    } else {
      const file = join(dir, 'generated.csv');
      await generateObservations(file, ROWS);
      sets.push({
        key,
        name: `generated, ${ROWS.toLocaleString('en')} observations`,
        file,
        first: GENERATED_FIRST_DATE,
        last: generatedLastDate(ROWS),
        sources: GENERATED_SOURCE_KEYS,
      });
    }
  }
  const today = new Date().toISOString().slice(0, 10);
  for (const engine of chosen('FXRATES_BENCH_ENGINES', ENGINES)) {
    if (engine === 'postgres' && skipWithoutPostgres()) {
      console.log(`PostgreSQL skipped: ${skipWithoutPostgres()}`);
      continue;
    }
    for (const set of sets) {
      const location =
        engine === 'duckdb'
          ? join(dir, `${set.key}.duckdb`)
          : await (await postgresCluster()).createDatabase();
      const store = await openServiceStore(location, { threads: SERVE_THREADS });
      try {
        await importFile(store, set.file);
        const catalog = await store.catalog();
        const rows: string[][] = [];
        for (const [name, requests] of scenarios(set)) {
          const builds = baseline ? [current, baseline] : [current];
          const ms = builds.map((): number[] => []);
          let differ = 0;
          for (const [index, [path, query]] of requests.entries()) {
            const statements = builds.map(
              (build) =>
                build.plan(path, query, catalog, build.dialect(engine, store), today).statements,
            );
            // Each build's statements once untimed, then timed in turn, the order swapped every
            // other request.
            for (const each of statements) await runAll(store, each);
            const order = index % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
            const results: ColumnBatch[][] = [];
            for (const b of order) {
              const [batches, took] = await runAll(store, statements[b]!);
              results[b] = batches;
              ms[b]!.push(took);
            }
            if (baseline && !sameRows(results[0]!, results[1]!)) differ++;
          }
          differing += differ;
          const [now, before] = ms.map(median);
          rows.push([
            name,
            String(requests.length),
            now!.toFixed(2),
            ...(baseline
              ? [
                  before!.toFixed(2),
                  (now! / before!).toFixed(3),
                  differ > 0 ? `${differ} DIFFER` : 'same',
                ]
              : []),
          ]);
        }
        console.log(`\n${set.name} on ${engine}: each request's statements alone, read whole`);
        printTable(
          [
            'scenario',
            'requests',
            'this build p50 ms',
            ...(baseline ? ['baseline p50 ms', 'this ÷ baseline', 'rows'] : []),
          ],
          rows,
        );
      } finally {
        await store.close();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (differing > 0) {
  console.log(`\n${differing} requests gave other rows than the baseline's`);
  process.exitCode = 1;
}
process.exit();
