import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { machine, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { mallocInUse, mallocReport } from '../src/allocator.js';
import { VERSION } from '../src/version.js';
import {
  INSTALLED,
  runCli,
  startServer,
  stopServer,
  type CliEnv,
  type RunningServer,
} from './support/cli.js';
import { REPO_ROOT } from './support/harness.js';

const BUILT = join(REPO_ROOT, 'dist', 'cli.js');
// Debian's and Ubuntu's libjemalloc2 on this machine's architecture.
const JEMALLOC = `/usr/lib/${machine()}-linux-gnu/libjemalloc.so.2`;

const skipLauncher =
  process.platform !== 'linux'
    ? 'bin/fxrates preloads through the Linux dynamic loader'
    : !existsSync(BUILT) && `${BUILT} not built (npm run build)`;

/** The environment of a user who preloads nothing, with `extra`. */
const userEnv = (extra: CliEnv = {}): CliEnv => ({
  LD_PRELOAD: undefined,
  LOG_FORMAT: 'pretty',
  ...extra,
});

/** `bin/fxrates serve`, once it has said which malloc it runs on (just after it listens). */
async function serve(db: string, env: CliEnv = {}): Promise<RunningServer> {
  const server = await startServer(['--no-ingest', '--db', db], userEnv(env), INSTALLED);
  for (let waited = 0; !/memory allocator: /.test(server.output()); waited += 50) {
    if (waited > 10_000) throw new Error(`no allocator line: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server;
}

/** The shared libraries mapped into a running process. */
function librariesOf(pid: number): string {
  return readFileSync(`/proc/${pid}/maps`, 'utf8');
}

describe('bin/fxrates, the installed command', { skip: skipLauncher }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-launcher-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('runs the command line with the arguments given, and ends with its exit status', async () => {
    const version = await runCli(['--version'], userEnv(), INSTALLED);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), VERSION);
    const unknown = await runCli(['frobnicate'], userEnv(), INSTALLED);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /frobnicate/);
  });

  test(
    'serve runs on jemalloc where it is installed, and says so at start',
    { skip: !existsSync(JEMALLOC) && `${JEMALLOC} not installed (Debian: libjemalloc2)` },
    async () => {
      const server = await serve(join(dir, 'jemalloc.duckdb'));
      try {
        assert.ok(librariesOf(server.child.pid!).includes(JEMALLOC), 'jemalloc is not mapped');
        assert.match(server.output(), /INFO: memory allocator: jemalloc \(/);
        assert.equal((await fetch(`${server.baseUrl}/v1/currencies`)).status, 200);
      } finally {
        await stopServer(server);
      }
    },
  );

  test("FXRATES_MALLOC=system keeps the C library's malloc", async () => {
    const server = await serve(join(dir, 'system.duckdb'), { FXRATES_MALLOC: 'system' });
    try {
      assert.doesNotMatch(librariesOf(server.child.pid!), /lib(jemalloc|tcmalloc|mimalloc)/);
      assert.match(server.output(), /INFO: memory allocator: the C library's malloc\n/);
      assert.equal((await fetch(`${server.baseUrl}/v1/currencies`)).status, 200);
    } finally {
      await stopServer(server);
    }
  });

  test('FXRATES_MALLOC naming no file: exit 2, a message, and nothing started', async () => {
    const db = join(dir, 'never.duckdb');
    const missing = join(dir, 'libnothing.so');
    const result = await runCli(
      ['serve', '--port', '0', '--db', db],
      userEnv({ FXRATES_MALLOC: missing }),
      INSTALLED,
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`FXRATES_MALLOC=${missing} is no readable file`));
    assert.equal(existsSync(db), false);
  });
});

describe('the malloc a process runs on, from its mappings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-maps-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const maps = (name: string, lines: string[]): string => {
    const path = join(dir, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  const node = '55d0c0a00000-55d0c0c00000 r--p 00000000 08:01 1234 /usr/bin/node';
  const libc =
    '7f0e10000000-7f0e10028000 r--p 00000000 08:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6';
  const anonymous = '7f0e20000000-7f0e20021000 rw-p 00000000 00:00 0 ';

  test('a preloaded jemalloc, tcmalloc or mimalloc is named with its path', () => {
    const jemalloc = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
    assert.equal(
      mallocInUse(maps('je', [node, `7f0e0 r-xp 00000000 08:01 77 ${jemalloc}`, libc])),
      `jemalloc (${jemalloc})`,
    );
    assert.equal(
      mallocInUse(maps('tc', [node, '7f0e0 r-xp 0 08:01 7 /usr/lib64/libtcmalloc_minimal.so.4'])),
      'tcmalloc_minimal (/usr/lib64/libtcmalloc_minimal.so.4)',
    );
    assert.equal(
      mallocInUse(maps('mi', [anonymous, '7f0e0 r-xp 0 08:01 7 /usr/lib/libmimalloc.so.2.0'])),
      'mimalloc (/usr/lib/libmimalloc.so.2.0)',
    );
  });

  test("none of them: the C library's; DuckDB's own jemalloc, inside libduckdb, does not count", () => {
    const duckdb = '7f0e0 r-xp 0 08:01 7 /app/node_modules/@duckdb/libduckdb.so';
    assert.equal(
      mallocInUse(maps('libc', [node, anonymous, duckdb, libc])),
      "the C library's malloc",
    );
  });

  test('mappings that cannot be read: unknown', () => {
    assert.equal(mallocInUse(join(dir, 'absent')), undefined);
    assert.equal(mallocReport(false, join(dir, 'absent')), undefined);
  });

  test("the log line at start says how to run on jemalloc, unless the C library's was chosen", () => {
    const plain = maps('plain', [node, libc]);
    assert.equal(
      mallocReport(false, plain),
      "memory allocator: the C library's malloc; bin/fxrates (npx fxrates, npm start) preloads " +
        'jemalloc where it is installed (libjemalloc2), for uncached answers about 10% faster',
    );
    assert.equal(mallocReport(true, plain), "memory allocator: the C library's malloc");
    const jemalloc = maps('je-line', [node, '7f0e0 r-xp 0 08:01 7 /usr/lib64/libjemalloc.so.2']);
    assert.equal(
      mallocReport(false, jemalloc),
      'memory allocator: jemalloc (/usr/lib64/libjemalloc.so.2)',
    );
  });
});
