import assert from 'node:assert/strict';
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openServiceStore } from '../src/service-store.js';
import { addDays } from '../src/dates.js';
import { observation } from './support/harness.js';
import { peakRssBytes, startServer, type RunningServer } from './support/cli.js';

/**
 * What one unauthenticated client can try against a running `fxrates serve`: every attack must
 * be refused or bounded, the process must survive, other requests must be answered meanwhile,
 * and the data must stay intact.
 */

const SYMBOLS = ['USD', 'JPY', 'GBP', 'CHF', 'SEK', 'NOK', 'AUD', 'CAD', 'CNY', 'ZAR'];

/** A database of 2 sources x 10 symbols x 400 days, written before any server opens it. */
async function seededDatabase(dir: string): Promise<string> {
  const path = join(dir, 'fx.duckdb');
  const store = await openServiceStore(path);
  const rows = [];
  for (let day = 0; day < 400; day++) {
    const date = addDays('2023-01-01', day);
    for (const [index, symbol] of SYMBOLS.entries()) {
      const figure = (base: number): number =>
        Number((base + index / 10 + day / 10_000).toFixed(4));
      rows.push(observation('ecb', symbol, `${date}T15:00:00Z`, figure(1)));
      if (symbol !== 'USD') rows.push(observation('imf', symbol, `${date}T16:00:00Z`, figure(2)));
    }
  }
  await store.writeObservations(rows);
  await store.close();
  return path;
}

async function stop(server: RunningServer | undefined): Promise<void> {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
}

const query = (server: RunningServer, sql: string, extra = ''): Promise<Response> =>
  fetch(`${server.baseUrl}/v1/exchangerate/query?q=${encodeURIComponent(sql)}${extra}`);

/** The rate the seeded data gives for USD/JPY on 2024-01-15, through the date endpoint. */
async function assertDataIntact(server: RunningServer, context: string): Promise<void> {
  const response = await fetch(
    `${server.baseUrl}/v1/exchangerate/2024-01-15?base=EUR&symbols=JPY&sources=ecb`,
  );
  assert.equal(response.status, 200, context);
  const body = (await response.json()) as any;
  // Day 379 of the seed: 1 + 1/10 + 379/10000.
  assert.equal(body.rates.JPY.rate, 1.1379, context);
  assert.equal(server.child.exitCode, null, `${context}: the service exited`);
}

/** Process ids whose parent is `pid` (the sandbox processes of a server). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** Sends raw bytes and returns what the server answers before closing (or after `waitMs`). */
function rawExchange(
  server: RunningServer,
  request: string | Buffer,
  waitMs = 3000,
): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const finish = (): void => {
      socket.destroy();
      resolve(received);
    };
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(request);
    setTimeout(finish, waitMs).unref();
  });
}

