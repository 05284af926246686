/**
 * A throwaway PostgreSQL cluster for the tests: Debian's server binaries, `initdb` and `pg_ctl`
 * in a temporary folder on a free port, stopped when the test process exits. Each test service
 * gets a database of its own. Nothing is downloaded: without the binaries the PostgreSQL
 * variants of the suites are skipped with the reason.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = '/usr/lib/postgresql';

/** The folder of initdb and pg_ctl, newest version first, or undefined. */
export function postgresBinaries(): string | undefined {
  if (process.env.FXRATES_PG_BIN) return process.env.FXRATES_PG_BIN;
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT)
    .filter((version) => existsSync(join(ROOT, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(ROOT, versions[0], 'bin') : undefined;
}

/** Why PostgreSQL tests cannot run here, or false. */
export function skipWithoutPostgres(): string | false {
  if (process.env.FXRATES_TEST_PG_URL) return false;
  return postgresBinaries()
    ? false
    : 'PostgreSQL server binaries not found (Debian package postgresql; .ci/run installs it)';
}

export interface Cluster {
  /** Superuser URL of the cluster's `postgres` database. */
  adminUrl: string;
  /** A fresh, empty database: its URL. */
  createDatabase(): Promise<string>;
  dropDatabase(url: string): Promise<void>;
}

let started: Promise<Cluster> | undefined;

/** The cluster of this test process, started on first use. */
export function postgresCluster(): Promise<Cluster> {
  started ??= start();
  return started;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function start(): Promise<Cluster> {
  const external = process.env.FXRATES_TEST_PG_URL;
  const adminUrl = external ?? (await startLocal());
  return {
    adminUrl,
    async createDatabase() {
      const name = `fxrates_test_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropDatabase(url) {
      const name = new URL(url).pathname.slice(1);
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Runs one of the server's programs (initdb, pg_ctl) from postgresBinaries. The server refuses
 * to run as root: as root, it runs as the package's postgres user.
 */
export function runServerCommand(command: string, args: string[]): void {
  const program = join(postgresBinaries()!, command);
  const [file, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
      : [program, args];
  execFileSync(file, argv, { stdio: 'pipe' });
}

async function startLocal(): Promise<string> {
  if (!postgresBinaries()) throw new Error(String(skipWithoutPostgres()));
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  runServerCommand('initdb', [
    '-D',
    data,
    '-U',
    'fxrates',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  // Test files run side by side: another one's cluster may take the free port first.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      runServerCommand('pg_ctl', [
        '-D',
        data,
        '-w',
        '-l',
        join(dir, 'log'),
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
        'start',
      ]);
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  process.once('exit', () => {
    try {
      runServerCommand('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return `postgres://fxrates@127.0.0.1:${port}/postgres`;
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
