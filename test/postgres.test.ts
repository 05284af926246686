/**
 * What only the PostgreSQL store has: connection problems in one line, the query role of the
 * sandbox against attacks specific to PostgreSQL, and `fxrates copy` between engines.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { copyStore } from '../src/copy-store.js';
import { openServiceStore } from '../src/service-store.js';
import { openStore } from '../src/store/open.js';
import { queryRole } from '../src/store/postgres/sandbox.js';
import type { Observation, Store } from '../src/store/store.js';
import {
  freshDatabase,
  getJson,
  observation,
  readRows,
  startService,
  type TestService,
} from './support/harness.js';
import { postgresCluster, skipWithoutPostgres } from './support/postgres-cluster.js';

/** The SQL an administrator must run, from the query endpoint's 503 message. */
function adminSqlIn(error: string): string {
  const sql = /An administrator must run: (.*); then start the service with FXRATES_QUERY_DB/.exec(
    error,
  )?.[1];
  assert.ok(sql, error);
  return sql;
}

const skip = skipWithoutPostgres();

describe('connecting to PostgreSQL', { skip }, () => {
  test('a refused connection, a missing database and a wrong user are one clear line each', async () => {
    const cluster = await postgresCluster();
    const admin = new URL(cluster.adminUrl);
    const cases: [string, RegExp][] = [
      [
        'postgres://fxrates@127.0.0.1:1/fx',
        /^cannot connect to PostgreSQL at host 127\.0\.0\.1, port 1, database fx: connection refused/,
      ],
      [
        `postgres://fxrates@127.0.0.1:${admin.port}/no_such_db`,
        new RegExp(
          `^cannot connect to PostgreSQL at host 127\\.0\\.0\\.1, port ${admin.port}, database no_such_db: the database does not exist`,
        ),
      ],
      [
        `postgres://nobody:secret@127.0.0.1:${admin.port}/postgres`,
        /^cannot connect to PostgreSQL at host 127\.0\.0\.1, port \d+, database postgres: .*nobody/,
      ],
    ];
    for (const [url, expected] of cases) {
      await assert.rejects(openStore(url), (error: Error) => {
        assert.match(error.message, expected);
        assert.doesNotMatch(error.message, /\n|secret/, 'one line, no password');
        return true;
      });
    }
  });
});

describe("the service's PostgreSQL sessions", { skip }, () => {
  /** The settings `names` of a service session on a fresh database, its URL given `options`. */
  async function sessionSettings(names: string[], options?: string): Promise<unknown[]> {
    const database = await freshDatabase('postgres');
    const url = new URL(database.location);
    if (options !== undefined) url.searchParams.set('options', options);
    const store = await openStore(url.toString());
    try {
      const [batch] = await store.readColumns(
        `SELECT ${names.map((name) => `current_setting('${name}')`).join(', ')}`,
      );
      return batch!.columns.map((values) => values[0]);
    } finally {
      await store.close();
      await database.dispose();
    }
  }

  test('run in UTC, sort long ranges in memory, and never compile statements (JIT)', async () => {
    assert.deepEqual(await sessionSettings(['TimeZone', 'work_mem', 'jit']), [
      'UTC',
      '32MB',
      'off',
    ]);
  });

  test('keep their settings beside the options a URL gives', async () => {
    assert.deepEqual(
      await sessionSettings(
        ['statement_timeout', 'TimeZone', 'tcp_keepalives_idle'],
        '-c statement_timeout=12345',
      ),
      ['12345ms', 'UTC', '10'],
    );
  });
});

