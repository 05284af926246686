import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { planRateRequest, type RatePath } from '../src/resolve/rate-request.js';
import { openServiceStore } from '../src/service-store.js';
import { everyDayStepped } from '../src/store/catalog.js';
import type { Catalog, Observation, Store } from '../src/store/store.js';
import {
  freshDatabase,
  observation,
  readRows,
  startService,
  type TestService,
} from './support/harness.js';

const TODAY = '2024-03-20';

/** Every statement of a plan, read in turn. */
async function answerRows(store: Store, statements: readonly string[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for (const sql of statements) rows.push(...(await readRows(store, sql)));
  return rows;
}

/** ecb (EUR-relative) and imf (USD-relative), once a day each, over a week. */
function week(): Observation[] {
  const rows: Observation[] = [];
  for (let day = 11; day <= 19; day++) {
    const date = `2024-03-${day}`;
    if (day === 16 || day === 17) continue;
    rows.push(
      observation('ecb', 'USD', `${date}T14:15:00Z`, 1.08 + day / 1000),
      observation('ecb', 'JPY', `${date}T14:15:00Z`, 160 + day / 10),
      observation('ecb', 'GBP', `${date}T14:15:00Z`, 0.85 + day / 10_000),
      observation('imf', 'JPY', `${date}T16:00:00Z`, 148 + day / 10),
      observation('imf', 'CHF', `${date}T16:00:00Z`, 0.88 + day / 10_000),
    );
  }
  return rows;
}

const REQUESTS: [RatePath, string][] = [
  [{ endpoint: 'date', date: '2024-03-18' }, 'sources=ecb&base=JPY'],
  [{ endpoint: 'date', date: '2024-03-17' }, 'sources=ecb,imf&base=GBP&max_sources_per_symbol=2'],
  [{ endpoint: 'latest' }, 'sources=imf,ecb&base=CHF'],
  [{ endpoint: 'range', start: '2024-03-12', end: '2024-03-19' }, 'sources=ecb,imf&base=JPY'],
  [{ endpoint: 'range', start: '2024-03-12', end: '2024-03-19' }, 'sources=ecb&base=USD'],
  [{ endpoint: 'all' }, 'sources=ecb,imf&base=USD&aggregation=week'],
];

/**
 * A source that never observed a symbol twice on one day is read without the step that takes
 * each day's first or last observation (rates-sql.ts, legsOf). The answers are those of the
 * statements with the step; a write that gives such a source a second observation of a day
 * while a request planned before it runs changes nothing of that answer either.
 */
describe('sources observing once a day (DuckDB)', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
    await service.store.writeObservations(week());
  });
  after(() => service.close());

  const plan = (catalog: Catalog, [path, query]: [RatePath, string]) =>
    planRateRequest(path, query, catalog, service.store.dialect, TODAY);

  test('their legs have no step per day, another source keeps its step, and the answers are those of the statements with the step', async () => {
    const once = await service.store.catalog();
    assert.equal(once.get('ecb')?.oneObservationPerDay, true);
    const sql = plan(once, REQUESTS[0]!).sql;
    assert.doesNotMatch(sql, /GROUP BY ALL/);
    assert.match(plan(everyDayStepped(once), REQUESTS[0]!).sql, /GROUP BY ALL/);
    for (const request of REQUESTS) {
      const plain = plan(once, request);
      assert.equal(plain.assumesOneObservationPerDay, true);
      const stepped = plan(everyDayStepped(once), request);
      assert.equal(stepped.assumesOneObservationPerDay, false);
      assert.notEqual(plain.sql, stepped.sql);
      const rows = await answerRows(service.store, plain.statements);
      assert.ok(rows.length > 0, request[1]);
      assert.deepEqual(rows, await answerRows(service.store, stepped.statements), request[1]);
    }

    // imf observes CHF twice on the 19th: its legs get the step again, ecb's not.
    await service.store.writeObservations([observation('imf', 'CHF', '2024-03-19T20:00:00Z', 0.9)]);
    const mixed = await service.store.catalog();
    assert.equal(mixed.get('imf')?.oneObservationPerDay, false);
    assert.equal(mixed.get('ecb')?.oneObservationPerDay, true);
    const both = plan(mixed, REQUESTS[3]!);
    assert.match(
      both.sql,
      /UNION ALL\n {4}SELECT CASE o\.source [^\n]* AS priority, o\.symbol, CAST\(o\.observation_time AS DATE\) AS day,\n {6}arg_min/,
    );
    for (const request of REQUESTS) {
      assert.deepEqual(
        await answerRows(service.store, plan(mixed, request).statements),
        await answerRows(service.store, plan(everyDayStepped(mixed), request).statements),
        request[1],
      );
    }
  });

  test('a second observation of a day stored after the catalog was read: the answer is the one with the step', async () => {
    const stale = await service.store.catalog();
    assert.equal(stale.get('ecb')?.oneObservationPerDay, true);
    // ecb observes USD again on the 18th, later that day and at another rate.
    await service.store.writeObservations([observation('ecb', 'USD', '2024-03-18T18:00:00Z', 1.2)]);
    assert.equal(service.store.sharedDaysSince(stale), true);
    const range: [RatePath, string] = [
      { endpoint: 'range', start: '2024-03-15', end: '2024-03-19' },
      'sources=ecb&base=EUR&symbols=USD,JPY',
    ];
    // What the statement planned on the old catalog reads now: two USD rows on the 18th.
    const planned = await answerRows(service.store, plan(stale, range).statements);
    assert.equal(
      planned.filter(([date, symbol]) => date === '2024-03-18' && symbol === 'USD').length,
      2,
    );

    // A service that plans on the old catalog, as one whose request was planned before the write.
    const planningBefore = new Proxy(service.store, {
      get(store, property) {
        if (property === 'catalog') return async () => stale;
        const value = Reflect.get(store, property, store) as unknown;
        return typeof value === 'function' ? value.bind(store) : value;
      },
    });
    const late = await buildApp({ store: planningBefore, today: () => TODAY });
    try {
      for (const url of [
        '/v1/exchangerate/2024-03-15/2024-03-19?sources=ecb&base=EUR&symbols=USD,JPY',
        '/v1/exchangerate/2024-03-18?sources=ecb&base=USD',
        '/v1/exchangerate/all?sources=ecb&base=JPY',
      ]) {
        const answer = await late.inject({ method: 'GET', url });
        const current = await service.app.inject({ method: 'GET', url });
        assert.equal(answer.statusCode, 200, url);
        assert.equal(answer.body, current.body, url);
      }
      const oneDate = JSON.parse(
        (
          await late.inject({
            method: 'GET',
            url: '/v1/exchangerate/2024-03-18?sources=ecb&base=EUR',
          })
        ).body,
      );
      // The day's first observation, as always (observation_time_selection=earliest).
      assert.equal(oneDate.rates.USD.rate, 1.098);
    } finally {
      await late.close();
    }
  });
});

test('DuckDB: a store opened again knows which sources observed a symbol twice on one day', async () => {
  const database = await freshDatabase('duckdb');
  try {
    const first = await openServiceStore(database.location);
    await first.writeObservations([
      observation('ecb', 'USD', '2024-03-18T14:15:00Z', 1.09),
      observation('ecb', 'USD', '2024-03-18T17:00:00Z', 1.091),
      observation('imf', 'JPY', '2024-03-18T16:00:00Z', 149),
    ]);
    await first.close();
    const again = await openServiceStore(database.location);
    try {
      const catalog = await again.catalog();
      assert.equal(catalog.get('ecb')?.oneObservationPerDay, false);
      assert.equal(catalog.get('imf')?.oneObservationPerDay, true);
    } finally {
      await again.close();
    }
  } finally {
    await database.dispose();
  }
});
