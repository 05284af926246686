import assert from 'node:assert/strict';
import { get, type ClientRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { EngineOutOfMemory, type ColumnBatch } from '../src/store/store.js';
import { dailyObservations, readRows, startService, type TestService } from './support/harness.js';

/**
 * Long answers read slowly each hold a window's rows in the engine. Past DuckDB's memory limit
 * the next statement fails; an answer then waits for memory instead of being cut short.
 */

describe('answers under the engine memory limit', () => {
  let service: TestService;
  let whole: string;
  const logLines: { level: number; msg?: string }[] = [];

  before(async () => {
    service = await startService(
      {
        today: () => '2024-06-01',
        rowsPerWindow: 20_000,
        memoryWaitMs: 3_000,
        logger: {
          level: 'warn',
          stream: { write: (line: string) => logLines.push(JSON.parse(line)) },
        },
      },
      { memoryLimit: '64MB', threads: 1 },
    );
    await service.store.writeObservations(dailyObservations(30, 2_000, '2018-01-01'));
    whole = (await service.app.inject('/v1/exchangerate/all')).body;
  });
  after(() => service?.close());

  /** The statement a range's windows are cut from (as show_query gives it). */
  const statementOf = async (url: string): Promise<string> =>
    JSON.parse((await service.app.inject(`${url}?show_query=true`)).body).query.replace(
      /^\/\*.*\*\/\n/,
      '',
    );

  /**
   * Window statements held open, as by clients that read slowly, until the engine refuses one:
   * those of /all, then those of `also` (the rest of the memory a smaller statement fits in).
   */
  async function holdUntilFull(also?: string): Promise<AsyncIterator<ColumnBatch>[]> {
    const statements = [await statementOf('/v1/exchangerate/all'), ...(also ? [also] : [])];
    const holders: AsyncIterator<ColumnBatch>[] = [];
    for (const sql of statements) {
      for (let held = 0; ; held++) {
        assert.ok(held < 100, `the engine held ${held} windows and never refused one`);
        const rows = service.store.streamColumns(sql)[Symbol.asyncIterator]();
        try {
          await rows.next();
          holders.push(rows);
        } catch (error) {
          assert.ok(error instanceof EngineOutOfMemory, String(error));
          assert.ok(holders.length > 0);
          break;
        }
      }
    }
    return holders;
  }

  /** A range read whole, before its head is sent (rate-request.ts: WHOLE_ANSWER_ROWS). */
  const SHORT_RANGE = '/v1/exchangerate/2022-01-01/2022-12-31';

  const engineMemory = async (): Promise<number> =>
    Number(
      (await readRows(service.store, 'SELECT sum(memory_usage_bytes) FROM duckdb_memory()'))[0]![0],
    );

  test('a long answer waits for memory held by other answers, and comes whole', async () => {
    const holders = await holdUntilFull();
    const answer = service.app.inject('/v1/exchangerate/all');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Their clients read on, to the end.
    for (const rows of holders) while (!(await rows.next()).done);
    const response = await answer;
    assert.equal(response.statusCode, 200);
    assert.equal(response.body.length, whole.length);
    assert.equal(response.body, whole);
  });

  test('a short range that gets no memory within the wait is a 503 with Retry-After, not a cut answer', async () => {
    const url = SHORT_RANGE;
    const answer = (await service.app.inject(url)).body;
    const holders = await holdUntilFull(await statementOf(url));
    try {
      const response = await service.app.inject(url);
      assert.equal(response.statusCode, 503, response.body.slice(0, 200));
      assert.equal(response.headers['retry-after'], '5');
      assert.deepEqual(JSON.parse(response.body), {
        status: 'error',
        error: "the engine's memory is taken by long answers being read; try again shortly",
      });
    } finally {
      for (const rows of holders) await rows.return?.();
    }
    assert.equal((await service.app.inject(url)).body, answer);
  });

  test('a client that goes away while its short range waits for memory leaves no error behind', async () => {
    const url = SHORT_RANGE;
    const holders = await holdUntilFull(await statementOf(url));
    try {
      const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
      const before = logLines.length;
      await new Promise<void>((resolve) => {
        const request = get(`${base}${url}`);
        request.on('error', () => resolve());
        setTimeout(() => request.destroy(), 300);
      });
      // Its wait ends with the connection, well before the 3 s it could wait.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(logLines.slice(before), []);
    } finally {
      for (const rows of holders) await rows.return?.();
    }
  });

  test('answers whose clients went away give their memory back at once', async () => {
    const idle = await engineMemory();
    const holders = await holdUntilFull();
    const full = await engineMemory();
    for (const rows of holders) await rows.return?.();
    const after = await engineMemory();
    assert.ok(after - idle < (full - idle) / 4, `idle ${idle}, full ${full}, after ${after}`);
    const response = await service.app.inject('/v1/exchangerate/all');
    assert.equal(response.body, whole);
  });
});

describe('compressed long answers while many are in flight', () => {
  let service: TestService;
  let base: string;

  before(async () => {
    service = await startService({ today: () => '2024-06-01' });
    await service.store.writeObservations(dailyObservations(100, 1_500, '2019-01-01'));
    base = await service.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => service?.close());

  const statements = (body: string): number =>
    Number(/run as (\d+) statements/.exec(JSON.parse(body).query)?.[1] ?? 1);

  test('are cut into smaller windows, and come the same', async () => {
    const url = '/v1/exchangerate/all?show_query=true';
    const alone = await service.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    const windows = statements(gunzipSync(alone.rawPayload).toString());
    assert.ok(windows > 1, `${windows} windows`);
    // Four clients that do not read their answers (about 13 MB each) keep them in flight.
    const held: ClientRequest[] = [];
    await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<void>((resolve, reject) => {
            const request = get(`${base}/v1/exchangerate/all`, (response) => {
              response.pause();
              resolve();
            });
            request.on('error', reject);
            held.push(request);
          }),
      ),
    );
    try {
      const compressed = await service.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      const plain = await service.app.inject(url);
      const crowded = gunzipSync(compressed.rawPayload).toString();
      assert.ok(statements(crowded) > windows, `${statements(crowded)} against ${windows}`);
      assert.equal(statements(plain.body), windows);
      assert.deepEqual(JSON.parse(crowded).rates, JSON.parse(plain.body).rates);
      // A range short enough to be read whole (180 days of 100 symbols, more rows than a
      // crowded window's) keeps its one statement.
      const short = await service.app.inject({
        url: '/v1/exchangerate/2022-06-01/2022-11-27?show_query=true',
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(statements(gunzipSync(short.rawPayload).toString()), 1);
    } finally {
      for (const request of held) request.destroy();
    }
  });
});