describe('a database restored from a dump', { skip }, () => {
  test('is answered as it is again, under a data version none of the answers before had', async () => {
    const service = await startService({ today: () => '2024-03-20' }, { engine: 'postgres' });
    const client = new pg.Client({ connectionString: service.location });
    await client.connect();
    try {
      const answer = async () => {
        const response = await service.app.inject(
          '/v1/exchangerate/2024-03-15?base=EUR&symbols=USD',
        );
        return { rate: JSON.parse(response.body).rates.USD.rate, etag: response.headers.etag };
      };
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-15T15:00:00Z', 1.0887),
      ]);
      const before = await answer();
      const version = (await client.query("SELECT value FROM meta WHERE key = 'data_version'"))
        .rows[0].value;
      await service.store.writeObservations([
        observation('ecb', 'USD', '2024-03-15T15:00:00Z', 1.2),
      ]);
      const changed = await answer();
      assert.notEqual(changed.rate, before.rate);
      // What restoring the dump taken before the second write does to the tables.
      await client.query('BEGIN');
      await client.query("UPDATE observations SET rate = 1.0887 WHERE symbol = 'USD'");
      await client.query("UPDATE meta SET value = $1 WHERE key = 'data_version'", [version]);
      await client.query('COMMIT');
      const deadline = Date.now() + 5_000;
      let now = await answer();
      while (now.rate !== before.rate && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await answer();
      }
      assert.equal(now.rate, before.rate);
      // The version moves on past the one the changed data had: no ETag stands for both.
      assert.notEqual(now.etag, changed.etag);
      assert.notEqual(now.etag, before.etag);
      const { rows } = await client.query("SELECT value FROM meta WHERE key = 'data_version'");
      assert.ok(Number(rows[0].value) > Number(version) + 1, `version ${rows[0].value}`);
    } finally {
      await client.end();
      await service.close();
    }
  });
});

describe('the query sandbox on PostgreSQL', { skip }, () => {
  let service: TestService;
  const DATA = [
    observation('ecb', 'USD', '2024-03-18T15:00:00Z', 1.0872),
    observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
  ];
  const query = (sql: string) =>
    getJson(service.app, `/v1/exchangerate/query?q=${encodeURIComponent(sql)}`);
  const intact = async () =>
    assert.deepEqual(
      await readRows(
        service.store,
        'SELECT source, symbol, rate FROM observations ORDER BY symbol',
      ),
      [
        ['ecb', 'JPY', 163.2],
        ['ecb', 'USD', 1.0872],
      ],
    );

  before(async () => {
    service = await startService(
      { query: { timeoutMs: 1_500, maxRows: 1000 } },
      { engine: 'postgres' },
    );
    await service.store.writeObservations(DATA);
    await service.store.saveIngestState({
      source: 'ecb',
      lastAttempt: new Date(),
      lastSuccess: new Date(),
      lastError: null,
      completeThrough: '2024-03-19',
      lastRunStored: 2,
      lastRunDropped: 0,
    });
    await service.store.startSandbox();
  });
  after(() => service?.close());

  const refused: [string, string][] = [
    ['the meta table', 'SELECT * FROM meta'],
    ['the ingest state', 'SELECT * FROM ingest_status'],
    ['the query role password', 'SELECT * FROM sandbox_credentials'],
    ['the migrations table', 'SELECT * FROM fxrates_migrations'],
    ['pg_authid', 'SELECT rolname, rolpassword FROM pg_authid'],
    ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
    ['pg_ls_dir', "SELECT * FROM pg_ls_dir('.')"],
    ['lo_import', "SELECT lo_import('/etc/passwd')"],
    ['COPY TO PROGRAM', "COPY observations TO PROGRAM 'touch /tmp/fxrates-owned'"],
    ['dblink', "SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS t(x int)"],
    ['becoming the service user', "SELECT set_config('role', 'fxrates', false)"],
    ['SET LOCAL', "SET LOCAL statement_timeout = '1h'"],
    ['a write through a CTE', 'WITH d AS (DELETE FROM observations RETURNING 1) SELECT * FROM d'],
    ['a temporary table', 'SELECT * INTO TEMP stolen FROM observations'],
    ['two statements', 'SELECT 1; DELETE FROM observations'],
    ['a semicolon inside an expression', 'SELECT (1; )'],
    ['a row too large to send', "SELECT repeat('x', 5000000)"],
  ];
  for (const [name, sql] of refused) {
    test(`refused with 400, data intact: ${name}`, async () => {
      const { status, body } = await query(sql);
      assert.equal(status, 400, `${sql}: ${JSON.stringify(body)}`);
      assert.equal(body.status, 'error');
      // Said as on DuckDB, not in terms of PostgreSQL's protocol.
      if (name === 'two statements')
        assert.equal(body.error, 'exactly one statement, a read-only SELECT, is allowed');
      if (name === 'a semicolon inside an expression')
        assert.match(body.error, /^syntax error at or near ";"/);
      await intact();
    });
  }

  test('the role reads observations and sources, with the same values as every engine', async () => {
    const { status, body } = await query(
      `SELECT o.symbol, o.observation_time, CAST(o.observation_time AS DATE) AS day, o.rate, s.relative_currency
       FROM observations AS o JOIN sources AS s ON s.key = o.source ORDER BY o.symbol`,
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.rows[0], {
      symbol: 'JPY',
      observation_time: '2024-03-19T15:00:00.000Z',
      day: '2024-03-19',
      rate: 163.2,
      relative_currency: 'EUR',
    });
  });

  test('pg_sleep is stopped at the limit, others are answered meanwhile; a statement cannot lift its own timeout', async () => {
    const lifted = await query("SELECT set_config('statement_timeout', '0', true), pg_sleep(60)");
    assert.equal(lifted.status, 400);
    assert.match(lifted.body.error, /set_config is not allowed/);
    for (const sql of ['SELECT pg_sleep(60)']) {
      const started = Date.now();
      const slow = query(sql);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const other = await getJson(service.app, '/v1/exchangerate/2024-03-19?symbols=JPY');
      assert.equal(other.status, 200);
      assert.ok(Date.now() - started < 1_500, 'answered while the slow statement runs');
      const { status, body } = await slow;
      assert.equal(status, 503, JSON.stringify(body));
      assert.match(body.error, /time limit/);
      assert.ok(Date.now() - started < 6_000, `stopped after ${Date.now() - started} ms`);
    }
    const after = await query('SELECT count(*) AS n FROM observations');
    assert.equal(after.status, 200, 'the sandbox answers again');
    await intact();
  });

  test('a temporary-file bomb is stopped, the database intact', async () => {
    const { status } = await query(
      'SELECT count(DISTINCT md5(CAST(a AS text) || CAST(b AS text))) FROM generate_series(1, 200000) AS a, generate_series(1, 200) AS b',
    );
    assert.ok(status === 400 || status === 503, `status ${status}`);
    await intact();
  });
});

