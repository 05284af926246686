import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { serveLoggerOptions } from '../src/logging.js';
import { openServiceStore } from '../src/service-store.js';
import { forEachEngine, observation, startService, type TestService } from './support/harness.js';

/**
 * What a client of the query endpoint gets back for the statement it sent: every column and
 * value as written, the exact bytes of its SQL, and caching that never outlives the rows.
 */
const query = (sql: string, extra = ''): string =>
  `/v1/exchangerate/query?q=${encodeURIComponent(sql)}${extra}`;

forEachEngine((engine) => {
  describe('query endpoint: answers as the statement asked', () => {
    let service: TestService;
    before(async () => {
      service = await startService(
        { query: { timeoutMs: 5_000, maxRows: 100, maxBytes: 4096 } },
        { engine, sandbox: { snapshotDelayMs: 100 } },
      );
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
      ]);
      await service.store.startSandbox();
    });
    after(() => service.close());

    const get = (url: string, headers: Record<string, string> = {}) =>
      service.app.inject({ url, headers });

    test('a NUL in q is refused, not taken as the end of the statement', async () => {
      const answer = await get(
        `/v1/exchangerate/query?q=${encodeURIComponent('SELECT 1 AS one')}%00${encodeURIComponent('; DROP TABLE sources')}`,
      );
      assert.equal(answer.statusCode, 400, answer.body);
      assert.match(answer.json().error, /NUL character/);
    });

    test('q that is not percent-encoded UTF-8 is refused, not run as some other text', async () => {
      for (const encoded of ['SELECT%20%27%ZZ%27', 'SELECT%20%27%E9%27']) {
        const answer = await get(`/v1/exchangerate/query?q=${encoded}`);
        assert.equal(answer.statusCode, 400, `${encoded}: ${answer.body}`);
        assert.match(answer.json().error, /parameter q is not percent-encoded UTF-8/);
      }
      // A second '?' is no part of the first name (as URLSearchParams reads it).
      const doubled = await get('/v1/exchangerate/latest??symbols=USD');
      assert.equal(doubled.headers['x-error'], undefined);
      // Elsewhere it is a parameter problem, said in X-Error like the others.
      const latest = await get('/v1/exchangerate/latest?symbols=%E9');
      assert.equal(latest.statusCode, 200);
      assert.match(
        String(latest.headers['x-error']),
        /parameter 'symbols' is not percent-encoded UTF-8: read as '\?'/,
      );
    });

    test('If-None-Match: * gets 304 only for a statement that has an answer', async () => {
      const star = { 'if-none-match': '*' };
      for (const sql of ["SELECT * FROM read_csv('/etc/passwd')", 'DROP TABLE sources']) {
        const refused = await get(query(sql), star);
        assert.equal(refused.statusCode, 400, `${sql}: ${refused.body}`);
      }
      const held = await get(query('SELECT 1 AS one'), star);
      assert.equal(held.statusCode, 304);
      assert.equal(held.body, '');
    });

    test('repeated column names each keep their value, in the order the statement gives', async () => {
      const answer = await get(
        query(
          'SELECT 1 AS a, 2 AS a, 3 AS a_1, 4 AS b, 5 AS "10", 6 AS "2"',
          '&pretty_print=false',
        ),
      );
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(
        answer.body,
        '{"status":"success","num_rows":1,"columns":["a","a_2","a_1","b","10","2"],' +
          '"rows":[{"a":1,"a_2":2,"a_1":3,"b":4,"10":5,"2":6}]}',
      );
      const pretty = await get(query('SELECT 7 AS "3", 8 AS z'));
      assert.match(pretty.body, /"rows": \[\n {4}\{\n {6}"3": 7,\n {6}"z": 8\n {4}\}\n {2}\]/);
      assert.deepEqual(pretty.json().rows, [{ 3: 7, z: 8 }]);
      const csv = await get(query('SELECT 1 AS a, 2 AS a', '&format=csv'));
      assert.equal(csv.body, 'a,a_1\r\n1,2\r\n');
    });

    test('NaN, the infinities, infinite dates and single-precision floats are shown as written', async () => {
      const answer = await get(
        query(
          "SELECT CAST('NaN' AS DOUBLE PRECISION) AS n, CAST('Infinity' AS DOUBLE PRECISION) AS i, " +
            "CAST('-Infinity' AS DOUBLE PRECISION) AS m, CAST(0.1 AS REAL) AS f, " +
            "CAST('infinity' AS DATE) AS d, CAST('2024-03-19' AS DATE) AS day, 'text' AS t",
        ),
      );
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json().rows, [
        {
          n: 'NaN',
          i: 'Infinity',
          m: '-Infinity',
          f: 0.1,
          d: 'infinity',
          day: '2024-03-19',
          t: 'text',
        },
      ]);
      const csv = await get(query("SELECT CAST('NaN' AS DOUBLE PRECISION) AS n", '&format=csv'));
      assert.equal(csv.body, 'n\r\nNaN\r\n');
    });

    if (engine === 'duckdb') {
      test('DuckDB: timestamps of every precision read as a TIMESTAMP reads, in UTC to the millisecond', async () => {
        const at = (type: string, text: string) => `CAST(TIMESTAMP '${text}' AS ${type})`;
        const answer = await get(
          query(
            `SELECT ${at('TIMESTAMP_S', '2024-03-19 15:00:07')} AS s, ` +
              `${at('TIMESTAMP_MS', '2024-03-19 15:00:07.123')} AS ms, ` +
              `${at('TIMESTAMP_NS', '2024-03-19 15:00:07.123456')} AS ns, ` +
              `${at('TIMESTAMP', '2024-03-19 15:00:07.123456')} AS us, ` +
              `${at('TIMESTAMP_NS', '1969-12-31 23:59:59.9995')} AS before_epoch, ` +
              `CAST('infinity' AS TIMESTAMP_MS) AS never, ` +
              `CAST(TIMESTAMP '290000-01-01 00:00:00' AS TIMESTAMP_S) AS far`,
          ),
        );
        assert.equal(answer.statusCode, 200, answer.body);
        assert.deepEqual(answer.json().rows, [
          {
            s: '2024-03-19T15:00:07.000Z',
            ms: '2024-03-19T15:00:07.123Z',
            ns: '2024-03-19T15:00:07.123Z',
            us: '2024-03-19T15:00:07.123Z',
            before_epoch: '1969-12-31T23:59:59.999Z',
            never: 'infinity',
            far: '290000-01-01 00:00:00',
          },
        ]);
      });

      test('DuckDB: statements its parse tree check cannot print are said as the engine says them', async () => {
        const infinite = await get(query('SELECT 1e999 AS x'));
        assert.equal(infinite.statusCode, 200, infinite.body);
        assert.deepEqual(infinite.json().rows, [{ x: 'Infinity' }]);
        const besideText = await get(query("SELECT 'a' AS s, 1e999 AS x"));
        assert.equal(besideText.statusCode, 400);
        assert.match(besideText.json().error, /past the range of a double \(such as 1e999\)/);
        const second = await get(query('SELECT 1; DROP TABLE sources'));
        assert.equal(second.statusCode, 400);
        assert.equal(second.json().error, 'exactly one statement, a read-only SELECT, is allowed');
        const typo = await get(query('SELECT (1'));
        assert.equal(typo.statusCode, 400);
        assert.match(typo.json().error, /^Parser Error: syntax error/);
      });
    }

    test('xml keeps tabs and line breaks of names and values as a parser reads them back', async () => {
      const answer = await get(
        query(
          `SELECT 'a' || chr(13) || chr(10) || 'b' AS "tab\there", 1 AS "line\nbreak"`,
          '&format=xml',
        ),
      );
      assert.equal(answer.statusCode, 200, answer.body);
      assert.match(answer.body, /<value column="tab&#9;here">a&#13;\nb<\/value>/);
      assert.match(answer.body, /<value column="line&#10;break">1<\/value>/);
      assert.equal(answer.headers['x-error'], undefined);
      // A name XML cannot hold at all is replaced, and that is said.
      const control = await get(query(`SELECT 1 AS "bell${'\u0007'}"`, '&format=xml'));
      assert.equal(control.statusCode, 200, control.body);
      assert.match(control.body, /<value column="bell\ufffd">1<\/value>/);
      assert.equal(
        control.headers['x-error'],
        'characters XML cannot hold were replaced by U+FFFD',
      );
    });

    test('column names count towards the byte cap: names longer than it are refused', async () => {
      // 60 bytes each (PostgreSQL keeps 63 of a name), 64 with their quotes and separator.
      const names = (count: number): string =>
        Array.from({ length: count }, (_, i) => `${i} AS c${String(i).padStart(59, '_')}`).join(
          ', ',
        );
      const answer = await get(query(`SELECT ${names(70)}`));
      assert.equal(answer.statusCode, 400, answer.body.slice(0, 300));
      assert.match(answer.json().error, /70 column names take 4480 bytes, more than the 4096/);
      const fits = await get(query(`SELECT ${names(10)}`));
      assert.equal(fits.statusCode, 200, fits.body.slice(0, 300));
      assert.equal(fits.json().columns.length, 10);
    });

    test('an ETag is never sent again once the rows it was sent with have changed', async () => {
      const sql = 'SELECT count(*) AS n FROM observations';
      const first = await get(query(sql));
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().rows[0].n, 1);
      await service.store.writeObservations([
        observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
      ]);
      // Until the sandbox reads the new row, its answers are the old ones (DuckDB reads a copy
      // made a moment later): each carries an ETag that matches exactly its own rows.
      const seen = new Map<string, number>();
      for (let tries = 0; tries < 100; tries++) {
        const answer = await get(query(sql));
        assert.equal(answer.statusCode, 200, answer.body);
        const n = answer.json().rows[0].n as number;
        const etag = String(answer.headers.etag);
        if (seen.has(etag)) assert.equal(seen.get(etag), n, `${etag} sent with both counts`);
        seen.set(etag, n);
        if (n === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok([...seen.values()].includes(2), 'the new row was never read');
      for (const [etag, n] of seen) {
        const again = await get(query(sql), { 'if-none-match': etag });
        assert.equal(again.statusCode, n === 2 ? 304 : 200, `${etag} (count ${n})`);
      }
    });
  });
});

