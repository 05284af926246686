import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ECB_HISTORY, skipWithoutFixtures } from './support/harness.js';
import { peakRssBytes, runCli, startServer, type RunningServer } from './support/cli.js';

const MEMORY_LIMIT_BYTES = 1024 ** 3;

/** The ECB's 27-year history file, imported and served by the real command, read in place. */
describe('ECB history file, end to end', { skip: skipWithoutFixtures(ECB_HISTORY) }, () => {
  let dir: string;
  let server: RunningServer;
  const get = async (path: string): Promise<any> =>
    (await fetch(`${server.baseUrl}${path}`)).json();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-ecb-'));
    const db = join(dir, 'fx.duckdb');
    const started = Date.now();
    const imported = await runCli(['import', '--db', db, ECB_HISTORY]);
    assert.equal(imported.code, 0, imported.stderr);
    // 6,983 days x the currencies quoted on each; N/A cells are skipped.
    assert.match(
      imported.stdout,
      /ecb-history file \(ecb\): 217555 rows new, 0 changed, 0 unchanged/,
    );
    console.log(`import of eurofxref-hist.csv: ${Date.now() - started} ms including process start`);
    server = await startServer(['--db', db, '--no-ingest'], {
      FXRATES_MEMORY_LIMIT: '1GB',
      LOG_LEVEL: 'info',
    });
  });
  after(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('published ECB values come back per euro, at 16:00 Berlin time', async () => {
    const checks: [string, string, number, string][] = [
      ['1999-01-04', 'USD', 1.1789, '1999-01-04T15:00:00.000Z'],
      ['1999-01-04', 'CYP', 0.58231, '1999-01-04T15:00:00.000Z'],
      ['2008-10-24', 'JPY', 117.4, '2008-10-24T14:00:00.000Z'],
      ['2020-07-01', 'USD', 1.12, '2020-07-01T14:00:00.000Z'],
      ['2024-01-15', 'JPY', 159.67, '2024-01-15T15:00:00.000Z'],
      ['2026-04-13', 'USD', 1.1684, '2026-04-13T14:00:00.000Z'],
    ];
    for (const [date, symbol, rate, time] of checks) {
      const body = await get(`/v1/exchangerate/${date}?base=EUR&sources=ecb&symbols=${symbol}`);
      assert.deepEqual(
        body.rates[symbol],
        { rate, observation_time: time, source: 'ecb' },
        `${date} ${symbol}`,
      );
    }
  });

  test('cross rates are the exact quotient of the published figures, rounded half away from zero', async () => {
    // 2000-05-22: ZAR 6.3945 and USD 0.9 per EUR, so USD/ZAR is exactly 7.105.
    const zar = await get(
      '/v1/exchangerate/2000-05-22?base=USD&symbols=ZAR&decimals=2&sources=ecb',
    );
    assert.equal(zar.rates.ZAR.rate, 7.11);
    // ISK 69.21 per EUR that day: 69.21 / 0.9 is exactly 76.9.
    const isk = await get('/v1/exchangerate/2000-05-22?base=USD&symbols=ISK&sources=ecb');
    assert.equal(isk.rates.ISK.rate, 76.9);
    // 1999-06-07: SEK 8.8965 and SGD 1.7793 per EUR, so SGD/SEK is exactly 5.
    const sek = await get('/v1/exchangerate/1999-06-07?base=SGD&symbols=SEK&sources=ecb');
    assert.equal(sek.rates.SEK.rate, 5);
    const text = await (
      await fetch(
        `${server.baseUrl}/v1/exchangerate/1999-06-07?base=SGD&symbols=SEK&sources=ecb&decimals=40&format=csv`,
      )
    ).text();
    assert.match(text, /\r\n1999-06-07,SGD,SEK,ecb,5,/);
  });

  test('cross rates with base=USD match hand-computed values', async () => {
    const body = await get(
      '/v1/exchangerate/2024-01-15?base=USD&sources=ecb&symbols=EUR,JPY,GBP&decimals=6',
    );
    // 2024-01-15: USD 1.0945, JPY 159.67, GBP 0.86075 per EUR.
    assert.equal(body.rates.EUR.rate, 0.913659); // 1 / 1.0945 = 0.91365920...
    assert.equal(body.rates.JPY.rate, 145.883965); // 159.67 / 1.0945 = 145.88396528...
    assert.equal(body.rates.GBP.rate, 0.786432); // 0.86075 / 1.0945 = 0.78643216...
    // A weekend date takes Friday's rates (up_to_days_before defaults to 4).
    const sunday = await get('/v1/exchangerate/2024-01-14?base=USD&sources=ecb&symbols=JPY');
    assert.equal(sunday.rates.JPY.observation_time, '2024-01-12T15:00:00.000Z');
  });

  test('/all over the whole file streams with peak RSS well under the memory limit', async () => {
    const started = Date.now();
    const response = await fetch(`${server.baseUrl}/v1/exchangerate/all?pretty_print=false`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    let bytes = 0;
    let tail = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      tail = (tail + Buffer.from(chunk).toString()).slice(-200);
    }
    const peak = await peakRssBytes(server.child.pid!);
    console.log(
      `/all: ${(bytes / 1e6).toFixed(1)} MB in ${Date.now() - started} ms; server peak RSS ${(peak / 1e6).toFixed(0)} MB`,
    );
    assert.ok(bytes > 20e6, `only ${bytes} bytes`);
    assert.match(tail, /\}\}\}\}$/);
    assert.ok(
      peak < MEMORY_LIMIT_BYTES / 2,
      `peak RSS ${peak} bytes against a ${MEMORY_LIMIT_BYTES}-byte memory limit`,
    );
  });

  test('SIGTERM lets an in-flight /all finish, then closes the database and exits 0', async () => {
    const response = await fetch(
      `${server.baseUrl}/v1/exchangerate/all?pretty_print=false&format=csv`,
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.byteLength > 0);
    server.child.kill('SIGTERM');
    let text = Buffer.from(first.value).toString();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += Buffer.from(chunk.value).toString();
    // Every rate row arrived: the last one is the first day of the file, 1999-01-04.
    assert.match(text, /\r\n1999-01-04,USD,ZAR,ecb,[\d.]+,1999-01-04T15:00:00\.000Z\r\n$/);
    const code = await new Promise<number | null>((resolve) =>
      server.child.exitCode !== null
        ? resolve(server.child.exitCode)
        : server.child.once('exit', (exitCode) => resolve(exitCode)),
    );
    assert.equal(code, 0, server.output());
    assert.match(server.output(), /SIGTERM received: finishing in-flight requests/);
    assert.match(server.output(), /database closed/);
  });
});