test('query role names of different databases and schemas never meet', () => {
  const names = [
    queryRole('fx'),
    queryRole('fx_eu'),
    queryRole('fx', 'eu'),
    queryRole('fx_eu', 'public'),
    queryRole('exchange_rates_production_cluster_01', 'tenant_europe_west'),
    queryRole('exchange_rates_production_cluster_01', 'tenant_europe_east'),
  ];
  assert.equal(names[0], 'fxrates_query_fx');
  assert.equal(names[3], names[1]);
  assert.equal(new Set(names).size, names.length - 1);
  for (const name of names) assert.ok(name.length <= 63, name);
});

describe('two deployments in one database, each in its own schema', { skip }, () => {
  test('each holds its own ingest lease and has its own query role, which reads its own schema only', async () => {
    const cluster = await postgresCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    const database = `schemas_${Date.now()}`;
    const users = ['fxa', 'fxb'].map((user) => `${user}_${Date.now()}`);
    await admin.query(`CREATE DATABASE ${database}`);
    const stores: Store[] = [];
    try {
      const inDatabase = new URL(cluster.adminUrl);
      inDatabase.pathname = `/${database}`;
      const setup = new pg.Client({ connectionString: inDatabase.toString() });
      await setup.connect();
      for (const user of users) {
        await setup.query(`CREATE ROLE ${user} LOGIN CREATEROLE`);
        // Each user's default search_path ("$user", public) finds its own schema first.
        await setup.query(`CREATE SCHEMA ${user} AUTHORIZATION ${user}`);
      }
      await setup.end();
      const urls = users.map((user) => {
        const url = new URL(inDatabase);
        url.username = user;
        return url.toString();
      });
      for (const url of urls) stores.push(await openServiceStore(url));
      const [a, b] = stores as [Store, Store];
      await a.writeObservations([observation('ecb', 'USD', '2024-03-15T15:00:00Z', 1.0887)]);

      // Both within seconds: one lease would keep the other waiting (and fail here).
      const holding = { signal: AbortSignal.timeout(5_000) };
      await Promise.all([
        a.ingestLease.acquire(holding.signal),
        b.ingestLease.acquire(holding.signal),
      ]);
      assert.equal(a.ingestLease.held(), true);
      assert.equal(b.ingestLease.held(), true);

      const appB = await buildApp({ store: b });
      try {
        const own = await getJson(
          appB,
          `/v1/exchangerate/query?q=${encodeURIComponent('SELECT count(*) AS n FROM observations')}`,
        );
        assert.equal(own.status, 200, JSON.stringify(own.body));
        assert.deepEqual(own.body.rows, [{ n: 0 }]);
        const other = await getJson(
          appB,
          `/v1/exchangerate/query?q=${encodeURIComponent(`SELECT count(*) AS n FROM ${users[0]}.observations`)}`,
        );
        assert.equal(other.status, 400, JSON.stringify(other.body));
        assert.match(other.body.error, /permission denied/);
      } finally {
        await appB.close();
      }
    } finally {
      for (const store of stores) await store.close();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      for (const user of users) {
        await admin
          .query(`DROP ROLE IF EXISTS ${queryRole(database, user)}`)
          .catch(() => undefined);
        await admin.query(`DROP ROLE IF EXISTS ${user}`).catch(() => undefined);
      }
      await admin.end();
    }
  });
});