describe('query endpoint: answers that slow clients have yet to read', () => {
  let service: TestService;
  const lines: { level: number; msg: string }[] = [];
  let origin: string;
  before(async () => {
    // One sandbox place and a 16 MiB byte cap: answers held for clients are capped at 32 MiB.
    service = await startService(
      {
        query: { timeoutMs: 20_000, maxRows: 100_000, maxBytes: 16 * 1024 * 1024 },
        logger: {
          ...serveLoggerOptions('info', 'json'),
          stream: { write: (line: string) => lines.push(JSON.parse(line)) },
        },
      },
      { sandbox: { workers: 1 } },
    );
    await service.store.startSandbox();
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  });
  after(() => service.close());

  /** Asks for a 15 MB answer and reads none of it past what the socket takes in by itself. */
  const slowReader = async (): Promise<Socket> => {
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    const path = query("SELECT repeat('x', 1000) AS v FROM range(15000)", '&pretty_print=false');
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const head = await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        resolve(chunk.toString('latin1'));
      });
    });
    assert.match(head, /^HTTP\/1\.1 200 /);
    return socket;
  };

  test('past the cap new queries get 503 with Retry-After; a client that leaves frees its part', async () => {
    const first = await slowReader();
    const second = await slowReader();
    const refused = await fetch(`${origin}${query('SELECT 1 AS one')}`);
    assert.equal(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.match(
      ((await refused.json()) as { error: string }).error,
      /still being sent to clients that read them slowly/,
    );
    // The operator sees it at the default level, with the request it turned away.
    assert.ok(
      lines.some(
        (line) =>
          line.level === 30 &&
          line.msg ===
            'query endpoint: 503 for /v1/exchangerate/query?q=SELECT%201%20AS%20one: earlier answers wait for slow clients',
      ),
      JSON.stringify(lines.slice(-5)),
    );
    // Rate answers do not wait on the query endpoint.
    assert.equal((await fetch(`${origin}/v1/exchangerate/latest`)).status, 200);
    first.destroy();
    let answered: Response | undefined;
    for (let tries = 0; tries < 40; tries++) {
      answered = await fetch(`${origin}${query('SELECT 1 AS one')}`);
      if (answered.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(answered?.status, 200);
    second.destroy();
  });

  test('an answer whose client left before it was made holds nothing', async () => {
    for (let client = 0; client < 3; client++) {
      const socket = connect(Number(new URL(origin).port), '127.0.0.1');
      const path = query("SELECT repeat('x', 1000) AS v FROM range(15000)", '&pretty_print=false');
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.destroy();
    }
    // One sandbox place: these run after the three answers were made (and dropped).
    for (let request = 0; request < 2; request++) {
      const answer = await fetch(`${origin}${query('SELECT 1 AS one')}`);
      assert.equal(answer.status, 200, await answer.text());
    }
  });
});

describe('query endpoint on DuckDB: an ETag from before a restart', () => {
  test('does not match the answer of a database that changed meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fxrates-restart-'));
    const path = join(dir, 'rates.duckdb');
    const url = query('SELECT count(*) AS n FROM observations');
    const serve = async (symbol: string): Promise<{ n: unknown; etag: string; held: number }> => {
      const store = await openServiceStore(path);
      const app = await buildApp({ store });
      try {
        await store.writeObservations([observation('ecb', symbol, '2024-03-19T15:00:00Z', 1.5)]);
        const held = (await app.inject({ url, headers: { 'if-none-match': first?.etag ?? '' } }))
          .statusCode;
        const answer = await app.inject(url);
        return { n: answer.json().rows[0].n, etag: String(answer.headers.etag), held };
      } finally {
        await app.close();
        await store.close();
      }
    };
    let first: { etag: string } | undefined;
    try {
      first = await serve('USD');
      const second = await serve('JPY');
      assert.equal(second.n, 2);
      assert.equal(second.held, 200, 'the ETag of the one-row answer matched after the restart');
      assert.notEqual(second.etag, first.etag);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
