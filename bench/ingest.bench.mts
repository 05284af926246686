/**
 * Ingestion benchmark on the recorded publisher responses: each source ingested end to end
 * (loopback HTTP through the origin override, parse, one transaction per response) into a
 * fresh DuckDB file, then the same run again, which must store nothing. Also the time to
 * parse the ECB's whole history from its data-API form, without HTTP or the store.
 * Run: npm run bench:ingest. Figures vary with the machine; compare the rows of one run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestSource } from '../src/ingest/ingest-source.js';
import { parseEcbCsv } from '../src/sources/ecb.js';
import { findSource } from '../src/sources/registry.js';
import { openServiceStore } from '../src/service-store.js';
import { ECB_HISTORY } from '../test/support/harness.js';
import { RECORDED, ReplayServer } from '../test/support/replay-server.js';

if (!existsSync(RECORDED)) {
  console.log(`skipped: ${RECORDED} is absent`);
  process.exit(0);
}

const RUNS: [string, string, string][] = [
  ['imf', '2026-03-01', '2026-03-31'],
  ['ecb', '2025-01-01', '2026-03-18'],
  ['boe', '2026-03-17', '2026-03-20'],
  ['rba', '2023-01-03', '2026-03-20'],
  ['snb', '2024-08-01', '2026-07-31'],
  ['bnro', '2026-01-01', '2026-08-19'],
  ['boi', '2026-03-01', '2026-03-20'],
  ['nbu', '2026-03-01', '2026-03-16'],
  ['cbr', '2026-03-01', '2026-03-05'],
  ['bcb', '2026-03-01', '2026-03-07'],
  ['cbn', '2026-05-14', '2026-05-21'],
  ['float_rates', '2024-05-31', '2024-05-31'],
  ['boc', '2026-03-12', '2026-03-18'],
  ['nbp', '2026-03-01', '2026-03-05'],
  ['cnb', '2026-01-01', '2026-04-02'],
  ['fred', '2026-03-01', '2026-03-13'],
];

const replay = await ReplayServer.start();
const dir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
const store = await openServiceStore(process.env.FXRATES_BENCH_DB ?? join(dir, 'bench.duckdb'));
const env = replay.env(
  RUNS.map(([key]) => key),
  { FRED_API_KEY: 'bench' },
);
const http = { politenessMs: 0, retries: 0 };

console.log('| source | requests | stored | first run ms | obs/s | again ms | again stored |');
console.log('|---|---|---|---|---|---|---|');
let total = 0;
let totalMs = 0;
for (const [key, from, to] of RUNS) {
  const source = findSource(key)!;
  let started = performance.now();
  const first = await ingestSource(store, source, { from, to, env, http });
  const firstMs = performance.now() - started;
  started = performance.now();
  const again = await ingestSource(store, source, { from, to, env, http });
  const againMs = performance.now() - started;
  if (first.error || again.error) throw new Error(`${key}: ${first.error ?? again.error}`);
  total += first.stored;
  totalMs += firstMs;
  console.log(
    `| ${key} | ${first.requests} | ${first.stored} | ${firstMs.toFixed(0)} | ${Math.round((first.stored / firstMs) * 1000)} | ${againMs.toFixed(0)} | ${again.stored} |`,
  );
}
console.log(
  `| all | | ${total} | ${totalMs.toFixed(0)} | ${Math.round((total / totalMs) * 1000)} | | |`,
);

if (existsSync(ECB_HISTORY)) {
  // The history file rewritten in the data API's long CSV form, as a first ECB backfill gets it.
  const [header, ...lines] = readFileSync(ECB_HISTORY, 'utf8').trim().split('\n');
  const codes = header!.split(',').slice(1);
  let csv = 'KEY,FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\n';
  for (const line of lines) {
    const [date, ...values] = line.split(',');
    values.forEach((value, index) => {
      if (codes[index] && value !== 'N/A' && value !== '') {
        csv += `EXR.D.${codes[index]}.EUR.SP00.A,D,${codes[index]},${date},${value}\n`;
      }
    });
  }
  const started = performance.now();
  const parsed = parseEcbCsv(csv, findSource('ecb')!);
  const parseMs = performance.now() - started;
  const writeStarted = performance.now();
  const written = await store.writeObservations(parsed.observations);
  const writeMs = performance.now() - writeStarted;
  console.log(
    `\nECB whole history in data-API form: ${(csv.length / 1e6).toFixed(1)} MB, ${parsed.observations.length} observations, ` +
      `parse ${parseMs.toFixed(0)} ms, one-transaction write ${writeMs.toFixed(0)} ms (${written} new or changed)`,
  );
}

await store.close();
await replay.close();
rmSync(dir, { recursive: true, force: true });
