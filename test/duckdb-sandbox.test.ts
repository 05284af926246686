import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { limitsRefusal } from '../src/store/duckdb/sandbox.js';
import { disallowedReferences } from '../src/store/duckdb/sql-allow-list.js';

/**
 * The query endpoint's allow list on DuckDB's parse trees, with the parser the sandbox uses:
 * a CTE name is a table of the statement only where DuckDB binds it as one.
 */
describe('DuckDB allow list: CTE names in their scope only', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  before(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
  });
  after(() => {
    connection.closeSync();
    instance.closeSync();
  });

  const problems = async (sql: string): Promise<string[]> => {
    const reader = await connection.runAndReadAll(
      'SELECT json_serialize_sql(CAST($1 AS VARCHAR))',
      [sql],
    );
    return disallowedReferences(JSON.parse(String(reader.getRows()[0]![0])));
  };

  const allowed = [
    'WITH a AS (SELECT symbol FROM observations) SELECT * FROM a',
    'WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT * FROM b JOIN a USING (x)',
    'WITH RECURSIVE n AS (SELECT 1 AS x UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT * FROM n',
    'SELECT * FROM (WITH a AS (SELECT 1 AS x) SELECT * FROM a) AS t',
    'WITH a AS (SELECT 1 AS x) SELECT * FROM a WHERE x IN (SELECT x FROM a)',
    'WITH a AS (SELECT 1 AS x) SELECT (WITH b AS (SELECT x FROM a) SELECT max(x) FROM b)',
  ];
  for (const sql of allowed) {
    test(`allowed: ${sql}`, async () => {
      assert.deepEqual(await problems(sql), []);
    });
  }

  const refused: [string, string][] = [
    [
      'a name from a subquery WITH read outside that subquery (DuckDB reads its catalog table)',
      'SELECT d.path FROM duckdb_databases AS d WHERE EXISTS (WITH duckdb_databases AS (SELECT 1) SELECT 1)',
    ],
    [
      'a CTE that reads its own name without RECURSIVE (the catalog table)',
      'WITH duckdb_tables AS (SELECT * FROM duckdb_tables) SELECT * FROM duckdb_tables',
    ],
    [
      'a CTE that reads a later CTE of the same WITH',
      'WITH a AS (SELECT * FROM sqlite_master), sqlite_master AS (SELECT 1) SELECT * FROM a',
    ],
    [
      'a name from one branch of a UNION read in the other',
      'SELECT * FROM (WITH duckdb_settings AS (SELECT 1) SELECT 1) UNION ALL SELECT 1 FROM duckdb_settings',
    ],
  ];
  for (const [name, sql] of refused) {
    test(`refused: ${name}`, async () => {
      const found = await problems(sql);
      assert.ok(
        found.some((problem) => /^table .* is not allowed/.test(problem)),
        JSON.stringify(found),
      );
    });
  }
});

describe('DuckDB query sandbox: its limits said as limits', () => {
  test('out of memory and out of temporary storage name the limit, not the engine', () => {
    assert.equal(
      limitsRefusal(
        'Out of Memory Error: could not allocate block of size 256.0 KiB (250.0 MiB/256.0 MiB used)',
      ),
      'the statement needs more memory than the query sandbox allows (FXRATES_QUERY_MEMORY)',
    );
    assert.equal(
      limitsRefusal(
        'IO Error: Could not write file "/tmp/x/duckdb_temp_storage_DEFAULT-0.tmp": File too large',
      ),
      'the statement needs more temporary storage than the query sandbox allows',
    );
    assert.equal(limitsRefusal('Binder Error: column "x" not found'), undefined);
  });
});
