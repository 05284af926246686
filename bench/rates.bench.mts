/**
 * Rate endpoint benchmark on the ECB history file (or synthetic data of the same shape when
 * ../shared is absent). Prints import time, latency percentiles per request kind and the
 * throughput of concurrent date requests, all against a real listening server on loopback.
 * Run: npm run bench. Figures vary with the machine; compare the rows of one run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { addDays } from '../src/dates.js';
import { importFile } from '../src/import/import-file.js';
import { openServiceStore } from '../src/service-store.js';
import type { Observation } from '../src/store/store.js';

const ECB = resolve(
  fileURLToPath(import.meta.url),
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'history',
  'eurofxref-hist.csv',
);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeRequests(
  baseUrl: string,
  paths: string[],
  concurrency: number,
): Promise<{ ms: number[]; bytes: number; wallMs: number }> {
  const ms: number[] = [];
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const t = performance.now();
        const response = await fetch(baseUrl + path);
        bytes += (await response.arrayBuffer()).byteLength;
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        ms.push(performance.now() - t);
      }
    }),
  );
  return { ms: ms.sort((a, b) => a - b), bytes, wallMs: performance.now() - started };
}

const dir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
try {
  const store = await openServiceStore(process.env.FXRATES_BENCH_DB ?? join(dir, 'bench.duckdb'));
  const started = performance.now();
  if (existsSync(ECB)) {
    const summary = await importFile(store, ECB);
    console.log(
      `import eurofxref-hist.csv: ${[...summary.perSource.values()][0]} observations in ${(performance.now() - started).toFixed(0)} ms`,
    );
  } else {
    const synthetic: Observation[] = [];
    for (let day = 0; day < 7000; day++) {
      const date = addDays('1999-01-04', day);
      for (const [index, symbol] of [
        'USD',
        'JPY',
        'GBP',
        'CHF',
        'SEK',
        'NOK',
        'DKK',
        'CAD',
        'AUD',
        'CNY',
      ].entries()) {
        synthetic.push({
          source: 'ecb',
          symbol,
          observationTime: new Date(`${date}T15:00:00Z`),
          rate: 1 + index + Math.sin(day) / 10,
        });
      }
    }
    await store.writeObservations(synthetic);
    console.log(
      `(no ../shared fixtures) synthetic import: ${synthetic.length} observations in ${(performance.now() - started).toFixed(0)} ms`,
    );
  }
  const app = await buildApp({ store, today: () => '2026-04-14' });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });

  // Distinct dates for each first-request scenario, so that none is answered from the cache.
  const dates = (offset: number): string[] =>
    Array.from({ length: 400 }, (_, i) => addDays('2000-01-03', i * 17 + offset));
  const scenarios: [string, string[], number][] = [
    ['date, first request', dates(0).map((d) => `/v1/exchangerate/${d}`), 1],
    ['date, repeated (cached)', dates(0).map((d) => `/v1/exchangerate/${d}`), 1],
    [
      'date, base=JPY, 3 symbols',
      dates(1).map((d) => `/v1/exchangerate/${d}?base=JPY&symbols=USD,GBP,CHF`),
      1,
    ],
    ['date, first, 8 concurrent', dates(2).map((d) => `/v1/exchangerate/${d}`), 8],
    ['date, cached, 8 concurrent', dates(2).map((d) => `/v1/exchangerate/${d}`), 8],
    ['latest, repeated', Array.from({ length: 300 }, () => '/v1/exchangerate/latest'), 1],
    [
      'one year range',
      Array.from(
        { length: 40 },
        (_, i) => `/v1/exchangerate/${2000 + (i % 25)}-01-01/${2000 + (i % 25)}-12-31`,
      ),
      1,
    ],
    ['all, monthly', Array.from({ length: 10 }, () => '/v1/exchangerate/all?aggregation=month'), 1],
    [
      'all, daily, compact',
      Array.from({ length: 5 }, () => '/v1/exchangerate/all?pretty_print=false'),
      1,
    ],
    ['all, daily, csv', Array.from({ length: 5 }, () => '/v1/exchangerate/all?format=csv'), 1],
  ];
  console.log('\nscenario                        requests  p50 ms  p95 ms   req/s   MB/s');
  for (const [name, paths, concurrency] of scenarios) {
    await timeRequests(baseUrl, ['/v1/exchangerate/1999-06-01'], 1); // warm-up
    const { ms, bytes, wallMs } = await timeRequests(baseUrl, paths, concurrency);
    console.log(
      `${name.padEnd(32)}${String(paths.length).padStart(8)}${percentile(ms, 50).toFixed(1).padStart(8)}${percentile(ms, 95).toFixed(1).padStart(8)}${(
        (paths.length * 1000) /
        wallMs
      )
        .toFixed(0)
        .padStart(8)}${(bytes / 1e6 / (wallMs / 1000)).toFixed(1).padStart(7)}`,
    );
  }
  await app.close();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
