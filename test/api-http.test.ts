import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';
import { exactQuotient } from './support/exact-reference.js';

forEachEngine((engine) => {
  describe('HTTP behaviour', () => {
    let service: TestService;
    before(async () => {
      // "Today" is 2024-03-20: answers about days up to 2024-03-17 are settled.
      service = await startService({ today: () => '2024-03-20' }, { engine });
      const data = [];
      for (let day = 1; day <= 19; day++) {
        const date = `2024-03-${String(day).padStart(2, '0')}`;
        data.push(
          observation('ecb', 'USD', `${date}T15:00:00Z`, 1.08 + day / 1000),
          observation('ecb', 'JPY', `${date}T15:00:00Z`, 160 + day),
        );
      }
      await service.store.writeObservations(data);
      // The ECB's history is fetched through today (see caching.test.ts for backfills).
      await service.store.saveIngestState({
        source: 'ecb',
        lastAttempt: new Date('2024-03-20T16:00:00Z'),
        lastSuccess: new Date('2024-03-20T16:00:00Z'),
        lastError: null,
        completeThrough: '2024-03-20',
        lastRunStored: 0,
        lastRunDropped: 0,
      });
    });
    after(() => service.close());

    test('404 for unknown paths and non-date segments, 400 for impossible calendar dates', async () => {
      for (const [url, status] of [
        ['/v1/nothing', 404],
        ['/v2/exchangerate/latest', 404],
        ['/v1/exchangerate/2024-1-5', 404],
        ['/v1/exchangerate/foo', 404],
        ['/v1/exchangerate/2024-01-01/foo', 404],
        ['/v1/exchangerate/2023-02-29', 400],
        ['/v1/exchangerate/2024-04-31', 400],
        ['/v1/exchangerate/2024-13-01', 400],
        ['/v1/exchangerate/2024-02-30/2024-03-01', 400],
        ['/v1/exchangerate/2024-02-29', 200],
        ['/v1/exchangerate/%zz', 400],
      ] as const) {
        const response = await getJson(service.app, url);
        assert.equal(response.status, status, url);
        if (status !== 200) {
          assert.equal(response.body.status, 'error', url);
          assert.equal(typeof response.body.error, 'string', url);
        }
      }
    });

    test('error bodies follow the requested format', async () => {
      const csv = await service.app.inject('/v1/exchangerate/2023-02-29?format=csv');
      assert.equal(csv.statusCode, 400);
      assert.equal(csv.body, 'status,error\r\nerror,2023-02-29 is not a calendar date\r\n');
      const xml = await service.app.inject('/v1/missing?format=xml');
      assert.equal(xml.statusCode, 404);
      assert.match(
        xml.body,
        /<exchangerates>\n  <status>error<\/status>\n  <error>no endpoint at \/v1\/missing; see \/v1\/openapi.json<\/error>\n<\/exchangerates>/,
      );
      // pretty_print=false lays errors out as it does answers: on one line.
      const compact = await service.app.inject('/v1/exchangerate/2023-02-29?pretty_print=false');
      assert.equal(compact.body, '{"status":"error","error":"2023-02-29 is not a calendar date"}');
      const indented = await service.app.inject('/v1/exchangerate/2023-02-29?pretty_print=no');
      assert.equal(
        indented.body,
        '{\n  "status": "error",\n  "error": "2023-02-29 is not a calendar date"\n}\n',
      );
      const compactXml = await service.app.inject('/v1/missing?format=xml&pretty_print=False');
      assert.match(compactXml.body, /^<\?xml[^>]*\?><exchangerates><status>error<\/status><error>/);
      assert.doesNotMatch(compactXml.body, /\n/);
    });

    test('HEAD answers like GET without a body', async () => {
      const get = await service.app.inject('/v1/exchangerate/2024-03-10');
      const head = await service.app.inject({ method: 'HEAD', url: '/v1/exchangerate/2024-03-10' });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers.etag, get.headers.etag);
      assert.equal(head.headers['content-type'], get.headers['content-type']);
      const headAll = await service.app.inject({
        method: 'HEAD',
        url: '/v1/exchangerate/all?format=csv',
      });
      assert.equal(headAll.statusCode, 200);
      assert.equal(headAll.body, '');
      assert.equal(headAll.headers['content-type'], 'text/csv; charset=utf-8');
    });

    test('HEAD gives the headers GET gives, compressed answers included', async () => {
      const urls = [
        '/v1/exchangerate/2024-03-11',
        '/v1/exchangerate/2024-03-01/2024-03-15',
        '/v1/exchangerate/2024-03-01/2024-03-15?format=csv',
        '/v1/currencies',
        '/v1/openapi.json',
      ];
      for (const url of urls) {
        for (const encoding of ['br', 'gzip', 'identity']) {
          const headers = { 'accept-encoding': encoding };
          const get = await service.app.inject({ url, headers });
          const head = await service.app.inject({ method: 'HEAD', url, headers });
          const what = `${url} ${encoding}`;
          assert.equal(head.statusCode, 200, what);
          assert.equal(head.body, '', what);
          // A streamed answer's length is not known before it is written: chunked, in GET only.
          const comparable = (all: Record<string, unknown>) =>
            Object.fromEntries(
              Object.entries(all).filter(([name]) => !['date', 'transfer-encoding'].includes(name)),
            );
          assert.deepEqual(comparable(head.headers), comparable(get.headers), what);
          // Bodies under 1 KB go uncompressed; the OpenAPI text is longer.
          if (url === '/v1/openapi.json' || get.headers['content-encoding'] !== undefined)
            assert.equal(
              get.headers['content-encoding'],
              encoding === 'identity' ? undefined : encoding,
              what,
            );
          // Named once, however many times the answer was negotiated.
          assert.equal(get.headers.vary, 'accept-encoding', what);
        }
      }
    });

    test('the encoding follows the preferences of the client, identity included', async () => {
      for (const [accepted, expected] of [
        ['gzip;q=0.5, identity;q=1', undefined],
        ['br;q=0.5, gzip;q=0.4, identity', undefined],
        ['gzip;q=1, identity;q=0.5', 'gzip'],
        ['identity;q=0, gzip', 'gzip'],
        ['br;q=0.2, gzip;q=0.9', 'gzip'],
        ['br, gzip', 'br'],
        ['deflate', undefined],
      ] as const) {
        const response = await service.app.inject({
          url: '/v1/openapi.json',
          headers: { 'accept-encoding': accepted },
        });
        assert.equal(response.statusCode, 200, accepted);
        assert.equal(response.headers['content-encoding'], expected, accepted);
      }
    });

    test('CORS: every answer allows any origin and exposes X-Error, X-Query and ETag; OPTIONS is a preflight', async () => {
      const get = await service.app.inject('/v1/exchangerate/latest');
      assert.equal(get.headers['access-control-allow-origin'], '*');
      assert.equal(get.headers['access-control-expose-headers'], 'X-Error, X-Query, ETag');
      const preflight = await service.app.inject({
        method: 'OPTIONS',
        url: '/v1/exchangerate/latest',
        headers: {
          origin: 'https://example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match',
        },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], '*');
      assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
      assert.equal(preflight.headers['access-control-allow-headers'], 'if-none-match');
      // A path GET answers with a 404 gets one for its preflight too.
      for (const url of ['/v1/exchangerate/foo', '/v1/exchangerate/2024-01-01/x', '/assets/x.js']) {
        const missing = await service.app.inject({ method: 'OPTIONS', url });
        assert.equal(missing.statusCode, 404, url);
        assert.equal(missing.headers.allow, undefined, url);
      }
      const range = await service.app.inject({ method: 'OPTIONS', url: '/v1/exchangerate/*/*' });
      assert.equal(range.statusCode, 204);
    });

    test('other methods get 405 with Allow; on a path no endpoint answers, 404', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        for (const url of ['/v1/exchangerate/foo', '/v1/exchangerate/2024-01-01/x']) {
          const segment = await service.app.inject({ method, url });
          assert.equal(segment.statusCode, 404, `${method} ${url}`);
        }
        const missing = await service.app.inject({ method, url: '/v1/nothing' });
        assert.equal(missing.statusCode, 404, method);
        assert.equal(missing.headers.allow, undefined);
        assert.equal(
          JSON.parse(missing.body).error,
          'no endpoint at /v1/nothing; see /v1/openapi.json',
        );
        for (const url of [
          '/v1/exchangerate/latest',
          '/v1/exchangerate/2024-03-10',
          '/v1/currencies',
          '/v1/exchangerate/query',
        ]) {
          const response = await service.app.inject({ method, url });
          assert.equal(response.statusCode, 405, `${method} ${url}`);
          assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS');
          assert.equal(response.headers['access-control-expose-headers'], 'X-Error, X-Query, ETag');
        }
      }
    });

    test('ETag on every 200 and If-None-Match gives 304; the tag changes when the data does', async () => {
      const first = await service.app.inject('/v1/exchangerate/2024-03-10?symbols=JPY');
      const etag = first.headers.etag as string;
      assert.match(etag, /^W\/"[A-Za-z0-9_-]+"$/);
      const again = await service.app.inject({
        url: '/v1/exchangerate/2024-03-10?symbols=JPY',
        headers: { 'if-none-match': etag },
      });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      const other = await service.app.inject({
        url: '/v1/exchangerate/2024-03-11?symbols=JPY',
        headers: { 'if-none-match': etag },
      });
      assert.equal(other.statusCode, 200);
      for (const url of [
        '/v1/currencies',
        '/v1/sources',
        '/v1/exchangerate/query?q=SELECT%201',
        '/v1/openapi.json',
        '/',
      ]) {
        const response = await service.app.inject(url);
        assert.ok(response.headers.etag, url);
        const cached = await service.app.inject({
          url,
          headers: { 'if-none-match': response.headers.etag as string },
        });
        assert.equal(cached.statusCode, 304, url);
      }
      await service.store.writeObservations([
        observation('ecb', 'JPY', '2024-03-10T15:00:00Z', 171),
      ]);
      const changed = await service.app.inject({
        url: '/v1/exchangerate/2024-03-10?symbols=JPY',
        headers: { 'if-none-match': etag },
      });
      assert.equal(changed.statusCode, 200);
      assert.equal(JSON.parse(changed.body).rates.JPY.rate, exactQuotient(171, 1.09));
    });

    test('Cache-Control: a day when every date is more than 2 days old, a minute otherwise', async () => {
      const cases: [string, string][] = [
        ['/v1/exchangerate/2024-03-17?sources=ecb', 'public, max-age=86400'],
        ['/v1/exchangerate/2024-03-18?sources=ecb', 'public, max-age=60'],
        ['/v1/exchangerate/2024-03-01/2024-03-17?sources=ecb', 'public, max-age=86400'],
        ['/v1/exchangerate/2024-03-01/2024-03-18?sources=ecb', 'public, max-age=60'],
        ['/v1/exchangerate/2024-03-01/*?sources=ecb', 'public, max-age=60'],
        ['/v1/exchangerate/all?sources=ecb', 'public, max-age=60'],
        ['/v1/exchangerate/latest?sources=ecb', 'public, max-age=60'],
      ];
      for (const [url, expected] of cases) {
        const response = await service.app.inject(url);
        assert.equal(response.headers['cache-control'], expected, url);
      }
    });

    test('br and gzip compression by Accept-Encoding', async () => {
      const plain = await service.app.inject('/v1/exchangerate/all');
      assert.equal(plain.headers['content-encoding'], undefined);
      const br = await service.app.inject({
        url: '/v1/exchangerate/all',
        headers: { 'accept-encoding': 'br, gzip' },
      });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
      // A window of at most 256 KiB: what a stream being compressed holds, on each side.
      assert.ok(
        brotliWindowBits(br.rawPayload) <= 18,
        `window of 2^${brotliWindowBits(br.rawPayload)}`,
      );
      const gzip = await service.app.inject({
        url: '/v1/exchangerate/all',
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);
    });

    test('trailing slashes and the short aliases serve the same', async () => {
      const full = await service.app.inject('/v1/exchangerate/currencies');
      for (const url of ['/v1/exchangerate/currencies/', '/v1/currencies', '/v1/currencies/']) {
        const response = await service.app.inject(url);
        assert.equal(response.statusCode, 200, url);
        assert.equal(response.body, full.body, url);
      }
      const sources = await service.app.inject('/v1/sources/');
      assert.equal(sources.body, (await service.app.inject('/v1/exchangerate/sources')).body);
      const date = await service.app.inject('/v1/exchangerate/2024-03-10/');
      assert.equal(date.statusCode, 200);
    });

    test('OpenAPI 3.1 document lists every endpoint; / points to it', async () => {
      const { status, body } = await getJson(service.app, '/v1/openapi.json');
      assert.equal(status, 200);
      assert.equal(body.openapi, '3.1.0');
      for (const path of [
        '/v1/exchangerate/latest',
        '/v1/exchangerate/all',
        '/v1/exchangerate/{date}',
        '/v1/exchangerate/{start_date}/{end_date}',
        '/v1/exchangerate/currencies',
        '/v1/exchangerate/sources',
        '/v1/currencies',
        '/v1/sources',
        '/v1/exchangerate/query',
      ]) {
        assert.ok(body.paths[path]?.get, path);
      }
      const parameters = body.paths['/v1/exchangerate/{start_date}/{end_date}'].get.parameters.map(
        (p: any) => p.name,
      );
      for (const name of [
        'base',
        'symbols',
        'sources',
        'aggregation',
        'show_query',
        'decimals',
        'start_date',
      ])
        assert.ok(parameters.includes(name), name);
      const index = await getJson(service.app, '/');
      assert.equal(index.body.openapi, '/v1/openapi.json');
    });
  });
});

/** The window size (WBITS) a brotli stream declares in its first bits (RFC 7932, 9.1). */
function brotliWindowBits(stream: Buffer): number {
  let bit = 0;
  const read = (count: number): number => {
    let value = 0;
    for (let i = 0; i < count; i++, bit++) value |= ((stream[bit >> 3]! >> (bit & 7)) & 1) << i;
    return value;
  };
  if (read(1) === 0) return 16;
  const n = read(3);
  if (n !== 0) return 17 + n;
  const m = read(3);
  return m === 0 ? 17 : 8 + m;
}
