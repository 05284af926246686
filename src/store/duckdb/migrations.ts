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
];
