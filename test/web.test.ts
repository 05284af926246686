import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadWebPage, type WebPage } from '../src/routes/web.js';
import type { Observation } from '../src/store/store.js';
import { REPO_ROOT, observation, startService, type TestService } from './support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');
const skipWithoutChromium = existsSync(CHROMIUM)
  ? false
  : `no browser at ${CHROMIUM} (Debian's chromium package; .ci/run installs it)`;

const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (days: number): string =>
  new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/** Two years of daily euro rates with some movement, and a stale krone from the Bank of England. */
function observations(): Observation[] {
  const rows: Observation[] = [];
  const symbols = { USD: 1.08, GBP: 0.86, JPY: 158.3, CHF: 0.95 };
  for (let day = 730; day >= 0; day -= 1) {
    for (const [index, [symbol, level]] of Object.entries(symbols).entries()) {
      const wave = 1 + 0.04 * Math.sin(day / (40 + index * 17)) + 0.0001 * ((day * 7) % 13);
      rows.push(
        observation('ecb', symbol, `${daysAgo(day)}T15:00:00Z`, Number((level * wave).toFixed(6))),
      );
    }
  }
  rows.push(observation('boe', 'USD', `${daysAgo(2)}T15:00:00Z`, 1.2712));
  rows.push(observation('boe', 'NOK', `${daysAgo(2)}T15:00:00Z`, 13.4405));
  return rows;
}

