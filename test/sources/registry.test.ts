import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isCalendarDate, timeZoneOffsetMs } from '../../src/dates.js';
import { isCurrencyCode } from '../../src/sources/currencies.js';
import * as registered from '../../src/sources/index.js';
import { idleReason } from '../../src/sources/publisher.js';
import {
  ALL_ENDPOINT_SOURCE_ORDER,
  EVERY_SOURCE,
  DEFAULT_SOURCE_ORDER,
  SOURCES,
  defaultPrecedence,
  findSource,
} from '../../src/sources/registry.js';
import {
  REPO_ROOT,
  getJson,
  observation,
  skipWithoutFixtures,
  startService,
} from '../support/harness.js';
import { RECORDED } from '../support/replay-server.js';
import { README, sourcesTable, tableInReadme } from '../../scripts/sources-table.js';

/**
 * Publishers with a recording in ../shared/fixtures/recorded but no module yet. Temporary: each
 * key leaves this set in the change that adds `src/sources/<key>.ts` and its test, and a key
 * that has a test file while still listed here fails below, so the set can only shrink.
 */
const PENDING_RECORDINGS = new Set<string>([]);

/** Modules and tests are named by the key in kebab case: float_rates is float-rates.ts. */
const fileName = (key: string): string => key.replaceAll('_', '-');
const TESTS = join(REPO_ROOT, 'test', 'sources');

/** The twelve sources of CONTRACT §2 in SPEC.md's default order, with their relative currency and is_dst. */
const CONTRACT_SOURCES: [string, string, boolean][] = [
  ['imf', 'USD', true],
  ['ecb', 'EUR', true],
  ['boe', 'GBP', true],
  ['rba', 'AUD', true],
  ['snb', 'CHF', true],
  ['bnro', 'RON', true],
  ['boi', 'ILS', true],
  ['nbu', 'UAH', true],
  ['cbr', 'RUB', false],
  ['bcb', 'BRL', false],
  ['cbn', 'NGN', false],
  ['float_rates', 'USD', false],
];

describe('publisher registry', () => {
  test("the contract's twelve sources come first in SPEC.md's order, then every other by key", () => {
    assert.deepEqual(
      SOURCES.slice(0, 12).map((s) => [s.key, s.relativeCurrency, s.isDst]),
      CONTRACT_SOURCES,
    );
    const rest = SOURCES.slice(12).map((s) => s.key);
    assert.deepEqual(rest, [...rest].sort());
    assert.deepEqual(
      SOURCES.map((s) => defaultPrecedence(s.key)),
      SOURCES.map((_, index) => index),
    );
    assert.equal(defaultPrecedence('bac'), -1);
    // Requests that name no sources use SPEC.md's lists exactly; the other publishers answer
    // when named (or with sources=*). `rab` is rba; bac and gaf have no known publisher yet.
    assert.deepEqual(
      DEFAULT_SOURCE_ORDER,
      CONTRACT_SOURCES.map(([key]) => key),
    );
    assert.deepEqual(ALL_ENDPOINT_SOURCE_ORDER, [
      ...['imf', 'rba', 'ecb', 'bnro', 'snb', 'cbr', 'nbu', 'boi', 'cbn', 'boe', 'bcb'],
      'float_rates',
    ]);
    assert.deepEqual(
      EVERY_SOURCE,
      SOURCES.map((s) => s.key),
    );
  });

  test('every module is registered under its own key, in its own file, with a test file', async () => {
    const entries = Object.entries(registered);
    assert.equal(entries.length, SOURCES.length);
    assert.equal(new Set(SOURCES.map((s) => s.key)).size, SOURCES.length, 'keys are unique');
    for (const [exported, publisher] of entries) {
      assert.equal(exported, publisher.key, `index line for ${publisher.key}`);
      assert.match(publisher.key, /^[a-z][a-z0-9_]*$/);
      assert.equal(findSource(publisher.key.toUpperCase()), publisher);
      const module = (await import(`../../src/sources/${fileName(publisher.key)}.js`)) as {
        publisher?: unknown;
      };
      assert.equal(module.publisher, publisher, `src/sources/${fileName(publisher.key)}.ts`);
      assert.ok(
        existsSync(join(TESTS, `${fileName(publisher.key)}.test.ts`)),
        `test/sources/${fileName(publisher.key)}.test.ts is missing`,
      );
    }
  });

  test("every publisher's metadata is complete and consistent", () => {
    const regions = new Intl.DisplayNames(['en'], { type: 'region' });
    const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;
    for (const p of SOURCES) {
      const what = (field: string) => `${p.key}.${field}`;
      assert.ok(p.name.trim().length > 0, what('name'));
      assert.ok(p.fetches.trim().length > 0, what('fetches'));
      assert.match(new URL(p.url).protocol, /^https:$/, what('url'));
      assert.ok(
        /^[A-Z]{3}$/.test(p.relativeCurrency) && isCurrencyCode(p.relativeCurrency),
        what('relativeCurrency'),
      );
      if (p.countryCode !== null) {
        assert.match(p.countryCode, /^[A-Z]{2}$/, what('countryCode'));
        assert.notEqual(regions.of(p.countryCode), p.countryCode, what('countryCode'));
      }
      assert.doesNotThrow(
        () => new Intl.DateTimeFormat('en', { timeZone: p.timeZone }),
        what('timeZone'),
      );
      // is_dst: the UTC time of the fixing moves during the year (CONTRACT §1).
      // (in 2025: Kazakhstan changed its standard time in 2024, which is no daylight saving)
      const january = timeZoneOffsetMs(Date.UTC(2025, 0, 15, 12), p.timeZone);
      const july = timeZoneOffsetMs(Date.UTC(2025, 6, 15, 12), p.timeZone);
      assert.equal(january !== july, p.isDst, what('isDst'));
      assert.match(p.fixingTime, hhmm, what('fixingTime'));
      assert.ok(isCalendarDate(p.historyStart), what('historyStart'));
      const window = p.publishWindowUtc;
      assert.ok(hhmm.test(window.from) && hhmm.test(window.to), what('publishWindowUtc'));
      assert.ok(window.from <= window.to, what('publishWindowUtc'));
      assert.equal(typeof window.weekdaysOnly, 'boolean', what('publishWindowUtc'));
      assert.equal(typeof p.fetch, 'function', what('fetch'));
      const variables = p.apiKey?.variables ?? [];
      if (p.apiKey) assert.ok(variables.length > 0, what('apiKey'));
      for (const name of variables) {
        assert.match(name, /^[A-Z][A-Z0-9_]*$/, what('apiKey'));
        assert.match(idleReason(p, {}) ?? '', new RegExp(`set .*\\b${name}\\b`), what('apiKey'));
      }
      if (variables.length === 0) assert.equal(idleReason(p, {}), undefined, what('apiKey'));
    }
  });
});

