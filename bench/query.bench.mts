/**
 * The query endpoint's long answers and the requests around them: a 100,000-row answer (about
 * 7.7 MB of json) asked for while another client asks for /latest without pause. Prints, per
 * round, the query's time to its last byte, the slowest /latest answer and the event loop's
 * longest delay meanwhile (how long one request held up every other).
 *
 *   npm run bench:query          (FXRATES_BENCH_ROUNDS rounds, 5 by default)
 * Figures vary with the machine; compare the rounds of one run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { openServiceStore } from '../src/service-store.js';

const ROUNDS = Number(process.env.FXRATES_BENCH_ROUNDS ?? 5);
const SQL =
  "SELECT range AS i, 'row ' || range AS label, range * 1.5 AS x FROM range(100000) ORDER BY i";

const dir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
const store = await openServiceStore(join(dir, 'bench.duckdb'));
const app = await buildApp({
  store,
  query: { timeoutMs: 60_000, maxRows: 100_000, maxBytes: 16 * 1024 * 1024 },
});
try {
  await store.writeObservations([
    {
      source: 'ecb',
      symbol: 'USD',
      observationTime: new Date('2024-03-19T15:00:00Z'),
      rate: 1.0863,
    },
  ]);
  await store.startSandbox();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  console.log('round  query ms  bytes       slowest /latest ms  event loop max delay ms');
  for (let round = 1; round <= ROUNDS; round++) {
    const delay = monitorEventLoopDelay({ resolution: 2 });
    let slowest = 0;
    let done = false;
    const prober = (async () => {
      while (!done) {
        const started = performance.now();
        await (await fetch(`${origin}/v1/exchangerate/latest`)).arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
      }
    })();
    delay.enable();
    const started = performance.now();
    const body = await (
      await fetch(`${origin}/v1/exchangerate/query?q=${encodeURIComponent(SQL)}`)
    ).arrayBuffer();
    const elapsed = performance.now() - started;
    delay.disable();
    done = true;
    await prober;
    console.log(
      `${String(round).padEnd(7)}${elapsed.toFixed(0).padStart(8)}  ${String(body.byteLength).padEnd(12)}${slowest.toFixed(1).padStart(18)}  ${(delay.max / 1e6).toFixed(1).padStart(23)}`,
    );
  }
} finally {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
