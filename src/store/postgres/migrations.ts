/**
 * Schema steps, applied in order on open under an advisory lock (so replicas starting together
 * take turns); `fxrates_migrations` records each step applied. Append new steps, never edit old
 * ones: existing databases have already run them. Times are UTC `timestamp` (the sessions are
 * pinned to UTC), so `CAST(observation_time AS DATE)` is the UTC date.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (key text PRIMARY KEY, value bigint NOT NULL);
  INSERT INTO meta VALUES ('data_version', 0);
  CREATE TABLE sources (
    key text PRIMARY KEY,
    name text NOT NULL,
    relative_currency text NOT NULL,
    url text NOT NULL,
    is_dst boolean NOT NULL,
    default_precedence integer NOT NULL
  );
  CREATE TABLE observations (
    source text NOT NULL,
    symbol text NOT NULL,
    observation_time timestamp NOT NULL,
    rate double precision NOT NULL CHECK (rate > 0 AND rate < 'Infinity'),
    PRIMARY KEY (source, symbol, observation_time)
  );
  CREATE INDEX observations_by_time ON observations (observation_time, source) INCLUDE (symbol, rate);
  CREATE TABLE ingest_status (
    source text PRIMARY KEY,
    last_attempt timestamp,
    last_success timestamp,
    last_error text,
    complete_through date,
    last_run_stored bigint NOT NULL DEFAULT 0,
    last_run_dropped bigint NOT NULL DEFAULT 0
  );
  CREATE TABLE sandbox_credentials (role text PRIMARY KEY, password text NOT NULL);
  REVOKE ALL ON sandbox_credentials FROM PUBLIC;`,
  // Sources and symbols compare as bytes, as on DuckDB, whatever the database's collation: the
  // statements sort and group by them, and a locale's collation compares through the C library
  // or ICU where "C" compares the bytes. The same rows in the same order (the codes are ASCII);
  // the ECB history's statements took 0.84-0.89 of the time against an ICU en-US collation,
  // 0.93-0.99 against C.UTF-8. The codes of the other tables follow, so that a query may still
  // join them. Changing a column's type drops its statistics: they are gathered again.
  `ALTER TABLE observations
    ALTER COLUMN source TYPE text COLLATE "C",
    ALTER COLUMN symbol TYPE text COLLATE "C";
  ALTER TABLE sources
    ALTER COLUMN key TYPE text COLLATE "C",
    ALTER COLUMN relative_currency TYPE text COLLATE "C";
  ALTER TABLE ingest_status ALTER COLUMN source TYPE text COLLATE "C";
  ANALYZE observations;`,
];

/** The tables the schema steps create: on a database without fxrates, these names must be free. */
export const FXRATES_TABLES: readonly string[] = MIGRATIONS.flatMap((step) =>
  [...step.matchAll(/CREATE TABLE (\w+)/g)].map((match) => match[1]!),
);

/** Key of the advisory lock migrations run under. */
export const MIGRATION_LOCK = 7_351_001;
/** Key of the advisory lock the ingesting replica holds. */
export const INGEST_LOCK = 7_351_002;
/** Key of the advisory lock under which replicas set up the query role, one at a time. */
export const ROLE_LOCK = 7_351_003;

/** An advisory lock of one deployment, as SQL: see advisoryLock. */
export interface AdvisoryLock {
  /** The arguments of pg_advisory_lock and its kin, as $1 (and $2). */
  args: string;
  /** The pg_locks condition (table alias `l`) that matches the lock held, with the same parameters. */
  held: string;
  params: (number | string)[];
}

/**
 * Lock `key` of the deployment in `schema`. Deployments in other schemas of one database have
 * locks of their own: the key with the hash of the schema's name (the two-key form). The
 * `public` schema's locks are the key alone, as they always were.
 */
export function advisoryLock(key: number, schema: string): AdvisoryLock {
  return schema === 'public'
    ? { args: '$1', held: 'l.classid = 0 AND l.objid = $1 AND l.objsubid = 1', params: [key] }
    : {
        args: '$1, hashtext($2)',
        held: 'l.classid = $1 AND l.objid = hashtext($2)::oid AND l.objsubid = 2',
        params: [key, schema],
      };
}
