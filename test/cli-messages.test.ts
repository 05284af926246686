import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createTcpServer } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { main } from '../src/commands.js';
import {
  LOG_LEVELS,
  SERVE_THREADS,
  UsageError,
  copyConfig,
  importConfig,
  ingestConfig,
  serveConfig,
} from '../src/config.js';
import { ProgressLine } from '../src/progress.js';
import { openServiceStore } from '../src/service-store.js';
import { isPostgresUrl, openStore } from '../src/store/open.js';
import { SOURCES } from '../src/sources/registry.js';
import {
  forEachEngine,
  freshDatabase,
  observation,
  readRows,
  skipWithoutFixtures,
} from './support/harness.js';
import { RECORDED, ReplayServer } from './support/replay-server.js';
import { zipOf } from './support/zip.js';
import { damagedDuckDB } from './support/damaged-duckdb.js';

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

  test('a database URL of another scheme (a typo of postgres://) is refused, not taken for a file', () => {
    const refused = (name: string, value: string) =>
      `${name} '${value}' is not a DuckDB file path or a postgres:// or postgresql:// URL`;
    const usage = (message: string) => (error: unknown) =>
      error instanceof UsageError && error.message === message;
    for (const url of ['postgress://fxrates@127.0.0.1:55432/x', 'mysql://u@h/x', 'file://x.db']) {
      assert.throws(() => serveConfig(['--db', url], {}), usage(refused('--db', url)));
      assert.throws(() => ingestConfig([], { FXRATES_DB: url }), usage(refused('FXRATES_DB', url)));
      assert.throws(() => importConfig(['--db', url, 'x.csv'], {}), usage(refused('--db', url)));
      assert.throws(
        () => copyConfig(['--from', url, '--to', db], {}),
        usage(refused('--from', url)),
      );
      assert.throws(() => copyConfig(['--from', db, '--to', url], {}), usage(refused('--to', url)));
    }
    // A password is not repeated in the message.
    assert.throws(
      () => serveConfig(['--db', 'postgress://fx:secret@h/x'], {}),
      usage(refused('--db', 'postgress://fx:***@h/x')),
    );
    // What is taken: files (a colon in a name too) and both spellings of the PostgreSQL scheme.
    for (const location of [
      'data/fx.duckdb',
      'a:b.duckdb',
      'postgres://u@h/x',
      'POSTGRESQL://u@h/x',
    ]) {
      assert.equal(serveConfig(['--db', location], {}).db, location);
      assert.equal(importConfig(['x.csv'], { FXRATES_DB: location }).db, location);
    }
  });

  test('an empty option value is no value: one line, exit 2, never the default', async () => {
    const needs = (option: string) => (error: unknown) =>
      error instanceof UsageError && error.message === `option '${option}' needs a value`;
    for (const args of [['--db', ''], ['--port', ''], ['--host', ''], ['--host=  '], ['--db=']]) {
      assert.throws(
        () => serveConfig(args, {}),
        needs(args[0]!.replace(/=.*/, '')),
        args.join(' '),
      );
    }
    assert.throws(() => ingestConfig(['--from', ''], {}), needs('--from'));
    assert.throws(() => ingestConfig(['--to='], {}), needs('--to'));
    assert.throws(() => importConfig(['--db', '', 'x.csv'], {}), needs('--db'));
    assert.throws(() => copyConfig(['--from', '', '--to', db], {}), needs('--from'));
    assert.throws(() => copyConfig(['--from', db, '--to', ''], {}), needs('--to'));
    // An empty environment variable still means unset.
    assert.equal(serveConfig([], { FXRATES_DB: '', PORT: '', HOST: '' }).port, 8080);
    // A list of sources that names none (empty, or commas alone) means every source, as unset.
    for (const value of ['', ',', ' , ,'])
      assert.equal(serveConfig([], { FXRATES_INGEST_SOURCES: value }).ingestSources, undefined);
    assert.deepEqual(serveConfig([], { FXRATES_INGEST_SOURCES: 'ecb,,cbr,' }).ingestSources, [
      'ecb',
      'cbr',
    ]);
    const result = await fxrates(['serve', '--port', '']);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.split('\n')[0], "fxrates: option '--port' needs a value");
  });

  test("a value that starts with '-' is no value: the message says how to give one", async () => {
    const needs = (option: string, value: string) => (error: unknown) =>
      error instanceof UsageError &&
      error.message ===
        `option '${option}' needs a value; to give it '${value}', write ${option}=${value}`;
    assert.throws(() => serveConfig(['--port', '-5'], {}), needs('--port', '-5'));
    assert.throws(() => ingestConfig(['ecb', '--from', '-1'], {}), needs('--from', '-1'));
    assert.throws(() => copyConfig(['--to', db, '--from', '-x'], {}), needs('--from', '-x'));
    // As the message says, the value then reaches its own check.
    assert.throws(() => serveConfig(['--port=-5'], {}), /port '-5' is not a whole number/);
    // -h after --host is that option's value, not a request for help.
    for (const args of [
      ['serve', '--host', '-h'],
      ['serve', '--db', db, '--host', '-h'],
    ]) {
      const result = await fxrates(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stdout, '');
      assert.equal(
        result.stderr.split('\n')[0],
        "fxrates: option '--host' needs a value; to give it '-h', write --host=-h",
      );
    }
    const help = await fxrates(['serve', '--host', '0.0.0.0', '-h']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage:\n {2}fxrates serve/);
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

  test('a database path under a file, not a folder, is one line naming that folder', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'not a folder');
    for (const path of [join(file, 'x.duckdb'), join(file, 'sub', 'x.duckdb')]) {
      await assert.rejects(openServiceStore(path), {
        message: `database ${path}: a part of its folder ${dirname(path)} is a file, not a folder`,
      });
    }
  });

  test('FXRATES_MEMORY_LIMIT below 64 MiB is one line, exit 2; 64 MiB opens the database', () => {
    for (const value of ['0MB', '1KB', '63MiB']) {
      assert.throws(
        () => serveConfig([], { FXRATES_MEMORY_LIMIT: value }),
        (error) =>
          error instanceof UsageError &&
          error.message ===
            `FXRATES_MEMORY_LIMIT '${value}' is not a size of 64MiB or more, such as 512MB or 2GB`,
      );
      assert.throws(() => importConfig(['x.csv'], { FXRATES_MEMORY_LIMIT: value }), UsageError);
    }
    assert.equal(serveConfig([], { FXRATES_MEMORY_LIMIT: '64MiB' }).memoryLimit, '64MiB');
  });

  test('FXRATES_QUERY_MEMORY below 256 MiB, where a sandbox process cannot start, is one line, exit 2', () => {
    for (const value of ['64MiB', '100MB', '255MiB']) {
      assert.throws(
        () => serveConfig([], { FXRATES_QUERY_MEMORY: value }),
        (error) =>
          error instanceof UsageError &&
          error.message ===
            `FXRATES_QUERY_MEMORY '${value}' is not a size of 256MiB or more, such as 512MB or 2GB`,
      );
    }
    assert.equal(
      serveConfig([], { FXRATES_QUERY_MEMORY: '256MiB' }).sandbox.memoryBytes,
      256 * 1024 ** 2,
    );
  });

  test('an origin override for no source, or without http(s)://, is one line, exit 2', async () => {
    const misspelt = await fxrates(['ingest', 'ecb', '--db', db], {
      FXRATES_ORIGIN_ECBB: 'http://127.0.0.1:9000',
    });
    assert.equal(misspelt.code, 2);
    assert.match(
      misspelt.stderr,
      /^fxrates: FXRATES_ORIGIN_ECBB: unknown source 'ecbb'; the sources are amcm, /,
    );
    for (const value of ['127.0.0.1:9000', 'localhost:9000', 'ftp://127.0.0.1', 'not a url']) {
      assert.throws(
        () => serveConfig([], { FXRATES_ORIGIN_FLOAT_RATES: value }),
        (error) =>
          error instanceof UsageError &&
          error.message ===
            `FXRATES_ORIGIN_FLOAT_RATES '${value}' is not an http:// or https:// URL, such as http://127.0.0.1:9000`,
      );
    }
    // Read only in upper case, and only as scheme, host and port.
    assert.throws(
      () => serveConfig([], { FXRATES_ORIGIN_ecb: 'http://127.0.0.1:9000' }),
      (error) =>
        error instanceof UsageError &&
        error.message === 'FXRATES_ORIGIN_ecb: write it FXRATES_ORIGIN_ECB, in upper case',
    );
    for (const value of ['http://127.0.0.1:9000/mirror/ecb', 'http://user:secret@127.0.0.1:9000']) {
      assert.throws(
        () => serveConfig([], { FXRATES_ORIGIN_ECB: value }),
        (error) =>
          error instanceof UsageError &&
          error.message ===
            `FXRATES_ORIGIN_ECB '${value}' replaces scheme, host and port only: leave out its path, query and user`,
      );
    }
    for (const value of ['https://127.0.0.1:9000', 'http://127.0.0.1:9000/']) {
      assert.equal(serveConfig([], { FXRATES_ORIGIN_FLOAT_RATES: value }).port, 8080);
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

  test('a port in use, a host of another machine: one clear line, exit 1, no database made', async () => {
    const holder = createTcpServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const db = join(dir, 'serve.duckdb');
      const result = await fxrates(['serve', '--port', String(port), '--db', db, '--no-ingest'], {
        LOG_LEVEL: 'silent',
      });
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        `fxrates: port ${port} on 127.0.0.1 is already in use (another fxrates serve?): stop it, or choose another port with --port or PORT\n`,
      );
      assert.equal(existsSync(db), false, 'no database made for a service that cannot listen');
      // An address of the documentation ranges that this machine does not have.
      const local = new Set(
        Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address)),
      );
      const host = ['192.0.2.201', '198.51.100.201', '203.0.113.201'].find((a) => !local.has(a))!;
      const elsewhere = await fxrates(
        ['serve', '--host', host, '--port', String(port), '--db', db, '--no-ingest'],
        { LOG_LEVEL: 'silent' },
      );
      assert.equal(elsewhere.code, 1);
      assert.equal(
        elsewhere.stderr,
        `fxrates: host ${host} is no address of this machine: check --host or HOST\n`,
      );
      assert.equal(existsSync(db), false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  test('copy never creates or writes its source: a missing file or a file without fxrates is one line, exit 1', async () => {
    const to = join(dir, 'copy-to.duckdb');
    const gone = join(dir, 'gone', 'fx.duckdb');
    const missing = await fxrates(['copy', '--from', gone, '--to', to]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, `fxrates: DuckDB ${gone}: no such file\n`);
    assert.equal(existsSync(join(dir, 'gone')), false, 'no folder made for the source');
    assert.equal(existsSync(to), false, 'no target made either');
    // A DuckDB file of something else is left exactly as it was.
    const other = join(dir, 'other.duckdb');
    const instance = await DuckDBInstance.create(other);
    const connection = await instance.connect();
    await connection.run('CREATE TABLE t (x INTEGER)');
    connection.closeSync();
    instance.closeSync();
    const bytes = readFileSync(other);
    const foreign = await fxrates(['copy', '--from', other, '--to', to]);
    assert.equal(foreign.code, 1);
    assert.equal(foreign.stderr, `fxrates: DuckDB ${other} holds no fxrates database\n`);
    assert.deepEqual(readFileSync(other), bytes);
    assert.equal(existsSync(to), false);
    // Nor does an import write into it.
    const csv = join(dir, 'one.csv');
    writeFileSync(csv, 'source,symbol,observation_time,rate\necb,USD,2024-03-20T15:00:00Z,1.09\n');
    const imported = await fxrates(['import', '--db', other, csv]);
    assert.equal(imported.code, 1);
    assert.equal(
      imported.stderr,
      `fxrates: DuckDB ${other} holds tables, but no fxrates database\n`,
    );
    assert.deepEqual(readFileSync(other), bytes);
  });

  test('copy from a damaged DuckDB file fails with the engine’s reason and is never verified, nor its ingest state copied', async () => {
    const from = join(dir, 'damaged.duckdb');
    await damagedDuckDB(from, { writes: 1, block: 1 });
    const to = join(dir, 'from-damaged.duckdb');
    const result = await fxrates(['copy', '--from', from, '--to', to]);
    assert.equal(result.code, 1, result.stdout);
    assert.doesNotMatch(result.stdout, /copy verified/);
    assert.match(result.stderr, /^fxrates: .*Corrupt database file/);
    if (existsSync(to)) {
      const target = await openServiceStore(to);
      try {
        const state = (await target.ingestStates()).get('ecb');
        assert.equal(state?.completeThrough ?? null, null, 'no dates said complete in the target');
      } finally {
        await target.close();
      }
    }
  });

  describe('fxrates import', () => {
    test('a missing file creates no database: the files are looked at before the store', async () => {
      const absent = join(dir, 'absent.csv');
      const result = await fxrates(['import', '--db', join(dir, 'never', 'fx.duckdb'), absent]);
      assert.equal(result.code, 1);
      assert.equal(result.stderr, `fxrates: ${absent}: no such file\n`);
      assert.equal(existsSync(join(dir, 'never')), false);
    });

    test(
      'an unreadable file creates no database either',
      { skip: process.getuid?.() === 0 ? 'run as root, which reads any file' : false },
      async () => {
        const locked = file('locked.csv', 'source,symbol,observation_time,rate\n');
        chmodSync(locked, 0);
        const result = await fxrates(['import', '--db', join(dir, 'never', 'fx.duckdb'), locked]);
        assert.equal(result.code, 1);
        assert.equal(result.stderr, `fxrates: ${locked}: not readable (permission denied)\n`);
        assert.equal(existsSync(join(dir, 'never')), false);
      },
    );

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

  test('fxrates ingest of dates before a source publishes: says so, requests nothing', async () => {
    const result = await fxrates(
      [
        'ingest',
        'ecb',
        '--from',
        '1800-01-01',
        '--to',
        '1800-02-01',
        '--db',
        join(dir, 'e.duckdb'),
      ],
      { FXRATES_ORIGIN_ECB: 'http://127.0.0.1:9' },
    );
    assert.equal(result.code, 0);
    assert.equal(result.stderr, '');
    assert.equal(
      result.stdout,
      'ecb: nothing to fetch: ecb publishes from 1999-01-04, and the dates asked end 1800-02-01\n',
    );
  });
});

/** True when nothing is at `location`: no file, or a PostgreSQL database without a table. */
async function holdsNothing(location: string): Promise<boolean> {
  if (!isPostgresUrl(location)) return !existsSync(location);
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    const { rows } = await client.query<{ tables: number }>(
      `SELECT count(*)::int AS tables FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    return rows[0]!.tables === 0;
  } finally {
    await client.end();
  }
}

describe('what copy and import must leave alone', () => {
  forEachEngine((engine) => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'fxrates-cli-alone-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('an empty database as a copy source, an import of a missing file: one line, exit 1, nothing created', async () => {
      const database = await freshDatabase(engine);
      try {
        const to = join(dir, 'to.duckdb');
        const copied = await fxrates(['copy', '--from', database.location, '--to', to]);
        assert.equal(copied.code, 1);
        assert.match(
          copied.stderr,
          engine === 'postgres'
            ? /^fxrates: PostgreSQL postgres:\/\/\S+ holds no fxrates database\n$/
            : /^fxrates: DuckDB \S+: no such file\n$/,
        );
        assert.equal(await holdsNothing(database.location), true, 'the source is as it was');
        assert.equal(existsSync(to), false);
        const absent = join(dir, 'absent.csv');
        const imported = await fxrates(['import', '--db', database.location, absent]);
        assert.equal(imported.code, 1);
        assert.equal(imported.stderr, `fxrates: ${absent}: no such file\n`);
        assert.equal(await holdsNothing(database.location), true, 'no schema made for nothing');
      } finally {
        await database.dispose();
      }
    });

    test('a copy reads its source as it is: the copy is made, and the source refuses writes', async () => {
      const database = await freshDatabase(engine);
      try {
        const source = await openServiceStore(database.location);
        try {
          await source.writeObservations([
            observation('ecb', 'USD', '2024-01-15T15:00:00Z', 1.0945),
            observation('ecb', 'JPY', '2024-01-15T15:00:00Z', 159.67),
          ]);
        } finally {
          await source.close();
        }
        const result = await fxrates([
          'copy',
          '--from',
          database.location,
          '--to',
          join(dir, 'copy.duckdb'),
        ]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /^copy verified: ecb 2; 2 new or changed in DuckDB /m);
        const reading = await openStore(database.location, { readOnly: true });
        try {
          await assert.rejects(
            reading.writeObservations([observation('ecb', 'CHF', '2024-01-15T15:00:00Z', 0.94)]),
            /read-only/,
          );
          const [[count]] = (await readRows(reading, 'SELECT count(*) FROM observations')) as [
            [unknown],
          ];
          assert.equal(Number(count), 2);
        } finally {
          await reading.close();
        }
      } finally {
        await database.dispose();
      }
    });
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
