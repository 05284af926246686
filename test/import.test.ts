import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseImport } from '../src/import/import-file.js';
import { openServiceStore } from '../src/service-store.js';
import { runCli } from './support/cli.js';
import { REPO_ROOT, readRows } from './support/harness.js';

describe('fxrates import', () => {
  let dir: string;
  let db: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-import-'));
    db = join(dir, 'nested', 'fx.duckdb');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const count = async (): Promise<
    { source: string; symbol: string; time: string; rate: number }[]
  > => {
    const store = await openServiceStore(db);
    try {
      const rows = await readRows(
        store,
        `SELECT source, symbol, strftime(observation_time, '%Y-%m-%dT%H:%M:%S.%gZ') AS time, rate FROM observations ORDER BY source, symbol, time`,
      );
      return rows.map(([source, symbol, time, rate]) => ({ source, symbol, time, rate }) as any);
    } finally {
      await store.close();
    }
  };

  test('generic observations CSV: creates the database, prints rows per source', async () => {
    const path = file(
      'good.csv',
      'source,symbol,observation_time,rate\r\n' +
        'ecb,USD,2024-03-19T15:00:00Z,1.0863\r\n' +
        'ecb,jpy,2024-03-19T16:00:00+01:00,163.2\r\n' +
        '"imf","EUR","2024-03-19T16:00:00.123Z","0.92"\r\n' +
        // A bare date is the source's documented fixing time: ECB 16:00 Berlin, summer time in July.
        'ecb,GBP,2024-07-01,0.8456\r\n' +
        // The relative currency at 1 says nothing: skipped and counted.
        'ecb,EUR,2024-07-01,1\r\n',
    );
    const result = await runCli(['import', '--db', db, path]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /good\.csv: observations file \(ecb, imf\): 4 rows new, 0 changed, 0 unchanged; skipped 1 rows of a source's own relative currency \(rate 1\)/,
    );
    assert.deepEqual(await count(), [
      { source: 'ecb', symbol: 'GBP', time: '2024-07-01T14:00:00.000Z', rate: 0.8456 },
      { source: 'ecb', symbol: 'JPY', time: '2024-03-19T15:00:00.000Z', rate: 163.2 },
      { source: 'ecb', symbol: 'USD', time: '2024-03-19T15:00:00.000Z', rate: 1.0863 },
      { source: 'imf', symbol: 'EUR', time: '2024-03-19T16:00:00.123Z', rate: 0.92 },
    ]);
  });

  test('re-importing is idempotent and a corrected figure replaces the stored one', async () => {
    const path = file(
      'fix.csv',
      'source,symbol,observation_time,rate\necb,USD,2024-03-19T15:00:00Z,1.0864\necb,USD,2024-03-19T15:00:00Z,1.0865\n',
    );
    const first = await runCli(['import', '--db', db, path]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /: 0 rows new, 1 changed, 0 unchanged/);
    const again = await runCli(['import', '--db', db, path]);
    assert.match(again.stdout, /: 0 rows new, 0 changed, 1 unchanged/);
    const rows = await count();
    assert.equal(rows.length, 4);
    // The later line of the file wins.
    assert.equal(rows.find((r) => r.symbol === 'USD')?.rate, 1.0865);
  });

  const malformed: [string, string, RegExp][] = [
    [
      'a negative rate',
      'ecb,CHF,2024-03-20T15:00:00Z,-1',
      /line 3: rate '-1' is not a positive finite number/,
    ],
    [
      'a zero rate',
      'ecb,CHF,2024-03-20T15:00:00Z,0',
      /line 3: rate '0' is not a positive finite number/,
    ],
    ['not a number', 'ecb,CHF,2024-03-20T15:00:00Z,abc', /line 3: rate 'abc'/],
    ['an unknown source', 'nope,CHF,2024-03-20T15:00:00Z,1', /line 3: unknown source 'nope'/],
    [
      'not a currency code',
      'ecb,EURO,2024-03-20T15:00:00Z,1',
      /line 3: 'EURO' is not a currency code/,
    ],
    [
      'a code ISO 4217 does not have',
      'ecb,ZZZ,2024-03-20T15:00:00Z,1',
      /line 3: 'ZZZ' is not a currency code \(ISO 4217, or a metal such as XAU\)/,
    ],
    [
      'a megabyte of text where a rate belongs, not echoed back',
      `ecb,CHF,2024-03-20T15:00:00Z,${'9'.repeat(3000)}x`,
      /line 3: rate '9{40}\.\.\.' is not a positive finite number/,
    ],
    [
      'the relative currency of its own source, not at 1',
      'ecb,EUR,2024-03-20T15:00:00Z,0.9',
      /line 3: EUR is the relative currency of ecb: its rate can only be 1, not 0.9/,
    ],
    [
      'an impossible date',
      'ecb,CHF,2023-02-29T15:00:00Z,1',
      /line 3: '2023-02-29T15:00:00Z' is not an ISO 8601 date or time/,
    ],
    [
      'a time before the year 1 in UTC (no year 0 in PostgreSQL)',
      'ecb,CHF,0001-01-01T00:00:00+08:00,1',
      /line 3: '0001-01-01T00:00:00\+08:00' is before 0001-01-01T00:00:00Z, the earliest time stored/,
    ],
    ['a missing field', 'ecb,CHF,2024-03-20T15:00:00Z', /line 3: expected 4 fields/],
  ];
  for (const [name, line, message] of malformed) {
    test(`a malformed row aborts its file, nothing of it kept: ${name}`, async () => {
      const before = await count();
      const path = file(
        'bad.csv',
        `source,symbol,observation_time,rate\necb,SEK,2024-03-20T15:00:00Z,11.2\n${line}\n`,
      );
      const result = await runCli(['import', '--db', db, path]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /nothing of this file was imported/);
      assert.deepEqual(await count(), before);
    });
  }

  test('an unrecognised header and a missing file are reported; other files still import', async () => {
    const bad = file('other.csv', 'a,b,c\n1,2,3\n');
    const good = file(
      'more.csv',
      'source,symbol,observation_time,rate\nboe,USD,2024-03-20T15:00:00Z,1.27\n',
    );
    const result = await runCli(['import', '--db', db, bad, join(dir, 'absent.csv'), good]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /other\.csv: line 1: unrecognised header/);
    assert.match(result.stderr, /absent\.csv: no such file/);
    assert.match(result.stdout, /more\.csv: observations file \(boe\): 1 rows new/);
  });

  test('a database held by another process is reported clearly and left untouched', async () => {
    const holder = await openServiceStore(db);
    try {
      const path = file(
        'while-served.csv',
        'source,symbol,observation_time,rate\nboe,JPY,2024-03-20T15:00:00Z,190\n',
      );
      const result = await runCli(['import', '--db', db, path]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /is open in another process \(a running fxrates serve\?\)/);
    } finally {
      await holder.close();
    }
    assert.equal(
      (await count()).some((row) => row.symbol === 'JPY' && row.source === 'boe'),
      false,
    );
  });

  test('usage errors exit with 2 and the usage text', async () => {
    const result = await runCli(['import']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /import needs at least one FILE/);
    assert.match(result.stderr, /Usage:/);
    const unknown = await runCli(['serve', '--port', 'eighty']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /port 'eighty' is not a whole number from 0 to 65535/);
    // A URL of a scheme fxrates does not take is not a file name: nothing is made of it.
    const typo = await runCli(['import', 'x.csv'], { FXRATES_DB: 'postgress://fx@h/x' });
    assert.equal(typo.code, 2);
    assert.match(
      typo.stderr,
      /^fxrates: FXRATES_DB 'postgress:\/\/fx@h\/x' is not a DuckDB file path or a postgres:\/\/ or postgresql:\/\/ URL\n/,
    );
    assert.equal(existsSync(join(REPO_ROOT, 'postgress:')), false);
  });

  test('the ECB history layout is recognised by its header: N/A skipped, 16:00 Berlin as UTC', () => {
    const parsed = parseImport(
      'Date,USD,JPY,CYP,\n2024-01-15,1.0945,159.67,N/A,\n2024-07-01,1.0746,173.46,,\n',
    );
    assert.equal(parsed.format, 'ecb-history');
    assert.deepEqual(
      parsed.observations.map((o) => [o.symbol, o.observationTime.toISOString(), o.rate]),
      [
        ['USD', '2024-01-15T15:00:00.000Z', 1.0945],
        ['JPY', '2024-01-15T15:00:00.000Z', 159.67],
        ['USD', '2024-07-01T14:00:00.000Z', 1.0746],
        ['JPY', '2024-07-01T14:00:00.000Z', 173.46],
      ],
    );
    assert.throws(
      () => parseImport('Date,USD,\n2024-01-15,-3,\n'),
      /line 2: USD '-3' is not a positive finite number/,
    );
    // A file that ends in the middle of a line: JPY 159.6 is not the published 159.67.
    assert.throws(
      () => parseImport('Date,USD,JPY,\n2024-01-12,1.0942,158.9,\n2024-01-15,1.0945,159.6'),
      /line 3: 3 fields, but the header names 4/,
    );
    assert.throws(
      () => parseImport('Date,USD,JPY,\n2024-01-12,1.0942,\n2024-01-15,1.0945,159.67,\n'),
      /line 2: 3 fields, but the header names 4/,
    );
    // A currency named twice would have one of its two figures of each day stored, unseen.
    assert.throws(
      () => parseImport('Date,USD,JPY,USD,\n2024-01-15,1.0945,159.67,1.2,\n'),
      /line 1: 'USD' is named twice in the header/,
    );
  });
});