/** Builds the page from the sources into a folder of the test's own. */
function buildPage(): { web: WebPage; dispose: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'fxrates-web-'));
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-web.mjs'), folder], {
    stdio: 'pipe',
  });
  const web = loadWebPage([folder]);
  assert.ok(web, 'the build wrote index.html');
  return { web, dispose: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The exact product of two decimal texts, written independently of the page's arithmetic. */
function exactProduct(left: string, right: string): string {
  const parse = (text: string): [bigint, number] => {
    const [integer = '', fraction = ''] = text.split('.');
    return [BigInt(integer + fraction), fraction.length];
  };
  const [a, aScale] = parse(left);
  const [b, bScale] = parse(right);
  const scale = aScale + bScale;
  const digits = (a * b).toString().padStart(scale + 1, '0');
  const integer = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${integer}.${fraction}` : integer;
}

describe('web page: HTTP', () => {
  let service: TestService;
  let built: ReturnType<typeof buildPage>;
  before(async () => {
    built = buildPage();
    service = await startService({ web: built.web });
  });
  after(async () => {
    await service.close();
    built.dispose();
  });

  test('a browser gets the page at /, with a short cache; anything else gets the JSON index', async () => {
    const page = await service.app.inject({
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.equal(page.headers['cache-control'], 'public, max-age=60');
    assert.match(page.headers.vary as string, /^accept, accept-encoding$/);
    assert.match(page.headers['content-security-policy'] as string, /default-src 'self'/);
    assert.match(page.body, /<title>fxrates/);
    for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0.5, */*']) {
      const index = await service.app.inject({
        url: '/',
        headers: accept ? { accept } : {},
      });
      assert.match(index.headers['content-type'] as string, /^application\/json/, String(accept));
      assert.match(index.headers.vary as string, /^accept, accept-encoding$/);
      assert.equal(JSON.parse(index.body).openapi, '/v1/openapi.json');
    }
  });

  test('the assets the page names are served by hashed name, cached for a year; others are 404', async () => {
    const html = (await service.app.inject({ url: '/', headers: { accept: 'text/html' } })).body;
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(assets.length, 2);
    for (const url of assets) {
      assert.match(url, /\/assets\/app-[A-Za-z0-9]{12}\.(js|css)$/);
      const asset = await service.app.inject({ url });
      assert.equal(asset.statusCode, 200, url);
      assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
      const again = await service.app.inject({
        url,
        headers: { 'if-none-match': asset.headers.etag as string },
      });
      assert.equal(again.statusCode, 304);
    }
    assert.equal(
      (await service.app.inject({ url: '/assets/app-000000000000.js' })).statusCode,
      404,
    );
    assert.equal((await service.app.inject({ url: '/assets/..%2Fpackage.json' })).statusCode, 404);
  });
});

describe('web page in a browser', { skip: skipWithoutChromium }, () => {
  let service: TestService;
  let built: ReturnType<typeof buildPage>;
  let browser: Browser;
  let origin: string;

  before(async () => {
    built = buildPage();
    service = await startService({ web: built.web, today: () => today });
    await service.store.writeObservations(observations());
    const attempt = new Date(Date.now() - 60_000);
    await service.store.saveIngestState({
      source: 'ecb',
      lastAttempt: attempt,
      lastSuccess: attempt,
      lastError: null,
      completeThrough: today,
      lastRunStored: 4,
      lastRunDropped: 0,
    });
    await service.store.saveIngestState({
      source: 'boe',
      lastAttempt: attempt,
      lastSuccess: new Date(Date.parse(`${daysAgo(2)}T16:00:00Z`)),
      lastError: 'publisher answered 503 Service Unavailable',
      completeThrough: daysAgo(2),
      lastRunStored: 0,
      lastRunDropped: 0,
    });
    origin = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    built?.dispose();
  });

  /** Opens the page and waits until every section has answered; records what it did. */
  async function open(width = 1280): Promise<{
    page: Page;
    requests: string[];
    errors: string[];
  }> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready="true"]');
    return { page, requests, errors };
  }

  async function apiText(path: string): Promise<string> {
    const response = await fetch(`${origin}${path}`);
    assert.equal(response.status, 200, path);
    return response.text();
  }

  /** A rate exactly as the API wrote it. */
  async function apiRate(base: string, symbol: string, extra = ''): Promise<string> {
    const text = await apiText(
      `/v1/exchangerate/latest?base=${base}&symbols=${symbol}&pretty_print=false${extra}`,
    );
    const match = new RegExp(`"${symbol}":\\{"rate":([0-9.eE+-]+),`).exec(text);
    assert.ok(match, text);
    return match[1]!;
  }

  test('the page loads with every request to its own host and no console error', async () => {
    const { page, requests, errors } = await open();
    assert.deepEqual(errors, []);
    assert.ok(requests.length > 5);
    const foreign = requests.filter(
      (url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'),
    );
    assert.deepEqual(foreign, []);
    assert.equal(await page.title(), 'fxrates · official exchange rates');
    for (const label of ['Amount', 'From', 'To', 'Date', 'Base currency']) {
      assert.ok(await page.getByLabel(label, { exact: true }).first().isVisible(), label);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'web-desktop.png'), fullPage: true });
    await page.close();
  });

  test('a conversion shows the rate the API gives, the amount times it, its source and time', async () => {
    const { page } = await open();
    await page.getByLabel('Amount').fill('250.5');
    await page.getByLabel('From', { exact: true }).first().selectOption('EUR');
    await page.getByLabel('To', { exact: true }).first().selectOption('JPY');
    await page.getByRole('button', { name: 'Convert' }).click();
    const rate = await apiRate('EUR', 'JPY');
    const result = page.locator('#convert-result');
    await result.getByText(`1 EUR = ${rate} JPY`).waitFor();
    const text = await result.innerText();
    assert.match(
      text,
      new RegExp(`Exactly ${exactProduct('250.5', rate).replace('.', '\\.')} JPY`),
    );
    assert.match(text, new RegExp(`Source ecb .*observed ${today} 15:00 UTC`));
    const shown = Number((await result.locator('.value').innerText()).replace(/[^0-9.]/g, ''));
    assert.ok(Math.abs(shown - 250.5 * Number(rate)) < 0.01, `${shown}`);

    await page.getByRole('button', { name: 'Swap the two currencies' }).click();
    await result.getByText(`1 JPY = ${await apiRate('JPY', 'EUR')} EUR`).waitFor();

    await page.getByLabel('Amount').fill('ten');
    await page.getByRole('button', { name: 'Convert' }).click();
    await result.getByText('Enter a positive amount').waitFor();
    await page.close();
  });

  test('the rates table lists each currency with its name, and marks carried-forward rates', async () => {
    const { page } = await open();
    const rows = page.locator('#rates-table tbody tr');
    await rows.first().waitFor();
    const codes = await rows.evaluateAll((trs) => trs.map((tr) => (tr as any).dataset.code));
    const latest = JSON.parse(await apiText('/v1/exchangerate/latest'));
    assert.deepEqual(codes, Object.keys(latest.rates).sort());
    const currencies = JSON.parse(await apiText('/v1/exchangerate/currencies')).symbols;
    const eur = page.locator('#rates-table tr[data-code="EUR"]');
    assert.match(await eur.locator('.name').innerText(), new RegExp(currencies.EUR.name ?? 'Euro'));
    for (const code of codes) {
      const name = await page.locator(`#rates-table tr[data-code="${code}"] .name`).innerText();
      assert.ok(name.length > 3, `${code} has a name`);
    }
    assert.equal(latest.rates.NOK.source, 'boe');
    assert.equal(await page.locator('tr[data-code="NOK"] .badge.carried').count(), 1);
    assert.equal(await eur.locator('.badge.carried').count(), 0);
    await page.getByLabel('Filter').fill('yen');
    assert.deepEqual(
      await rows.evaluateAll((trs) =>
        trs.filter((tr) => !(tr as any).hidden).map((tr) => (tr as any).dataset.code),
      ),
      ['JPY'],
    );
    await page.getByLabel('Filter').fill('zzz');
    await page.locator('#latest-message').getByText('No currency matches “zzz”.').waitFor();
    await page.getByLabel('Filter').fill('');
    await page.locator('#latest-message').waitFor({ state: 'hidden' });
    await page.close();
  });

  test('the chart draws the pair, shows date, rate and source on hover, and redraws for another pair', async () => {
    const { page } = await open();
    const canvas = page.locator('#chart canvas');
    await canvas.waitFor();
    const inkedPixels = (): Promise<number> =>
      canvas.evaluate((node) => {
        const c = node as any;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let inked = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) inked += 1;
        return inked;
      });
    assert.ok((await inkedPixels()) > 1000, 'the line is drawn');
    const before = await canvas.evaluate((node) => (node as any).toDataURL());
    assert.match(await page.locator('#chart-caption').innerText(), /1 EUR in USD/);

    const box = (await page.locator('#chart .u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tooltip = page.locator('.chart-tooltip');
    await tooltip.waitFor();
    assert.match(await tooltip.innerText(), /\d{4}-\d{2}-\d{2}\s+[0-9.]+\s+source ecb/);
    await page.locator('#history').screenshot({ path: join(ARTIFACTS, 'web-chart-hover.png') });

    await page.locator('#chart-to').selectOption('GBP');
    await page.locator('#chart-caption').getByText('1 EUR in GBP').waitFor();
    const after = await canvas.evaluate((node) => (node as any).toDataURL());
    assert.notEqual(after, before);
    // The newest point is today's rate, as the API writes it.
    const newest = await apiRate('EUR', 'GBP');
    assert.ok(
      (await page.locator('#chart-caption').innerText()).endsWith(`to ${newest}.`),
      await page.locator('#chart-caption').innerText(),
    );

    await page.locator('#chart').focus();
    await page.keyboard.press('End');
    assert.equal(await page.locator('#chart-readout').innerText(), `${today} · ${newest} · ecb`);
    await page.keyboard.press('ArrowLeft');
    assert.match(await page.locator('#chart-readout').innerText(), new RegExp(`^${daysAgo(1)} · `));

    await page.getByText('Max', { exact: true }).click();
    await page.locator('#chart-caption').getByText('first rate of each month').waitFor();
    const months = new Set(
      observations()
        .filter((row) => row.source === 'ecb')
        .map((row) => row.observationTime.toISOString().slice(0, 7)),
    );
    assert.equal(await page.locator('#chart').getAttribute('data-points'), String(months.size));
    await page.close();
  });

  test('the publishers table shows a failing source with its error', async () => {
    const { page } = await open();
    const boe = page.locator('#status-table tr[data-source="boe"]');
    await boe.waitFor();
    assert.equal(await boe.locator('.badge').innerText(), 'failing');
    assert.match(await boe.innerText(), /publisher answered 503 Service Unavailable/);
    assert.match(await boe.innerText(), new RegExp(`${daysAgo(2)} to ${daysAgo(2)}`));
    const ecb = page.locator('#status-table tr[data-source="ecb"]');
    assert.equal(await ecb.locator('.badge').innerText(), 'ok');
    const stored = observations().filter((row) => row.source === 'ecb').length;
    assert.match(await ecb.innerText(), new RegExp(stored.toLocaleString('en')));
    await page.close();
  });

  test('the converter works from the keyboard alone', async () => {
    const { page } = await open();
    const focused = (): Promise<string> =>
      page.evaluate(() => (globalThis as any).document.activeElement?.id ?? '');
    const tabTo = async (id: string): Promise<void> => {
      for (let i = 0; i < 40 && (await focused()) !== id; i += 1) await page.keyboard.press('Tab');
      assert.equal(await focused(), id);
    };
    await tabTo('amount');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('1000');
    await tabTo('from');
    await page.keyboard.type('GBP');
    await tabTo('swap');
    await page.keyboard.press('Space');
    await tabTo('convert');
    await page.keyboard.press('Enter');
    const rate = await apiRate('USD', 'GBP');
    const result = page.locator('#convert-result');
    await result.getByText(`1 USD = ${rate} GBP`).waitFor();
    // A cross rate (GBP and USD both against the euro): the amount times the exact quotient,
    // which no decimal text ends, to 30 decimals.
    const converted = await apiRate('USD', 'GBP', '&amount=1000&decimals=30');
    assert.match(
      await result.innerText(),
      new RegExp(`${converted.replace('.', '\\.')} GBP \\(to 30 decimals\\)`),
    );
    await page.close();
  });

  test('sources can be reordered, and the answers follow the chosen priority', async () => {
    const { page } = await open();
    const gbpSource = page.locator('#rates-table tr[data-code="GBP"] abbr');
    assert.equal(await gbpSource.innerText(), 'ecb');
    await page.locator('#source-picker summary').click();
    await page.getByLabel('Move boe up').click();
    assert.equal(await page.locator(':focus').getAttribute('aria-label'), 'Move boe up');
    await page.keyboard.press('Enter');
    await page.locator('#sources-summary').getByText('your priority: boe, imf, ecb').waitFor();
    await gbpSource.filter({ hasText: /^boe$/ }).waitFor();
    const latest = JSON.parse(
      await apiText('/v1/exchangerate/latest?symbols=GBP&sources=boe,imf,ecb'),
    );
    assert.equal(latest.rates.GBP.source, 'boe');
    // The rate exactly as the API wrote it, not its double read back.
    assert.equal(
      await page.locator('#rates-table tr[data-code="GBP"] .num').innerText(),
      await apiRate('USD', 'GBP', '&sources=boe,imf,ecb'),
    );
    assert.equal(await page.locator('tr[data-code="GBP"] .badge.carried').count(), 1);
    await page.locator('.sources-card').screenshot({ path: join(ARTIFACTS, 'web-sources.png') });
    await page.close();
  });

  test('a large amount through a cross rate is the amount the API converts, not a product of rounded rates', async () => {
    const { page } = await open();
    const result = page.locator('#convert-result');
    await page.getByLabel('Amount').fill('1,000,000,000,000,000');
    await page.getByLabel('From', { exact: true }).first().selectOption('USD');
    await page.getByLabel('To', { exact: true }).first().selectOption('JPY');
    await page.getByRole('button', { name: 'Convert' }).click();
    await result.getByText('1 USD = ').waitFor();
    const converted = await apiRate('USD', 'JPY', '&amount=1000000000000000&decimals=30');
    const text = await result.innerText();
    assert.ok(text.includes(converted), `${converted} in ${text}`);
    const [whole = '', fraction = ''] = converted.split('.');
    const shown = `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${String(
      Math.round(Number(`0.${fraction}`) * 100),
    ).padStart(2, '0')} JPY`;
    assert.equal(await result.locator('.value').innerText(), shown);
    await page.getByLabel('Amount').fill('1'.repeat(31));
    await page.getByRole('button', { name: 'Convert' }).click();
    await result.getByText('Enter an amount of at most 30 digits.').waitFor();
    await page.close();
  });

  test('a date the browser cannot read is said so, never replaced by today', async () => {
    const { page } = await open();
    const result = page.locator('#convert-result');
    await result.getByText('1 EUR = ').waitFor();
    // A field left half typed: one part of the date cleared.
    await page.locator('#convert-date').focus();
    await page.keyboard.press('Backspace');
    assert.equal(
      await page.locator('#convert-date').evaluate((input) => (input as any).validity.badInput),
      true,
    );
    await page.getByRole('button', { name: 'Convert' }).click();
    await result.getByText('Enter a valid date').waitFor();
    assert.equal(await page.locator('#convert-date').getAttribute('aria-invalid'), 'true');
    await page.close();
  });

  test('with no source ticked, the summary names the default priority that is used', async () => {
    const { page } = await open();
    await page.locator('#source-picker summary').click();
    for (const checkbox of await page.locator('#source-list input[type="checkbox"]').all())
      if (await checkbox.isChecked()) await checkbox.uncheck();
    await page
      .locator('#sources-summary')
      .getByText("none ticked: the service's default priority is used (imf, ecb")
      .waitFor();
    await page.close();
  });

  test('an answer that comes late never replaces a later choice', async () => {
    const { page } = await open();
    // Answers about GBP take a second and a half; the JPY ones asked after them come first.
    await page.route(/symbols=GBP|base=GBP/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue().catch(() => undefined);
    });
    await page.locator('#to').selectOption('GBP');
    await page.locator('#base').selectOption('GBP');
    await page.locator('#to').selectOption('JPY');
    await page.locator('#base').selectOption('CHF');
    const result = page.locator('#convert-result');
    await result.getByText(`1 EUR = ${await apiRate('EUR', 'JPY')} JPY`).waitFor();
    await page.locator('#latest-caption').getByText('1 CHF buys').waitFor();
    await page.waitForTimeout(2_000);
    assert.match(await result.innerText(), /1 EUR = [0-9.]+ JPY/);
    assert.match(await page.locator('#latest-caption').innerText(), /1 CHF buys/);
    await page.close();
  });

  test('a currency converts to itself at 1', async () => {
    const { page } = await open();
    await page.locator('#amount').fill('250.5');
    await page.locator('#to').selectOption('EUR');
    const result = page.locator('#convert-result');
    await result.getByText('1 EUR = 1 EUR').waitFor();
    assert.match(await result.innerText(), /250\.5 EUR =\s*250\.5 EUR/);
    await page.close();
  });

  test('a pair the chosen sources do not quote comes back when they quote it again', async () => {
    const { page } = await open();
    await page.locator('#source-picker summary').click();
    await page.locator('#source-ecb').uncheck();
    // Without the ECB no source quotes the euro here: the selects show what is quoted.
    await page.waitForFunction(
      () => (globalThis as any).document.getElementById('from').value !== 'EUR',
    );
    await page.locator('#source-ecb').check();
    await page.waitForFunction(
      () => (globalThis as any).document.getElementById('from').value === 'EUR',
    );
    for (const [id, code] of [
      ['from', 'EUR'],
      ['to', 'USD'],
      ['chart-from', 'EUR'],
      ['chart-to', 'USD'],
      ['base', 'USD'],
    ])
      assert.equal(await page.locator(`#${id}`).inputValue(), code, id);
    await page
      .locator('#convert-result')
      .getByText(`1 EUR = ${await apiRate('EUR', 'USD')} USD`)
      .waitFor();
    await page.close();
  });

  test('the publishers table shows the next attempt when the status endpoint gives it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const next = new Date(Date.now() + 3_600_000).toISOString();
    await page.route('**/v1/exchangerate/status*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      for (const row of body.sources) row.next_attempt = row.source === 'boe' ? next : null;
      await route.fulfill({ response, json: body });
    });
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.locator('#status-table th', { hasText: 'Next attempt' }).waitFor();
    const boe = page.locator('#status-table tr[data-source="boe"] td').last();
    assert.equal(await boe.innerText(), `${next.slice(0, 10)} ${next.slice(11, 16)} UTC`);
    await page.close();
  });

  test('empty and failing answers get a clear message', async () => {
    const { page } = await open(375);
    await page.screenshot({ path: join(ARTIFACTS, 'web-phone.png'), fullPage: true });
    await page.route('**/v1/exchangerate/status*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"status":"error","error":"service unavailable"}',
      }),
    );
    await page.getByRole('button', { name: /Show all \d+ publishers/ }).click();
    await page
      .locator('#status-message')
      .getByText('The service answered 503: service unavailable')
      .waitFor();
    await page.locator('#table-date').fill('1990-01-02');
    await page.locator('#table-date').dispatchEvent('change');
    await page
      .locator('#latest-message')
      .getByText('holds no rates against USD for 1990-01-02')
      .waitFor();
    await page.close();
  });

  test('the whole history follows the priority of the other answers, not that of /all', async () => {
    // The RBA comes before the ECB in /all's default order and after it in the others'.
    const rows = observations();
    for (let day = 60; day >= 0; day -= 1) {
      rows.push(observation('rba', 'EUR', `${daysAgo(day)}T06:00:00Z`, 0.6012));
      rows.push(observation('rba', 'USD', `${daysAgo(day)}T06:00:00Z`, 0.6521));
    }
    const both = await startService({ web: built.web, today: () => today });
    try {
      await both.store.writeObservations(rows);
      const bothOrigin = await both.app.listen({ port: 0, host: '127.0.0.1' });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${bothOrigin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.getByText('Max', { exact: true }).click();
      await page.locator('#chart-caption').getByText('first rate of each month').waitFor();
      await page.locator('#chart').focus();
      await page.keyboard.press('End');
      assert.match(await page.locator('#chart-readout').innerText(), / · ecb$/);
      await page.close();
    } finally {
      await both.close();
    }
  });

  test('data that ends before today, not fetched: the page opens on its newest date', async () => {
    const newest = daysAgo(40);
    const rows = observations().filter(
      (row) => row.observationTime.toISOString().slice(0, 10) <= newest,
    );
    const stale = await startService({ web: built.web, today: () => today });
    try {
      await stale.store.writeObservations(rows);
      const staleOrigin = await stale.app.listen({ port: 0, host: '127.0.0.1' });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${staleOrigin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      assert.equal(await page.locator('#convert-date').inputValue(), newest);
      assert.equal(await page.locator('#table-date').inputValue(), newest);
      await page.locator('#convert-result').getByText('1 EUR = ').waitFor();
      assert.ok((await page.locator('#rates-table tbody tr').count()) > 3);
      // A date with nothing held says that nothing is being fetched.
      await page.locator('#table-date').fill(today);
      await page.locator('#table-date').dispatchEvent('change');
      await page.locator('#latest-message').getByText('It is not fetching new rates').waitFor();
      await page.close();
    } finally {
      await stale.close();
    }
  });

  test('an empty service says so in every section, without errors', async () => {
    const empty = await startService({ web: built.web, today: () => today });
    try {
      const emptyOrigin = await empty.app.listen({ port: 0, host: '127.0.0.1' });
      const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${emptyOrigin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.locator('#convert-result').getByText('No EUR to USD rate is held').waitFor();
      await page.locator('#latest-message').getByText('holds no rates against USD').waitFor();
      await page.locator('#chart-message').getByText('No EUR to USD rates are held').waitFor();
      await page
        .locator('#status-message')
        .getByText('No publisher has been fetched yet')
        .waitFor();
      assert.deepEqual(errors, []);
      await page.screenshot({ path: join(ARTIFACTS, 'web-phone-empty.png'), fullPage: true });
      await page.close();
    } finally {
      await empty.close();
    }
  });
});