describe('what the service derives from the registry', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  before(async () => {
    service = await startService();
    // Both quote JPY and USD on the day; which one answers shows the priority order used.
    await service.store.writeObservations([
      observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
      observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 162.85),
      observation('rba', 'USD', '2024-03-19T05:00:00Z', 0.6539),
      observation('rba', 'JPY', '2024-03-19T05:00:00Z', 98.03),
    ]);
  });
  after(() => service?.close());

  test('sources=* is every registered source in default_precedence order, on every endpoint', async () => {
    const all = (sources: string) =>
      getJson(service.app, `/v1/exchangerate/all?symbols=JPY${sources}`).then(
        ({ body }) => body.rates['2024-03-19'].JPY.source,
      );
    // The all endpoint's own default puts rba before ecb (SPEC.md); precedence puts ecb first.
    assert.equal(await all(''), 'rba');
    assert.equal(await all('&sources=*'), 'ecb');
    const listed = await getJson(service.app, '/v1/sources?sources=*');
    assert.deepEqual(
      Object.keys(listed.body.currencies),
      SOURCES.map((s) => s.key),
    );
  });

  test('the OpenAPI document gives the default source lists of the registry', async () => {
    const { body } = await getJson(service.app, '/v1/openapi.json');
    const texts = JSON.stringify(body);
    assert.ok(texts.includes(`latest, date and range: ${DEFAULT_SOURCE_ORDER.join(',')};`));
    assert.ok(texts.includes(`for all: ${ALL_ENDPOINT_SOURCE_ORDER.join(',')}.`));
  });
});

/** A Markdown table's cells, row by row, whatever its padding and alignment row. */
function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.trim().startsWith('|') && !/^\s*\|[\s:|-]+\|\s*$/.test(line))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((field) => field.trim()),
    );
}

describe('docs written from the modules', () => {
  test('the README table of sources is current (npm run docs:sources writes it)', () => {
    const table = tableInReadme(readFileSync(README, 'utf8'));
    assert.deepEqual(
      tableCells(table),
      tableCells(sourcesTable()),
      'README.md is stale: run npm run docs:sources',
    );
    assert.equal(tableCells(table).length, SOURCES.length + 1);
  });
});

describe('recordings and publisher tests', { skip: skipWithoutFixtures(RECORDED) }, () => {
  test('every recording is read by exactly one publisher test; pending ones are listed', () => {
    const recordings = readdirSync(RECORDED).filter((file) => /\.(yml|json)$/.test(file));
    const testFiles = readdirSync(TESTS).filter((file) => file.endsWith('.test.ts'));
    const texts = new Map(testFiles.map((file) => [file, readFileSync(join(TESTS, file), 'utf8')]));
    const pendingKeyOf = (file: string) =>
      [...PENDING_RECORDINGS].find(
        (key) => file.startsWith(`${key}.`) || file.startsWith(`${key}_`),
      );
    const problems: string[] = [];
    for (const recording of recordings) {
      const quoted = new RegExp(`['"\`]${recording.replaceAll('.', '\\.')}['"\`]`);
      const readers = testFiles.filter((file) => quoted.test(texts.get(file)!));
      const pending = pendingKeyOf(recording);
      if (readers.length > 1) {
        problems.push(`${recording} is read by several tests: ${readers.join(', ')}`);
      } else if (readers.length === 1 && pending) {
        problems.push(
          `${recording} is read by ${readers[0]}: take '${pending}' out of PENDING_RECORDINGS`,
        );
      } else if (readers.length === 0 && !pending) {
        problems.push(
          `${recording} has no publisher: write src/sources/<key>.ts and test/sources/<key>.test.ts reading it`,
        );
      }
    }
    for (const key of PENDING_RECORDINGS) {
      if (!recordings.some((file) => pendingKeyOf(file) === key)) {
        problems.push(`PENDING_RECORDINGS lists '${key}', which has no recording`);
      }
      if (findSource(key) || texts.has(`${fileName(key)}.test.ts`)) {
        problems.push(`'${key}' has its module or test now: take it out of PENDING_RECORDINGS`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
