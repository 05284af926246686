import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { observation, startService, type TestService } from './support/harness.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET on the socket with exactly the headers given, the body decoded as the client would. */
function get(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const body =
          encoding === 'br'
            ? brotliDecompressSync(raw)
            : encoding === 'gzip'
              ? gunzipSync(raw)
              : raw;
        resolve({ status: response.statusCode!, headers: response.headers, body: body.toString() });
      });
    })
      .on('error', reject)
      .end();
  });
}

/** Headers that say what the answer is, not how this one response was framed. */
function meaningful(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const rest = { ...headers };
  for (const name of ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])
    delete rest[name];
  return rest;
}

describe('a repeated one-date request, answered from the cache at the socket', () => {
  let service: TestService;
  let baseUrl: string;
  // Enough symbols for a body over the compression threshold.
  const symbols = [
    'USD',
    'JPY',
    'GBP',
    'CHF',
    'SEK',
    'NOK',
    'DKK',
    'CAD',
    'AUD',
    'NZD',
    'CNY',
    'HKD',
    'SGD',
    'KRW',
    'INR',
    'BRL',
  ];
  before(async () => {
    service = await startService();
    await service.store.writeObservations(
      symbols.map((symbol, index) =>
        observation('ecb', symbol, '2024-03-15T15:00:00Z', 1 + index / 8),
      ),
    );
    baseUrl = await service.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => service.close());

  for (const encoding of [undefined, 'gzip', 'br', 'gzip, deflate, br']) {
    test(`the same status, headers and body as the first answer (Accept-Encoding: ${encoding ?? 'none'})`, async () => {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      const path = `/v1/exchangerate/2024-03-15?sources=ecb&base=EUR&x=${encodeURIComponent(encoding ?? '')}`;
      const first = await get(baseUrl, path, headers);
      const again = await get(baseUrl, path, headers);
      assert.equal(first.status, 200);
      assert.equal(again.status, 200);
      assert.equal(again.body, first.body);
      assert.deepEqual(meaningful(again.headers), meaningful(first.headers));
      assert.equal(again.headers['content-encoding'], first.headers['content-encoding']);
      if (encoding) assert.ok(first.headers['content-encoding'], 'compressed');
      assert.equal(JSON.parse(again.body).rates.USD.rate, 1 + symbols.indexOf('USD') / 8);
    });
  }

  test('every spelling of one request has one ETag; a matching If-None-Match gets 304', async () => {
    const plain = await get(baseUrl, '/v1/exchangerate/2024-03-15?sources=ECB,IMF&base=EUR');
    const spelt = await get(baseUrl, '/v1/exchangerate/2024-03-15?base=eur&sources=ecb,imf');
    assert.equal(spelt.headers.etag, plain.headers.etag);
    for (let i = 0; i < 2; i++) {
      const unchanged = await get(baseUrl, '/v1/exchangerate/2024-03-15?sources=ECB,IMF&base=EUR', {
        'if-none-match': String(plain.headers.etag),
      });
      assert.equal(unchanged.status, 304);
      assert.equal(unchanged.body, '');
      assert.equal(unchanged.headers.etag, plain.headers.etag);
      assert.equal(unchanged.headers['access-control-allow-origin'], '*');
    }
  });

  test('a write is seen at once: the cached answer is never served after the data changed', async () => {
    const path = '/v1/exchangerate/2024-03-15?symbols=USD&base=EUR';
    await get(baseUrl, path);
    const before = await get(baseUrl, path);
    await service.store.writeObservations([
      observation('ecb', 'USD', '2024-03-15T15:00:00Z', 1.0875),
    ]);
    const after = await get(baseUrl, path);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.equal(JSON.parse(after.body).rates.USD.rate, 1.0875);
  });
});