describe('attacks on a running service', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-attacks-'));
    const db = await seededDatabase(dir);
    server = await startServer(['--db', db, '--no-ingest'], {
      FXRATES_QUERY_TIMEOUT_MS: '4000',
      FXRATES_QUERY_MAX_BYTES: String(2 * 1024 * 1024),
    });
  });
  after(async () => {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  });

  const refused: [string, string, RegExp][] = [
    [
      'logging to a file (aborted the process)',
      "SELECT * FROM enable_logging(storage='file', storage_path='/tmp/fxrates-x')",
      /table function enable_logging\(\) is not allowed/,
    ],
    [
      'a checkpoint of the system catalog (invalidated the database)',
      "SELECT * FROM checkpoint('system')",
      /checkpoint\(\) is not allowed/,
    ],
    [
      'a huge BIGNUM (blocked the event loop)',
      'SELECT bignum FROM test_all_types(use_large_bignum=true)',
      /test_all_types\(\) is not allowed/,
    ],
    ['a cast to BIGNUM', "SELECT '9'::BIGNUM AS b", /casts to BIGNUM are not allowed/],
    [
      'logging for every client',
      'SELECT * FROM enable_logging()',
      /enable_logging\(\) is not allowed/,
    ],
    ["other clients' SQL", 'SELECT * FROM duckdb_logs()', /duckdb_logs\(\) is not allowed/],
    ['the meta table', 'SELECT * FROM meta', /table meta is not allowed/],
    ['the ingest state', 'SELECT * FROM ingest_status', /table ingest_status is not allowed/],
    ['the settings', 'SELECT * FROM duckdb_settings()', /duckdb_settings\(\) is not allowed/],
    [
      "the databases (the file's path)",
      'SELECT * FROM duckdb_databases()',
      /duckdb_databases\(\) is not allowed/,
    ],
    ['a setting', "SELECT current_setting('memory_limit')", /current_setting\(\) is not allowed/],
    ['the environment', "SELECT getenv('HOME')", /getenv\(\) is not allowed/],
    ['a file', "SELECT * FROM read_text('/etc/passwd')", /read_text\(\) is not allowed/],
    ['a file as a table', "SELECT * FROM '/etc/passwd'", /table \/etc\/passwd is not allowed/],
    ['SQL in a string', "SELECT * FROM query('SELECT * FROM meta')", /query\(\) is not allowed/],
    ['another catalog', 'SELECT * FROM system.main.duckdb_tables', /is not allowed/],
    [
      'DESCRIBE',
      'DESCRIBE observations',
      /only read-only SELECT statements are allowed, not DESCRIBE/,
    ],
    ['PRAGMA', 'PRAGMA database_list', /only read-only SELECT statements are allowed/],
  ];
  for (const [name, sql, message] of refused) {
    test(`refused with 400, the service intact: ${name}`, async () => {
      const response = await query(server, sql);
      const body = (await response.json()) as any;
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(body.error, message);
      await assertDataIntact(server, name);
    });
  }

  test('a list of 100 million numbers is stopped by the sandbox, not the service', async () => {
    const before = await peakRssBytes(server.child.pid!);
    const response = await query(server, 'SELECT len(range(100000000)) AS n');
    // Either the sandbox's memory limit refuses it or it finishes within it; either way the
    // serving process never held it.
    assert.ok([200, 400].includes(response.status), String(response.status));
    await response.arrayBuffer();
    const grown = (await peakRssBytes(server.child.pid!)) - before;
    assert.ok(grown < 64 * 1024 ** 2, `the service grew by ${grown >> 20} MiB`);
    await assertDataIntact(server, 'range');
  });

  test('a statement whose planning never ends is stopped at the time limit; others are answered meanwhile', async () => {
    // Each NOT MATERIALIZED step doubles what the planner inlines: 2^40 by the end.
    const ctes = ['c0 AS NOT MATERIALIZED (SELECT 1 AS x)'];
    for (let level = 1; level <= 40; level++) {
      ctes.push(
        `c${level} AS NOT MATERIALIZED (SELECT x FROM c${level - 1} UNION ALL SELECT x FROM c${level - 1})`,
      );
    }
    const started = Date.now();
    const bomb = query(server, `WITH ${ctes.join(', ')} SELECT count(*) FROM c40`);
    const answered: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await assertDataIntact(server, 'during the planning bomb');
      answered.push(Date.now() - started);
    }
    const response = await bomb;
    const elapsed = Date.now() - started;
    assert.equal(response.status, 503);
    assert.match(((await response.json()) as any).error, /time limit/);
    assert.ok(elapsed < 4000 + 3000, `stopped after ${elapsed} ms for a 4000 ms limit`);
    assert.ok(
      answered.every((at) => at < elapsed),
      `others at ${answered} ms`,
    );
    // The replacement sandbox answers.
    const after = await query(server, 'SELECT 42 AS answer');
    assert.equal(after.status, 200);
  });

  test('huge answers are cut at the byte cap, with an X-Error, never a 500', async () => {
    // '€' is three bytes in UTF-8: the cap counts bytes, not characters.
    for (const [character, width, rows] of [
      ['x', 3000, 100_000],
      ['x', 6000, 100_000],
      ['€', 3000, 2000],
    ] as const) {
      const response = await query(
        server,
        `SELECT repeat('${character}', ${width}) AS x FROM range(${rows})`,
        '&pretty_print=false',
      );
      const text = await response.text();
      assert.equal(response.status, 200, `width ${width}: ${text.slice(0, 300)}`);
      assert.match(response.headers.get('x-error') ?? '', /cut at 2097152 bytes/);
      const bytes = Buffer.byteLength(text);
      assert.ok(bytes < 2 * 1024 * 1024 + 4096, `${bytes} bytes of ${character}`);
      assert.equal(JSON.parse(text).error, response.headers.get('x-error'));
    }
  });

  test('six clients that do not read their answers hold at most a capped body each', async () => {
    const before = await peakRssBytes(server.child.pid!);
    const { hostname, port } = new URL(server.baseUrl);
    const sql = encodeURIComponent("SELECT repeat('x', 3000) AS x FROM range(100000)");
    const sockets = Array.from({ length: 6 }, () => {
      const socket = connect(Number(port), hostname);
      socket.write(`GET /v1/exchangerate/query?q=${sql} HTTP/1.1\r\nHost: x\r\n\r\n`);
      socket.pause(); // never read
      return socket;
    });
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await assertDataIntact(server, 'with six stalled readers');
    const grown = (await peakRssBytes(server.child.pid!)) - before;
    for (const socket of sockets) socket.destroy();
    // Six bodies of 2 MiB plus their rendering: far below the 300 MB each would be uncut.
    assert.ok(grown < 160 * 1024 ** 2, `the service grew by ${grown >> 20} MiB`);
  });

  test('values JSON and XML cannot hold: infinity prints as DuckDB writes it, control characters are replaced in XML', async () => {
    const json = await query(server, "SELECT 'infinity'::TIMESTAMP AS t, chr(1) AS c");
    assert.equal(json.status, 200);
    const body = (await json.json()) as any;
    assert.deepEqual(body.rows, [{ t: 'infinity', c: '\u0001' }]);
    const xml = await query(
      server,
      "SELECT 'infinity'::TIMESTAMP AS t, chr(1) AS c",
      '&format=xml',
    );
    const text = await xml.text();
    assert.equal(xml.status, 200);
    assert.match(text, /<value column="t">infinity<\/value>/);
    assert.match(text, /<value column="c">\ufffd<\/value>/);
    assert.doesNotMatch(text, /\u0001/);
    assert.match(xml.headers.get('x-error') ?? '', /replaced by U\+FFFD/);
  });

  test('a killed sandbox process fails its statement with 503 and is replaced', async () => {
    const slow = query(server, 'SELECT count(*) FROM range(100000000000) AS a(x) WHERE x % 7 = 3');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const sandboxes = childrenOf(server.child.pid!);
    assert.ok(sandboxes.length > 0, 'no sandbox process found');
    for (const pid of sandboxes) process.kill(pid, 'SIGKILL');
    const response = await slow;
    assert.equal(response.status, 503);
    assert.match(((await response.json()) as any).error, /sandbox stopped/);
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      recovered = (await query(server, 'SELECT 1 AS one')).status;
    }
    assert.equal(recovered, 200);
    await assertDataIntact(server, 'after the kill');
  });

  test('every method but GET, HEAD and OPTIONS gets 405 with Allow, before any body is read', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND']) {
      const answer = await rawExchange(
        server,
        `${method} /v1/exchangerate/latest?format=xml HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\nabc`,
      );
      assert.match(answer, /^HTTP\/1\.1 405 /, method);
      assert.match(answer, /\r\nallow: GET, HEAD, OPTIONS\r\n/i, method);
      assert.match(answer, /\r\naccess-control-allow-origin: \*\r\n/i, method);
      assert.match(
        answer,
        /\r\naccess-control-expose-headers: X-Error, X-Query, ETag\r\n/i,
        method,
      );
      assert.match(answer, /<status>error<\/status>/, method);
    }
  });

  test('another method on a path no endpoint answers gets 404, before any body is read', async () => {
    // Segments GET answers with a 404 (not a date, not `*`, no such asset) are no endpoint's.
    for (const path of [
      '/v1/nothing',
      '/v2/exchangerate/latest',
      '/v1/exchangerate/2024-01-01/x/y',
      '/v1/exchangerate/foo',
      '/v1/exchangerate/10000-01-01',
      '/v1/exchangerate/latest/x',
      '/v1/exchangerate/2024-1-5/2024-01-10',
      '/assets/nope.js',
    ]) {
      const answer = await rawExchange(
        server,
        `PUT ${path}?format=csv HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\nabc`,
      );
      assert.match(answer, /^HTTP\/1\.1 404 /, path);
      assert.doesNotMatch(answer, /\r\nallow:/i, path);
      assert.match(answer, new RegExp(`error,no endpoint at ${path}; see /v1/openapi.json`), path);
    }
    // Trailing and doubled slashes name the endpoint as GET takes them.
    for (const path of [
      '/v1/exchangerate/latest/',
      '//v1//sources',
      '/v1/exchangerate/2024-01-01',
      '/v1/exchangerate/2023-02-29',
      '/v1/exchangerate/2024-01-01/*',
      '/v1/exchangerate/*/*',
    ]) {
      const answer = await rawExchange(server, `DELETE ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 405 /, path);
    }
  });

  test('a flood of pipelined requests closes its connection; a few pipelined are all answered', async () => {
    const pipelined = (count: number, path: string): string =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count);
    const answers = (text: string): number => text.match(/^HTTP\/1\.1 200 /gm)?.length ?? 0;
    // Answered from the cache, then in the handlers: both kinds are held until sent.
    for (const path of ['/v1/exchangerate/latest', '/v1/sources']) {
      const flood = await rawExchange(server, pipelined(2000, path));
      assert.ok(answers(flood) <= 16, `${answers(flood)} answers to 2000 pipelined ${path}`);
      assert.equal(answers(await rawExchange(server, pipelined(5, path), 1500)), 5, path);
    }
    assert.equal((await fetch(`${server.baseUrl}/v1/sources`)).status, 200);
  });

  test('requests the HTTP parser refuses get the error body too', async () => {
    const badMethod = await rawExchange(
      server,
      'FOO /v1/exchangerate/latest?format=xml HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    assert.match(badMethod, /^HTTP\/1\.1 400 /);
    assert.match(badMethod, /\r\naccess-control-expose-headers: X-Error, X-Query, ETag\r\n/i);
    assert.match(
      badMethod,
      /<status>error<\/status>\n  <error>the request method is not valid HTTP/,
    );
    // Headers too large: the request line is long gone when the parser gives up, so the body is
    // json, the default format.
    const huge = await rawExchange(
      server,
      `GET /v1/exchangerate/latest HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(400_000)}\r\n\r\n`,
    );
    assert.match(huge, /^HTTP\/1\.1 431 /);
    assert.match(
      huge,
      /"error": "the request line and headers are too large \(the query endpoint takes SQL of up to 100,000 characters/,
    );
  });

  test('thousands of bad parameters make a short X-Error', async () => {
    const junk = Array.from({ length: 3000 }, (_, i) => `junk${i}=${i}`).join('&');
    const response = await fetch(`${server.baseUrl}/v1/exchangerate/2024-01-15?${junk}`);
    assert.equal(response.status, 200);
    const header = response.headers.get('x-error') ?? '';
    assert.ok(header.length <= 2048, `${header.length} characters`);
    const [, listed, rest] =
      /^(unknown parameter 'junk0' ignored; .*); and (\d+) more$/.exec(header) ?? [];
    assert.equal(listed!.split('; ').length + Number(rest), 3000);
    assert.equal(((await response.json()) as any).error, header);
  });
});

describe('a full query queue', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-queue-'));
    server = await startServer(['--db', await seededDatabase(dir), '--no-ingest'], {
      FXRATES_QUERY_WORKERS: '1',
      FXRATES_QUERY_QUEUE: '1',
      FXRATES_QUERY_TIMEOUT_MS: '3000',
      FXRATES_MAX_CONNECTIONS: '50',
    });
  });
  after(async () => {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  });

  test('answers 503 with Retry-After at once, and the queued ones in turn', async () => {
    const slow = 'SELECT count(*) FROM range(100000000000) AS a(x) WHERE x % 7 = 3';
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const response = await query(server, slow);
        await response.arrayBuffer();
        return { response, at: Date.now() - started };
      }),
    );
    const full = responses.filter(({ response }) => response.headers.get('retry-after'));
    assert.equal(full.length, 2, responses.map(({ response }) => response.status).join(','));
    for (const { response, at } of full) {
      assert.equal(response.status, 503);
      assert.ok(at < 1500, `the refusal took ${at} ms`);
    }
    // The running one and the waiting one reach their time limit (counted from arrival).
    assert.deepEqual(
      responses.map(({ response }) => response.status),
      [503, 503, 503, 503],
    );
  });

  test('a flood of connections that never finish their headers does not lock others out', async () => {
    const { hostname, port } = new URL(server.baseUrl);
    const flood = Array.from({ length: 150 }, () => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.write('GET /v1/exchangerate/latest HTTP/1.1\r\nHost: x\r\n');
      return socket;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    const response = await fetch(`${server.baseUrl}/v1/exchangerate/2024-01-15?symbols=JPY`);
    assert.equal(response.status, 200);
    assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
    for (const socket of flood) socket.destroy();
  });
});
