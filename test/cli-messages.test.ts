import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { main } from '../src/commands.js';
import { LOG_LEVELS, SERVE_THREADS, importConfig, serveConfig } from '../src/config.js';
import { ProgressLine } from '../src/progress.js';
import { openServiceStore } from '../src/service-store.js';
import { SOURCES } from '../src/sources/registry.js';
import { skipWithoutFixtures } from './support/harness.js';
import { RECORDED, ReplayServer } from './support/replay-server.js';
import { zipOf } from './support/zip.js';

interface Captured {
  text: string;
  isTTY: boolean;
  columns: number;
  write(text: string): boolean;
}

function capture(isTTY = false): Captured {
  return {
    text: '',
    isTTY,
    columns: 100,
    write(text: string) {
      this.text += text;
      return true;
    },
  };
}

/** `fxrates ARGS...` in this process, as the command line would run it, with its output captured. */
async function fxrates(
  args: string[],
  env: Record<string, string> = {},
  terminal = false,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = capture(terminal);
  const stderr = capture(terminal);
  const code = await main(args, env, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Text a terminal shows as it is: printable ASCII and line breaks only. */
const PLAIN_TEXT = /^[\x20-\x7e\n]*$/;

const ECB_HEADER = 'Date,USD,JPY,\n';

describe('a CLI that explains itself', () => {
  let dir: string;
  let db: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-cli-'));
    db = join(dir, 'fx.duckdb');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, content: string | Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  test('COMMAND --help prints that command usage only, exit 0', async () => {
    for (const [command, line] of [
      ['serve', 'fxrates serve [--db PATH] [--port N] [--host H] [--no-ingest]'],
      ['ingest', 'fxrates ingest [SOURCE...] [--from DATE] [--to DATE] [--db PATH]'],
      ['import', 'fxrates import [--db PATH] FILE...'],
      ['copy', 'fxrates copy --from LOCATION --to LOCATION'],
    ] as const) {
      for (const flag of ['--help', '-h']) {
        const result = await fxrates([command, flag]);
        assert.equal(result.code, 0, `${command} ${flag}`);
        assert.equal(result.stderr, '');
        assert.match(result.stdout, /^Usage:\n/);
        assert.ok(result.stdout.includes(line), result.stdout);
        const others = result.stdout.match(/^ {2}fxrates \w+/gm) ?? [];
        assert.deepEqual(others, [`  fxrates ${command}`]);
      }
    }
    // With other arguments too, even ones that would be mistakes.
    const help = await fxrates(['ingest', 'nope', '--from', 'x', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /fxrates ingest \[SOURCE/);
    const general = await fxrates(['--help']);
    assert.equal(general.code, 0);
    assert.match(general.stdout, /fxrates COMMAND --help/);
  });

  test('an unknown option is one line naming it, then the command usage, exit 2', async () => {
    const result = await fxrates(['serve', '--bogus']);
    assert.equal(result.code, 2);
    const [first, blank, ...rest] = result.stderr.split('\n');
    assert.equal(first, "fxrates: unknown option '--bogus'");
    assert.equal(blank, '');
    assert.match(rest.join('\n'), /^Usage:\n {2}fxrates serve \[--db PATH\]/);
    assert.doesNotMatch(result.stderr, /fxrates ingest|To specify a positional/);
    assert.equal(result.stdout, '');

    const missing = await fxrates(['ingest', '--from']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr.split('\n')[0], "fxrates: option '--from' needs a value");
    assert.match(missing.stderr, /fxrates ingest \[SOURCE/);
    const flagValue = await fxrates(['serve', '--no-ingest=yes']);
    assert.equal(flagValue.code, 2);
    assert.equal(flagValue.stderr.split('\n')[0], "fxrates: option '--no-ingest' takes no value");
    const importOption = await fxrates(['import', '--verbose', 'x.csv']);
    assert.equal(importOption.stderr.split('\n')[0], "fxrates: unknown option '--verbose'");
    assert.match(importOption.stderr, /fxrates import \[--db PATH\] FILE/);
  });

  test('an unknown LOG_LEVEL or LOG_FORMAT lists the valid ones, exit 2', async () => {
    const level = await fxrates(['serve', '--db', db], { LOG_LEVEL: 'loud' });
    assert.equal(level.code, 2);
    assert.equal(
      level.stderr.split('\n')[0],
      `fxrates: LOG_LEVEL 'loud' is not one of ${LOG_LEVELS.join(', ')}`,
    );
    const format = await fxrates(['serve', '--db', db], { LOG_FORMAT: 'xml' });
    assert.equal(format.code, 2);
    assert.equal(
      format.stderr.split('\n')[0],
      "fxrates: LOG_FORMAT 'xml' is not one of json, pretty",
    );
  });

  test('FXRATES_THREADS sets the engine threads: one for serve unless set, a bad value exit 2', async () => {
    assert.equal(serveConfig([], {}).threads, SERVE_THREADS);
    assert.equal(SERVE_THREADS, 1);
    assert.equal(serveConfig([], { FXRATES_THREADS: '3' }).threads, 3);
    assert.equal(importConfig(['x.csv'], {}).threads, undefined, "import: the engine's default");
    for (const [command, value] of [
      ['serve', 'many'],
      ['serve', '0'],
      ['import', '-2'],
    ] as const) {
      const args = command === 'serve' ? ['serve', '--db', db] : ['import', '--db', db, 'x.csv'];
      const result = await fxrates(args, { FXRATES_THREADS: value });
      assert.equal(result.code, 2, `${command} ${value}`);
      assert.equal(
        result.stderr.split('\n')[0],
        `fxrates: FXRATES_THREADS '${value}' is not a whole number from 1 to 1024`,
      );
    }
    // The engine runs with what was asked.
    const store = await openServiceStore(join(dir, 'threads.duckdb'), { threads: 3 });
    try {
      const [batch] = await store.readColumns("SELECT current_setting('threads') AS threads");
      assert.equal(String(batch!.columns[0]![0]), '3');
    } finally {
      await store.close();
    }
  });

  test('an unknown source lists the valid keys, exit 2', async () => {
    const result = await fxrates(['ingest', 'ecbb', '--db', db]);
    assert.equal(result.code, 2);
    const first = result.stderr.split('\n')[0]!;
    assert.match(first, /^fxrates: unknown source 'ecbb'; the sources are /);
    const listed = first.replace(/^.*the sources are /, '').split(', ');
    assert.deepEqual(listed, SOURCES.map((source) => source.key).sort());
    const setting = await fxrates(['serve', '--db', db], { FXRATES_INGEST_SOURCES: 'ecb,nope' });
    assert.equal(setting.code, 2);
    assert.match(
      setting.stderr,
      /^fxrates: FXRATES_INGEST_SOURCES: unknown source 'nope'; the sources are amcm, /,
    );
  });

  test('--from in the future is refused, exit 2', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const result = await fxrates(['ingest', 'ecb', '--from', tomorrow, '--db', db]);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr.split('\n')[0],
      `fxrates: --from ${tomorrow} is in the future (today is ${today} UTC): nothing is published yet`,
    );
  });

  test('a port in use is one clear line, exit 1', async () => {
    const holder = createTcpServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const result = await fxrates(
        ['serve', '--port', String(port), '--db', join(dir, 'serve.duckdb'), '--no-ingest'],
        { LOG_LEVEL: 'silent' },
      );
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        `fxrates: port ${port} on 127.0.0.1 is already in use (another fxrates serve?): stop it, or choose another port with --port or PORT\n`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  describe('fxrates import', () => {
    test('a missing file, a directory, compressed and binary files: one plain line each', async () => {
      const folder = join(dir, 'folder');
      mkdirSync(folder);
      const bzip2 = file('rates.csv.bz2', Buffer.from('BZh91AY&SY\x00\xff\x01\x02', 'latin1'));
      const binary = file(
        'rates.csv',
        Buffer.from(Array.from({ length: 2048 }, (_, index) => (index * 37) % 256)),
      );
      const binaryGz = file('binary.csv.gz', gzipSync(Buffer.alloc(4096, 7)));
      const brokenGz = file(
        'broken.csv.gz',
        gzipSync(`${ECB_HEADER}2024-01-15,1.09,159.6,\n`).subarray(0, 20),
      );
      const twoInZip = file('two.zip', zipOf({ 'a.csv': 'x\n', 'b.csv': 'y\n' }));
      const result = await fxrates([
        'import',
        '--db',
        db,
        join(dir, 'absent.csv'),
        folder,
        bzip2,
        binary,
        binaryGz,
        brokenGz,
        twoInZip,
      ]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, PLAIN_TEXT);
      assert.deepEqual(result.stderr.trimEnd().split('\n'), [
        `fxrates: ${join(dir, 'absent.csv')}: no such file`,
        `fxrates: ${folder}: is a directory, not a file`,
        `fxrates: ${bzip2}: a bzip2-compressed file; fxrates import reads CSV files, gzip-compressed ones (.gz) and zip archives of one CSV`,
        `fxrates: ${binary}: binary content, not CSV text; fxrates import reads CSV files, gzip-compressed ones (.gz) and zip archives of one CSV; nothing of this file was imported`,
        `fxrates: ${binaryGz}: binary content, not CSV text (inside the gzip file); fxrates import reads CSV files, gzip-compressed ones (.gz) and zip archives of one CSV; nothing of this file was imported`,
        `fxrates: ${brokenGz}: not a valid gzip file (unexpected end of file); nothing of this file was imported`,
        `fxrates: ${twoInZip}: the zip archive holds 2 files (a.csv, b.csv); it must hold one CSV`,
      ]);
    });

    test('a zip (like eurofxref-hist.zip) and a gzip file import as they are: new, changed, unchanged', async () => {
      const csv = `${ECB_HEADER}2024-01-15,1.0945,159.67,\n2024-01-16,1.0900,160.10,\n`;
      const zip = file('eurofxref-hist.zip', zipOf({ 'eurofxref-hist.csv': csv }));
      const zipped = await fxrates(['import', '--db', db, zip]);
      assert.equal(zipped.code, 0, zipped.stderr);
      assert.match(
        zipped.stdout,
        /^.*eurofxref-hist\.zip: ecb-history file in a zip archive \(eurofxref-hist\.csv\) \(ecb\): 4 rows new, 0 changed, 0 unchanged \(\d+ ms\)\n$/,
      );
      // The same days again, one figure corrected and one day more, gzip-compressed.
      const gz = file(
        'eurofxref-hist.csv.gz',
        gzipSync(
          `${ECB_HEADER}2024-01-15,1.0945,159.67,\n2024-01-16,1.0901,160.10,\n2024-01-17,1.0880,161.00,\n`,
        ),
      );
      const gzipped = await fxrates(['import', '--db', db, gz]);
      assert.equal(gzipped.code, 0, gzipped.stderr);
      assert.match(
        gzipped.stdout,
        /eurofxref-hist\.csv\.gz: ecb-history file, gzip-compressed \(ecb\): 2 rows new, 1 changed, 3 unchanged \(\d+ ms\)\n$/,
      );
      const store = await openServiceStore(db);
      try {
        const held = (await store.catalog()).get('ecb');
        assert.equal(held?.observations, 6);
        assert.equal(held?.lastDate, '2024-01-17');
        // A file with a hole before it (the ECB publishes from 1999) is no ingest progress.
        assert.equal((await store.ingestStates()).get('ecb'), undefined);
      } finally {
        await store.close();
      }
    });

    test('a file from the first published date on is ingest progress: ingest continues after it', async () => {
      const progressDb = join(dir, 'progress.duckdb');
      const history = file(
        'from-the-start.csv',
        `${ECB_HEADER}1999-01-04,1.1789,133.73,\n1999-01-05,1.1790,130.96,\n1999-01-06,1.1743,131.42,\n`,
      );
      const imported = await fxrates(['import', '--db', progressDb, history]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(
        imported.stdout,
        /: 6 rows new, 0 changed, 0 unchanged; ingest continues after ecb 1999-01-06 \(/,
      );
      // Without a network the run fails, but it says which dates it asked for.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      await new Promise((resolve) => closed.close(resolve));
      const ingested = await fxrates(['ingest', 'ecb', '--db', progressDb], {
        FXRATES_ORIGIN_ECB: origin,
        FXRATES_HTTP_RETRIES: '0',
        FXRATES_POLITENESS_MS: '0',
      });
      assert.equal(ingested.code, 1);
      assert.match(
        ingested.stderr,
        /^fxrates: ecb 1999-01-06\.\.\d{4}-\d{2}-\d{2}: 1 requests, 0 observations new or changed \(\d+ ms\); failed: .*startPeriod=1999-01-06.*ECONNREFUSED/,
      );
    });
  });

  test('fxrates ingest of several sources: one line each and a closing summary', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const result = await fxrates(['ingest', 'ecb', 'boe', 'fred', '--db', join(dir, 'i.duckdb')], {
      FXRATES_ORIGIN_ECB: origin,
      FXRATES_ORIGIN_BOE: origin,
      // Each failed request counts: one try and one retry.
      FXRATES_HTTP_RETRIES: '1',
      FXRATES_POLITENESS_MS: '0',
    });
    assert.equal(result.code, 1);
    const failed = result.stderr.trimEnd().split('\n');
    assert.equal(failed.length, 2);
    for (const line of failed) {
      assert.match(
        line,
        /^fxrates: (ecb|boe) \d{4}-\d{2}-\d{2}\.\.\S+: 2 requests, 0 observations .*\(after 2 attempts\)$/,
      );
    }
    assert.match(result.stdout, /^fred: idle: set FRED_API_KEY/m);
    assert.match(
      result.stdout,
      /^ingested 3 sources: 0 ok, 2 failed, 1 idle; 4 requests, 0 observations new or changed \(\d+\.\d s\)\n$/m,
    );
  });
});

describe('fxrates ingest on a terminal', { skip: skipWithoutFixtures(RECORDED) }, () => {
  let replay: ReplayServer;
  let dir: string;
  before(async () => {
    replay = await ReplayServer.start();
    dir = mkdtempSync(join(tmpdir(), 'fxrates-cli-tty-'));
  });
  after(async () => {
    await replay?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a slow publisher: one progress line with requests and dates covered, cleared before the result', async () => {
    replay.delayMs = 1_500;
    try {
      const result = await fxrates(
        ['ingest', 'ecb', '--from', '2026-02-17', '--db', join(dir, 'tty.duckdb')],
        { ...replay.env(['ecb']), FXRATES_HTTP_RETRIES: '0', FXRATES_POLITENESS_MS: '0' },
        true,
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /^\r\x1b\[2Kingest: 0 of 1 sources done, 1 requests; ecb 1 req through \d{4}-\d{2}-\d{2}\r\x1b\[2K/,
      );
      assert.ok(result.stderr.endsWith('\r\x1b[2K'));
      assert.match(
        result.stdout,
        /^ecb 2026-02-17\.\.\S+: 1 requests, 638 observations new or changed/,
      );
    } finally {
      replay.delayMs = 0;
    }
  });
});

describe('progress of long work', () => {
  test('on a terminal: nothing for quick work, then one line redrawn in place, cleared at the end', () => {
    let now = 0;
    const out = capture(true);
    const progress = new ProgressLine(out, { delayMs: 3_000, now: () => now });
    for (now = 0; now < 3_000; now += 100) progress.update(() => `at ${now}`);
    assert.equal(out.text, '');
    for (now = 3_000; now <= 4_000; now += 100) progress.update(() => `at ${now}`);
    // Every 200 ms at most, each one replacing the last.
    assert.equal(out.text.split('\r\x1b[2K').filter(Boolean).length, 6);
    assert.ok(out.text.endsWith('\r\x1b[2Kat 4000'));
    progress.done();
    assert.ok(out.text.endsWith('\r\x1b[2K'));
  });

  test('not on a terminal: an occasional whole line', () => {
    let now = 0;
    const out = capture(false);
    const progress = new ProgressLine(out, { delayMs: 3_000, lineEveryMs: 10_000, now: () => now });
    for (now = 0; now <= 30_000; now += 100) progress.update(() => `at ${now}`);
    assert.equal(out.text, 'at 3000\nat 13000\nat 23000\n');
    progress.done();
    assert.equal(out.text, 'at 3000\nat 13000\nat 23000\n');
  });
});
