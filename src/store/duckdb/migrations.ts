/** The observations table without a key, its rows kept in time order (see step 3). */
export const OBSERVATIONS_BY_TIME = `CREATE TABLE observations_by_time (
    source VARCHAR NOT NULL,
    symbol VARCHAR NOT NULL,
    observation_time TIMESTAMP NOT NULL,
    rate DOUBLE NOT NULL CHECK (rate > 0 AND isfinite(rate))
  )`;

/**
 * Schema steps, applied in order on open; `meta.schema_version` records how many ran.
 * Append new steps, never edit old ones: existing database files have already run them.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sources (
    key VARCHAR PRIMARY KEY,
    name VARCHAR NOT NULL,
    relative_currency VARCHAR NOT NULL,
    url VARCHAR NOT NULL,
    is_dst BOOLEAN NOT NULL,
    default_precedence INTEGER NOT NULL
  );
  CREATE TABLE observations (
    source VARCHAR NOT NULL,
    symbol VARCHAR NOT NULL,
    observation_time TIMESTAMP NOT NULL,
    rate DOUBLE NOT NULL CHECK (rate > 0 AND isfinite(rate)),
    PRIMARY KEY (source, symbol, observation_time)
  );`,
  `CREATE TABLE ingest_status (
    source VARCHAR PRIMARY KEY,
    last_attempt TIMESTAMP,
    last_success TIMESTAMP,
    last_error VARCHAR,
    complete_through DATE,
    last_run_stored BIGINT NOT NULL DEFAULT 0,
    last_run_dropped BIGINT NOT NULL DEFAULT 0
  );`,
  // DuckDB keeps a key's ART index in memory (it must fit there), and maintaining it made bulk
  // imports slow and their memory grow with the data. The single writer keeps the key unique
  // by merging every write against the table (duckdb-store.ts), so the table goes without it,
  // its rows rewritten in time order, which lets date queries skip row groups.
  `${OBSERVATIONS_BY_TIME};
  INSERT INTO observations_by_time
    SELECT * FROM observations ORDER BY observation_time, source, symbol;
  DROP TABLE observations;
  ALTER TABLE observations_by_time RENAME TO observations;`,
];
