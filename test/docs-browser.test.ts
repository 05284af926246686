import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startService, type TestService } from './support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `no browser at ${CHROMIUM} (Debian's chromium package; .ci/run installs it)`;

describe('the API reference in a browser', { skip }, () => {
  let service: TestService;
  let browser: Browser;
  let baseUrl: string;
  before(async () => {
    service = await startService();
    baseUrl = await service.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  test('/docs lists every operation of the document, asking no other host', async () => {
    const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { operationId: string; summary: string } }>;
    };
    const operations = Object.entries(document.paths).map(([path, item]) => ({
      path,
      ...item.get,
    }));
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === baseUrl || url.protocol === 'data:') return route.continue();
      elsewhere.push(url.href);
      return route.abort();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    const shown = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => ({
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        text: block.textContent ?? '',
      })),
    );
    assert.deepEqual(
      shown.map((block) => block.path).sort(),
      operations.map((operation) => operation.path).sort(),
    );
    for (const operation of operations) {
      const block = shown.find((candidate) => candidate.path === operation.path)!;
      assert.ok(block.text.includes(operation.summary), operation.path);
      assert.ok(block.text.includes(operation.operationId), operation.path);
    }
    assert.match(await page.locator('.info .title').innerText(), /fxrates/);
    assert.deepEqual(elsewhere, []);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
