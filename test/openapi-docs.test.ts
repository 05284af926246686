import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { lintOpenApi, servedOpenApiDocument } from '../scripts/lint-openapi.js';
import { getJson, startService, type TestService } from './support/harness.js';

type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: { name: string; in: string }[];
  responses: Record<
    string,
    { content?: Record<string, { schema: any }>; headers?: Record<string, unknown> }
  >;
};

describe('the OpenAPI document and the API reference at /docs', () => {
  let service: TestService;
  let document: any;
  const operations = (): [string, Operation][] =>
    Object.entries(document.paths as Record<string, { get: Operation }>).map(([path, item]) => [
      path,
      item.get,
    ]);
  before(async () => {
    service = await startService();
    document = (await getJson(service.app, '/v1/openapi.json')).body;
  });
  after(() => service.close());

  test('the served document passes redocly lint with the recommended rules, warnings included', async () => {
    const result = lintOpenApi(await servedOpenApiDocument());
    assert.deepEqual(result.problems, []);
    // The linter does look: a document without a license and an operationId is refused.
    const broken = structuredClone(document);
    delete broken.info.license;
    delete broken.paths['/v1/exchangerate/status'].get.operationId;
    const refused = lintOpenApi(JSON.stringify(broken));
    assert.equal(refused.problems.length, 2, refused.report);
    assert.match(refused.report, /info-license/);
    assert.match(refused.report, /operation-operationId/);
  });

  test('every operation has a unique operationId, a summary, a 2xx and a 4xx answer', () => {
    const listed = operations();
    assert.deepEqual(listed.map(([path]) => path).sort(), [
      '/v1/currencies',
      '/v1/exchangerate/all',
      '/v1/exchangerate/currencies',
      '/v1/exchangerate/latest',
      '/v1/exchangerate/query',
      '/v1/exchangerate/sources',
      '/v1/exchangerate/status',
      '/v1/exchangerate/{date}',
      '/v1/exchangerate/{start_date}/{end_date}',
      '/v1/openapi.json',
      '/v1/sources',
    ]);
    const ids = listed.map(([, operation]) => operation.operationId);
    assert.equal(new Set(ids).size, listed.length);
    for (const [path, operation] of listed) {
      assert.ok(operation.operationId && operation.summary, path);
      assert.ok(operation.responses['200'], path);
      assert.ok(
        Object.keys(operation.responses).some((status) => /^4\d\d$/.test(status)),
        path,
      );
      // Every endpoint answers 503 while the service shuts down or its database is away.
      assert.ok(operation.responses['503']?.headers?.['Retry-After'], path);
    }
    assert.deepEqual(document.info.license, { name: 'MIT', identifier: 'MIT' });
    assert.deepEqual(
      document.servers.map((server: { url: string }) => server.url),
      ['/'],
    );
  });

  test('media types where they are served, the headers clients read, typed entries', () => {
    const byPath = Object.fromEntries(operations());
    const media = (path: string) => Object.keys(byPath[path]!.responses['200']!.content ?? {});
    for (const path of [
      '/v1/exchangerate/latest',
      '/v1/exchangerate/{date}',
      '/v1/exchangerate/{start_date}/{end_date}',
      '/v1/exchangerate/all',
      '/v1/exchangerate/query',
    ])
      assert.deepEqual(media(path), ['application/json', 'text/csv', 'application/xml'], path);
    for (const path of ['/v1/exchangerate/currencies', '/v1/sources', '/v1/exchangerate/status'])
      assert.deepEqual(media(path), ['application/json', 'text/csv'], path);

    const date = byPath['/v1/exchangerate/{date}']!;
    assert.deepEqual(Object.keys(date.responses['200']!.headers ?? {}), [
      'ETag',
      'Cache-Control',
      'X-Error',
      'X-Query',
    ]);
    assert.match(
      (date.responses['200']!.headers!['Cache-Control'] as { description: string }).description,
      /max-age=86400 when the answer cannot change any more/,
    );
    assert.deepEqual(Object.keys(byPath['/v1/openapi.json']!.responses['200']!.headers ?? {}), [
      'ETag',
      'Cache-Control',
    ]);
    assert.deepEqual(Object.keys(date.responses).sort(), [
      '200',
      '304',
      '400',
      '404',
      '431',
      '503',
    ]);
    assert.ok(date.parameters?.some((p) => p.name === 'amount' && p.in === 'query'));
    const entry =
      date.responses['200']!.content!['application/json']!.schema.properties.rates
        .additionalProperties.anyOf[0];
    assert.deepEqual(Object.keys(entry.properties), ['rate', 'observation_time', 'source']);
    assert.equal(entry.properties.rate.type, 'number');

    const range = byPath['/v1/exchangerate/{start_date}/{end_date}']!;
    const rangeRates =
      range.responses['200']!.content!['application/json']!.schema.properties.rates;
    assert.equal(rangeRates.additionalProperties.additionalProperties.anyOf.length, 2);

    const currencies =
      byPath['/v1/exchangerate/currencies']!.responses['200']!.content!['application/json']!.schema;
    assert.deepEqual(Object.keys(currencies.properties.symbols.additionalProperties.properties), [
      'name',
      'sources',
    ]);
    const query = byPath['/v1/exchangerate/query']!;
    assert.deepEqual(Object.keys(query.responses).sort(), ['200', '304', '400', '431', '503']);
    assert.ok(query.responses['200']!.content!['application/json']!.schema.properties.rows);
  });

  test('/docs is an HTML page whose scripts and styles all come from this service', async () => {
    const page = await service.app.inject({ url: '/docs', headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /<title>fxrates API reference<\/title>/);
    const references = [...page.body.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    assert.deepEqual(references, [
      'data:,',
      '/docs/swagger-ui.css',
      '/v1/openapi.json',
      '/docs/swagger-ui-bundle.js',
      '/docs/reference.js',
    ]);
    const types: Record<string, RegExp> = {
      '/docs/swagger-ui.css': /^text\/css/,
      '/docs/swagger-ui-bundle.js': /^text\/javascript/,
      '/docs/reference.js': /^text\/javascript/,
    };
    for (const [url, type] of Object.entries(types)) {
      const asset = await service.app.inject(url);
      assert.equal(asset.statusCode, 200, url);
      assert.match(String(asset.headers['content-type']), type, url);
      assert.equal(asset.headers['cache-control'], 'public, max-age=86400', url);
      assert.doesNotMatch(asset.body, /sourceMappingURL|@import\s+url\(/, url);
    }
    const start = (await service.app.inject('/docs/reference.js')).body;
    assert.match(start, /url: '\/v1\/openapi\.json'/);
    assert.match(start, /validatorUrl: null/);
    const bundle = await service.app.inject('/docs/swagger-ui-bundle.js');
    assert.match(bundle.body, /SwaggerUIBundle/);
    assert.ok(bundle.body.length > 500_000);
  });
});