describe('a database user that may not create roles', { skip }, () => {
  test('the query endpoint answers 503 with the SQL an administrator must run; with it, queries run', async () => {
    const cluster = await postgresCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    const name = `limited_${Date.now()}`;
    const url = new URL(cluster.adminUrl);
    url.username = name;
    url.pathname = `/${name}`;
    await admin.query(`CREATE ROLE ${name} LOGIN NOCREATEROLE NOSUPERUSER`);
    await admin.query(`CREATE DATABASE ${name} OWNER ${name}`);
    const stores: Store[] = [];
    try {
      const store = await openServiceStore(url.toString());
      stores.push(store);
      const app = await buildApp({ store });
      const refused = await getJson(app, '/v1/exchangerate/query?q=SELECT%201');
      assert.equal(refused.status, 503);
      const sql = adminSqlIn(refused.body.error);
      assert.match(
        sql,
        new RegExp(`^CREATE ROLE fxrates_query_${name} LOGIN PASSWORD '<choose one>'`),
      );
      await app.close();

      // The administrator runs it (as the database owner's superuser) and gives the URL.
      const database = new pg.Client({ connectionString: url.toString().replace(name, 'fxrates') });
      await database.connect();
      for (const statement of sql.replace('<choose one>', 'chosen').split('; ')) {
        await database.query(statement);
      }
      await database.end();
      const queryUrl = new URL(url);
      queryUrl.username = `fxrates_query_${name}`;
      queryUrl.password = 'chosen';
      const granted = await openServiceStore(url.toString(), { queryUrl: queryUrl.toString() });
      stores.push(granted);
      const served = await buildApp({ store: granted });
      const answer = await getJson(
        served,
        '/v1/exchangerate/query?q=SELECT%20count(*)%20AS%20n%20FROM%20sources',
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const meta = await getJson(served, '/v1/exchangerate/query?q=SELECT%20*%20FROM%20meta');
      assert.equal(meta.status, 400);
      await served.close();
    } finally {
      for (const store of stores) await store.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS fxrates_query_${name}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${name}`);
      await admin.end();
    }
  });
});

describe('the time limit when the service user is not a superuser', { skip }, () => {
  // Only a superuser, or a member of the query role, may cancel the query role's statements.
  const LIMIT_MS = 1_500;
  const query = (sql: string): string => `/v1/exchangerate/query?q=${encodeURIComponent(sql)}`;
  let made = 0;

  /** The service's user (its URL and name), and a superuser's URL of the same database. */
  interface ServiceUser {
    url: URL;
    name: string;
    superuser: string;
  }

  /** A login role owning a database of its own, as `createdb` leaves it; both dropped after. */
  async function asServiceUser(
    createRole: boolean,
    body: (user: ServiceUser) => Promise<void>,
  ): Promise<void> {
    const cluster = await postgresCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    const name = `limited_${Date.now()}_${made++}`;
    const url = new URL(cluster.adminUrl);
    url.username = name;
    url.pathname = `/${name}`;
    await admin.query(
      `CREATE ROLE ${name} LOGIN NOSUPERUSER ${createRole ? 'CREATEROLE' : 'NOCREATEROLE'}`,
    );
    await admin.query(`CREATE DATABASE ${name} OWNER ${name}`);
    const superuser = new URL(cluster.adminUrl);
    superuser.pathname = `/${name}`;
    try {
      await body({ url, name, superuser: superuser.toString() });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS fxrates_query_${name}`);
      await admin.query(`DROP ROLE IF EXISTS ${name}`);
      await admin.end();
    }
  }

  /** Runs the SQL the 503 gives an administrator, as a superuser; returns FXRATES_QUERY_DB. */
  async function runAdminSql(
    { url, name, superuser }: ServiceUser,
    keep: (statement: string) => boolean = () => true,
  ): Promise<string> {
    const store = await openServiceStore(url.toString());
    try {
      const app = await buildApp({ store });
      const refused = await getJson(app, query('SELECT 1'));
      await app.close();
      assert.equal(refused.status, 503);
      const sql = adminSqlIn(refused.body.error);
      const database = new pg.Client({ connectionString: superuser });
      await database.connect();
      try {
        for (const statement of sql.replace('<choose one>', 'chosen').split('; ')) {
          if (keep(statement)) await database.query(statement);
        }
      } finally {
        await database.end();
      }
    } finally {
      await store.close();
    }
    const queryUrl = new URL(url);
    queryUrl.username = `fxrates_query_${name}`;
    queryUrl.password = 'chosen';
    return queryUrl.toString();
  }

  /** The backends still running `sql`, as a superuser sees them. */
  async function running({ name, superuser }: ServiceUser, sql: string): Promise<number> {
    const client = new pg.Client({ connectionString: superuser });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE usename = $1 AND state = 'active' AND query LIKE $2`,
        [`fxrates_query_${name}`, `%${sql}%`],
      );
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  }

  /**
   * pg_sleep(30) gets 503 within a few seconds, twice, its backend stops soon after, and a
   * quick statement then runs.
   */
  async function assertStoppedAtLimit(user: ServiceUser, queryUrl?: string): Promise<string[]> {
    const warnings: string[] = [];
    const store = await openServiceStore(user.url.toString(), {
      queryUrl,
      warn: (message) => warnings.push(message),
    });
    const app = await buildApp({ store, query: { timeoutMs: LIMIT_MS } });
    try {
      for (let attempt = 1; attempt <= 2; attempt++) {
        const started = Date.now();
        const slow = await getJson(app, query('SELECT pg_sleep(30)'));
        const elapsed = Date.now() - started;
        assert.equal(slow.status, 503, JSON.stringify(slow.body));
        assert.match(slow.body.error, /time limit/);
        assert.ok(elapsed < LIMIT_MS + 3_000, `attempt ${attempt} stopped after ${elapsed} ms`);
        let left = await running(user, 'pg_sleep(30)');
        for (let tries = 0; left > 0 && tries < 20; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          left = await running(user, 'pg_sleep(30)');
        }
        assert.equal(left, 0, `attempt ${attempt}: the statement still runs in PostgreSQL`);
        const quick = await getJson(app, query('SELECT count(*) AS n FROM sources'));
        assert.equal(quick.status, 200, JSON.stringify(quick.body));
        assert.ok(quick.body.rows[0].n > 0);
      }
    } finally {
      await app.close();
      await store.close();
    }
    return warnings;
  }

  test('with CREATEROLE (the service makes the query role): pg_sleep(30) gets 503 at the limit', async () => {
    await asServiceUser(true, async (user) => {
      const warnings = await assertStoppedAtLimit(user);
      assert.deepEqual(
        warnings.filter((message) => /cancel|time limit/.test(message)),
        [],
        'the cancel is allowed',
      );
    });
  });

  test('without CREATEROLE (an administrator runs the SQL the 503 gives): pg_sleep(30) gets 503 at the limit', async () => {
    await asServiceUser(false, async (user) => {
      const queryUrl = await runAdminSql(user);
      const warnings = await assertStoppedAtLimit(user, queryUrl);
      assert.deepEqual(
        warnings.filter((message) => /cancel|time limit/.test(message)),
        [],
        'the cancel is allowed',
      );
    });
  });

  test('a query role the service user may not signal (made without its GRANT): still 503 at the limit, with one warning', async () => {
    await asServiceUser(false, async (user) => {
      const { name } = user;
      const queryUrl = await runAdminSql(
        user,
        (statement) => !statement.startsWith(`GRANT fxrates_query_${name} TO`),
      );
      const warnings = await assertStoppedAtLimit(user, queryUrl);
      const cancels = warnings.filter((message) => /cancel/.test(message));
      assert.equal(cancels.length, 1, JSON.stringify(warnings));
      assert.match(cancels[0]!, new RegExp(`GRANT "fxrates_query_${name}" TO "${name}"$`));
    });
  });
});

describe('fxrates copy between engines', { skip }, () => {
  test('DuckDB -> PostgreSQL -> DuckDB keeps every observation bit for bit; a second copy changes nothing', async () => {
    // Doubles whose shortest text is long or tiny, and times to the millisecond.
    const data: Observation[] = [];
    for (let day = 1; day <= 28; day++) {
      const time = `2024-02-${String(day).padStart(2, '0')}T15:00:00.${String(day * 7).padStart(3, '0')}Z`;
      data.push(observation('ecb', 'USD', time, 1 / (day + 2)));
      data.push(observation('imf', 'EUR', time, 0.1 + 0.2 * day));
      data.push(observation('cbr', 'XAU', time, 1.7976931348623157e-300 * day));
    }
    const dbs = await Promise.all([
      freshDatabase('duckdb'),
      freshDatabase('postgres'),
      freshDatabase('duckdb'),
    ]);
    const stores: Store[] = [];
    try {
      for (const db of dbs) stores.push(await openServiceStore(db.location));
      const [first, shared, last] = stores as [Store, Store, Store];
      await first.writeObservations(data);
      const state = {
        source: 'ecb',
        lastAttempt: new Date('2024-02-28T15:30:00.000Z'),
        lastSuccess: new Date('2024-02-28T15:30:00.000Z'),
        lastError: null,
        completeThrough: '2024-02-28',
        lastRunStored: 28,
        lastRunDropped: 1,
      };
      await first.saveIngestState(state);
      const there = await copyStore(first, shared);
      assert.deepEqual(Object.fromEntries(there.perSource), { ecb: 28, imf: 28, cbr: 28 });
      assert.equal(there.stored, 84);
      assert.equal((await copyStore(first, shared)).stored, 0, 'resumed copy writes nothing');
      await copyStore(shared, last);
      const all = 'SELECT source, symbol, observation_time, rate FROM observations';
      const sorted = async (store: Store) =>
        (await readRows(store, all)).map((row) => JSON.stringify(row)).sort();
      assert.deepEqual(await sorted(last), await sorted(first));
      assert.deepEqual((await last.ingestStates()).get('ecb'), state);
    } finally {
      for (const store of stores) await store.close();
      for (const db of dbs) await db.dispose();
    }
  });
});
