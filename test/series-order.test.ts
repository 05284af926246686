import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { planRateRequest } from '../src/resolve/rate-request.js';
import {
  duckdbDialect,
  duckdbDialectByText,
  duckdbDialectOf,
  seriesKeysCollide,
  type SeriesKey,
} from '../src/store/duckdb/dialect.js';
import type { SqlDialect } from '../src/store/store.js';
import { observation, readRows, startService, type TestService } from './support/harness.js';

/**
 * DuckDB sorts a range's series by their source's priority and the hash of their symbol
 * (dialect.ts, seriesHash). The rows are those of the series sorted by their texts; two series
 * with one sort key stop the statement rather than answer wrong, and a store holding two symbols
 * with one hash sorts by the texts.
 */
describe('range windows sorted by a key of each series (DuckDB)', () => {
  let service: TestService;
  // The ECB (EUR) and the Bank of Canada (CAD), on days with gaps of their own, so that pairs
  // cover the days after them up to the next pair of their series.
  const days = ['2024-03-04', '2024-03-05', '2024-03-07', '2024-03-08', '2024-03-11', '2024-03-13'];
  before(async () => {
    service = await startService({}, { engine: 'duckdb' });
    await service.store.writeObservations(
      days
        .flatMap((day, index) => [
          ...['USD', 'JPY', 'GBP', 'CHF'].map((symbol, position) =>
            index % (position + 2) === 0
              ? []
              : [observation('ecb', symbol, `${day}T14:15:00Z`, 1 + position / 3 + index / 97)],
          ),
          ...(index % 2 === 0
            ? [
                [observation('boc', 'USD', `${day}T20:30:00Z`, 1.35 + index / 89)],
                [observation('boc', 'EUR', `${day}T20:30:00Z`, 1.47 + index / 83)],
              ]
            : []),
        ])
        .flat(),
    );
  });
  after(() => service.close());

  // Every currency code is three letters long: with its length as the key, all series share it.
  const codeLength: SeriesKey = (symbol) => `length(${symbol})`;

  const statement = async (dialect: SqlDialect, query: string): Promise<string> => {
    const catalog = await service.store.catalog();
    return planRateRequest(
      { endpoint: 'range', start: '2024-03-05', end: '2024-03-13' },
      query,
      catalog,
      dialect,
      '2024-03-20',
    ).statements[0]!;
  };

  test('the rows are those of the series sorted by their texts, over one source and several', async () => {
    const queries = [
      'sources=ecb&base=JPY',
      'sources=ecb&base=EUR',
      'sources=ecb,boc&base=GBP',
      'sources=boc,ecb&base=USD&max_sources_per_symbol=2',
      'sources=ecb,boc&base=CHF&symbols=USD,EUR,CAD&up_to_days_before=2',
    ];
    for (const query of queries) {
      const byHash = await statement(duckdbDialect, query);
      const byText = await statement(duckdbDialectByText, query);
      assert.match(byHash, /WINDOW w AS \(ORDER BY (priority, )?hash\(symbol\), day\)/, query);
      assert.doesNotMatch(byText, /hash\(/, query);
      const rows = await readRows(service.store, byText);
      assert.ok(rows.length > 3, query);
      assert.deepEqual(await readRows(service.store, byHash), rows, query);
    }
  });

  test('two series with one sort key stop the statement with an error naming them', async () => {
    const sql = await statement(duckdbDialectOf(codeLength), 'sources=ecb&base=JPY');
    await assert.rejects(
      readRows(service.store, sql),
      /two series share a sort key: [A-Z]{3}, [A-Z]{3}/,
    );
  });

  test('the store sorts by hash while no two series it holds share one', async () => {
    const collide = async (key?: SeriesKey): Promise<unknown> => {
      const held = '(SELECT DISTINCT source, symbol FROM observations)';
      const [[value]] = (await readRows(
        service.store,
        `SELECT (${seriesKeysCollide(held, key)})`,
      )) as [[unknown]];
      return value;
    };
    assert.equal(await collide(), false);
    assert.equal(await collide(codeLength), true);
    await service.store.catalog();
    assert.equal(service.store.dialect, duckdbDialect);
  });
});
