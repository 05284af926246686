import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ResponseCache } from '../src/http/response-cache.js';
import { CsvParser } from '../src/import/csv-reader.js';
import { problemsText } from '../src/params/problems.js';
import {
  getJson,
  observation,
  readRows,
  startService,
  type TestService,
} from './support/harness.js';

const query = (sql: string): string => `/v1/exchangerate/query?q=${encodeURIComponent(sql)}`;

describe('the query sandbox reads a snapshot that follows the data', () => {
  let service: TestService;
  before(async () => {
    service = await startService({}, { sandbox: { snapshotDelayMs: 200 } });
    await service.store.writeObservations([
      observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
    ]);
    await service.store.startSandbox();
  });
  after(() => service.close());

  test('a write shows in the query endpoint within the refresh delay, never half-written', async () => {
    const count = async (): Promise<number> =>
      (await getJson(service.app, query('SELECT count(*) AS n FROM observations'))).body.rows[0].n;
    assert.equal(await count(), 1);
    const written = Date.now();
    await service.store.writeObservations([
      observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
      observation('ecb', 'GBP', '2024-03-19T15:00:00Z', 0.8575),
    ]);
    let seen = await count();
    while (seen !== 3 && Date.now() - written < 60_000) {
      // Both rows of the write arrive together: a snapshot is built aside and switched whole.
      assert.ok(seen === 1, `a snapshot with ${seen} rows`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await count();
    }
    assert.equal(seen, 3);
    const lag = Date.now() - written;
    console.log(`snapshot caught up ${lag} ms after the write (refresh delay 200 ms)`);
    assert.ok(lag < 10_000, `${lag} ms`);
  });

  test('the snapshot holds only observations and sources', async () => {
    const { status, body } = await getJson(
      service.app,
      query('SELECT count(*) AS n FROM (SELECT * FROM sources)'),
    );
    assert.equal(status, 200);
    assert.ok(body.rows[0].n > 0);
    for (const table of ['meta', 'ingest_status']) {
      const refused = await getJson(service.app, query(`SELECT * FROM ${table}`));
      assert.equal(refused.status, 400);
    }
  });
});

describe('the serving process and a database the engine gave up on', () => {
  test('a fatal engine error is reported to the owner (the service then exits for its supervisor)', async () => {
    const fatal: Error[] = [];
    const service = await startService({}, { onFatal: (error) => fatal.push(error) });
    try {
      // Only trusted code reaches the store; this statement is how DuckDB invalidates itself.
      await assert.rejects(readRows(service.store, "SELECT * FROM checkpoint('system')"));
      await assert.rejects(readRows(service.store, 'SELECT 1'));
      assert.ok(fatal.length >= 1);
      assert.match(fatal[0]!.message, /FATAL|invalidated/);
    } finally {
      await service.close().catch(() => undefined);
    }
  });
});

describe('bounded outputs', () => {
  test('problem texts: duplicates merged, every problem listed, cut only past 2 KB', () => {
    assert.equal(problemsText(['a', 'b', 'a']), 'a; b');
    const some = Array.from({ length: 40 }, (_, i) => `problem ${i}`);
    assert.equal(problemsText(some), some.join('; '));
    const many = Array.from({ length: 300 }, (_, i) => `problem ${i}`);
    const text = problemsText(many);
    assert.ok(text.length <= 2048, `${text.length} characters`);
    const [, listedText, rest] = /^(.*); and (\d+) more$/.exec(text) ?? [];
    const listed = listedText!.split('; ');
    assert.deepEqual(listed, many.slice(0, listed.length));
    assert.equal(listed.length + Number(rest), 300);
    // Nothing more would have fitted: the next problem and the count of the rest pass 2 KB.
    assert.ok(`${listedText}; ${many[listed.length]}; and ${Number(rest) - 1} more`.length > 2048);
    assert.ok(problemsText(['x'.repeat(10_000)]).length <= 2048);
  });

  test('the answer cache is bounded in bytes, least recently used first out', () => {
    let generation = 'v1';
    const cache = new ResponseCache(() => generation, 10_000, 2_000, 50);
    const answer = (length: number) => ({
      headers: {},
      etag: 'W/"x"',
      body: Buffer.alloc(length),
      revalidate: false,
    });
    for (let i = 0; i < 100; i++) cache.set(`key${i}`, `/url${i}`, 'v1', answer(500));
    assert.ok(cache.size <= 10_000, String(cache.size));
    assert.equal(cache.get('key0'), undefined);
    assert.equal(cache.get('key99')?.body.length, 500);
    cache.set('big', '/big', 'v1', answer(3_000)); // over the body limit: not kept
    assert.equal(cache.get('big'), undefined);
    cache.set('late', '/late', 'v0', answer(10)); // computed under an older generation
    assert.equal(cache.get('late'), undefined);
    generation = 'v2';
    assert.equal(cache.get('key99'), undefined);
    assert.equal(cache.size, 0);
  });

  describe('4,000 distinct junk URLs', () => {
    // A real collection before each reading, so that what is measured is what stays alive.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    let service: TestService;
    before(async () => {
      service = await startService();
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
        observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
      ]);
    });
    after(() => service.close());

    test('are all answered, cached by meaning not by spelling, and do not grow the heap', async () => {
      const first = await service.app.inject('/v1/exchangerate/2024-03-19?symbols=JPY');
      // The same request spelt otherwise is the same cached answer, byte for byte.
      const respelt = await service.app.inject(
        '/v1/exchangerate/2024-03-19?SYMBOLS=jpy&base=usd'.replace('SYMBOLS', 'symbols'),
      );
      assert.equal(respelt.body, first.body);
      collect();
      const heapBefore = process.memoryUsage().heapUsed;
      for (let i = 0; i < 4000; i++) {
        const response = await service.app.inject(
          `/v1/exchangerate/2024-03-19?symbols=JPY&junk${i}=${'j'.repeat(200)}`,
        );
        assert.equal(response.statusCode, 200);
      }
      collect();
      const grown = process.memoryUsage().heapUsed - heapBefore;
      assert.ok(grown < 40 * 1024 ** 2, `heap grew by ${grown >> 20} MiB`);
    });
  });
});

describe('streamed CSV', () => {
  test('records do not depend on where the pieces of text end', () => {
    const texts = [
      '\uFEFFa,"b,c","d ""e"""\r\n\r\n1,2,3\n"multi\nline",x,\n',
      'x,"y""",z\r\nlast',
      'p,q\rr,s\r\n',
    ];
    for (const text of texts) {
      const whole = new CsvParser();
      const expected = [...whole.push(text), ...whole.end()];
      for (let cut = 0; cut <= text.length; cut++) {
        for (let second = cut; second <= text.length; second++) {
          const parser = new CsvParser();
          const records = [
            ...parser.push(text.slice(0, cut)),
            ...parser.push(text.slice(cut, second)),
            ...parser.push(text.slice(second)),
            ...parser.end(),
          ];
          assert.deepEqual(records, expected, `${JSON.stringify(text)} cut at ${cut}, ${second}`);
        }
      }
    }
  });

  test('a line or field longer than the limits is an error at its line', () => {
    const parser = new CsvParser({ maxRecordLength: 100, maxFieldLength: 10 });
    assert.throws(
      () => parser.push('ok,fine\nthis-field-is-too-long,x\n'),
      /line 2: a field is longer than 10/,
    );
    const lines = new CsvParser({ maxRecordLength: 100, maxFieldLength: 1000 });
    assert.throws(
      () => lines.push(`a,b\n${'x,'.repeat(80)}\n`),
      /line 2: the line is longer than 100/,
    );
  });
});
