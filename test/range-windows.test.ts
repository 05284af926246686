import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { addDays } from '../src/dates.js';
import { LONG_LOOK_BACK_DAYS } from '../src/resolve/rates-sql.js';
import { periodStartOf, rangeWindows } from '../src/resolve/range-windows.js';
import { planRateRequest, WHOLE_ANSWER_ROWS } from '../src/resolve/rate-request.js';
import { duckdbDialect } from '../src/store/duckdb/dialect.js';
import type { RateQuery } from '../src/resolve/rate-query.js';
import type { Observation } from '../src/store/store.js';
import {
  dailyObservations,
  forEachEngine,
  madeUpSymbols,
  observation,
  startService,
  type TestService,
} from './support/harness.js';

const QUERY: RateQuery = {
  start: '2020-01-01',
  end: '2020-12-31',
  base: 'EUR',
  symbols: null,
  sources: [{ key: 'ecb', relativeCurrency: 'EUR', oneObservationPerDay: false }],
  upToDaysBefore: 4,
  maxSourcesPerSymbol: 1,
  selection: 'earliest',
  aggregation: 'day',
  startIsKey: true,
};

describe('reading an answer whole or streamed', () => {
  // The ECB holding 30 currencies (31 rows a day with EUR) from 2000 to 2019.
  const symbols = madeUpSymbols(30);
  const catalog = new Map([
    [
      'ecb',
      {
        symbols,
        firstDate: '2000-01-03',
        lastDate: '2019-12-31',
        observations: 155_000,
        oneObservationPerDay: true,
      },
    ],
  ]);
  const plan = (path: Parameters<typeof planRateRequest>[0], query = ''): boolean =>
    planRateRequest(path, `sources=ecb${query}`, catalog, duckdbDialect, '2024-01-01').readWhole;

  test('one date, and a range of at most WHOLE_ANSWER_ROWS rows, are read whole; longer ranges are streamed', () => {
    const days = Math.floor(WHOLE_ANSWER_ROWS / 31);
    assert.equal(plan({ endpoint: 'date', date: '2010-06-01' }), true);
    assert.equal(plan({ endpoint: 'latest' }), true);
    const end = (count: number): string => addDays('2010-01-01', count - 1);
    assert.equal(plan({ endpoint: 'range', start: '2010-01-01', end: end(days) }), true);
    assert.equal(plan({ endpoint: 'range', start: '2010-01-01', end: end(days + 1) }), false);
    // Fewer symbols make more days fit.
    assert.equal(
      plan({ endpoint: 'range', start: '2010-01-01', end: end(days * 10) }, '&symbols=AAX,BAX'),
      true,
    );
    assert.equal(plan({ endpoint: 'all' }), false);
  });

  test('only the days the sources hold count: a century around one held year is read whole', () => {
    const oneYear = new Map([
      [
        'ecb',
        {
          symbols,
          firstDate: '2019-01-01',
          lastDate: '2019-12-31',
          observations: 8_000,
          oneObservationPerDay: true,
        },
      ],
    ]);
    const whole = planRateRequest(
      { endpoint: 'range', start: '1950-01-01', end: '2049-12-31' },
      'sources=ecb',
      oneYear,
      duckdbDialect,
      '2024-01-01',
    );
    assert.equal(whole.statements.length, 1);
    assert.equal(whole.readWhole, true);
  });

  describe('over HTTP', () => {
    let service: TestService;
    let windowed: TestService;
    const calls = { whole: 0, streamed: 0 };
    before(async () => {
      service = await startService({ today: () => '2024-06-01' });
      windowed = await startService({ today: () => '2024-06-01', rowsPerWindow: 200 });
      // The 30 currencies and USD, each day: 32 rows a day with EUR.
      const observations = dailyObservations(30, 800, '2020-01-01');
      for (const each of [service, windowed]) await each.store.writeObservations(observations);
      // The app reads through this very store: its two ways of reading are counted.
      const { store } = service;
      const readColumns = store.readColumns.bind(store);
      const streamColumns = store.streamColumns.bind(store);
      store.readColumns = (sql) => (calls.whole++, readColumns(sql));
      store.streamColumns = (sql) => (calls.streamed++, streamColumns(sql));
    });
    after(async () => {
      await service?.close();
      await windowed?.close();
    });

    for (const [range, whole] of [
      ['2020-01-01/2020-12-31', true], // 366 days x 32 rows a day: 11,712
      ['2020-01-01/2021-12-31', false], // 731 days: 23,392
    ] as const) {
      test(`/${range}: ${whole ? 'read whole' : 'streamed'}, the answer of many windows`, async () => {
        calls.whole = calls.streamed = 0;
        const url = `/v1/exchangerate/${range}?base=EUR`;
        const [answer, cut] = await Promise.all([
          service.app.inject(url),
          windowed.app.inject(url),
        ]);
        assert.equal(answer.statusCode, 200);
        assert.ok(answer.body.length > 100_000);
        assert.equal(answer.body, cut.body);
        assert.deepEqual(calls, whole ? { whole: 1, streamed: 0 } : { whole: 0, streamed: 1 });
      });
    }
  });
});

describe('cutting a range into windows', () => {
  test('windows cover the range newest first, without gaps or overlaps; only the first day of the range is a key by itself', () => {
    const windows = rangeWindows(QUERY, 10, 300); // 30 days a window
    assert.equal(windows[0]!.end, '2020-12-31');
    assert.equal(windows.at(-1)!.start, '2020-01-01');
    for (let index = 1; index < windows.length; index++)
      assert.equal(addDays(windows[index]!.end, 1), windows[index - 1]!.start);
    assert.deepEqual(
      windows.map((window) => window.startIsKey),
      windows.map((_, index) => index === windows.length - 1),
    );
    assert.ok(windows.every((window) => window.start <= window.end));
    assert.equal(windows.length, Math.ceil(366 / 30));
  });

  test('with an aggregation, a window begins on a period start, so that no period is split', () => {
    for (const aggregation of ['week', 'month', 'quarter', 'year'] as const) {
      const windows = rangeWindows({ ...QUERY, start: '2019-06-13', aggregation }, 10, 400);
      for (const window of windows.slice(0, -1))
        assert.equal(periodStartOf(aggregation, window.start), window.start, aggregation);
      assert.equal(windows.at(-1)!.start, '2019-06-13');
    }
  });

  test('period starts as CONTRACT §4 has them', () => {
    assert.equal(periodStartOf('week', '2024-03-17'), '2024-03-11'); // a Sunday
    assert.equal(periodStartOf('week', '2024-03-11'), '2024-03-11');
    assert.equal(periodStartOf('quarter', '2024-08-30'), '2024-07-01');
    assert.equal(periodStartOf('decade', '2026-04-14'), '2020-01-01');
    assert.equal(periodStartOf('century', '2026-04-14'), '2000-01-01');
    assert.equal(periodStartOf('millennium', '1999-12-31'), '1000-01-01');
  });

  test('a range from the first day of the calendar ends, in every aggregation', () => {
    for (const aggregation of ['day', 'week', 'month', 'quarter', 'year', 'decade'] as const) {
      const query = { ...QUERY, start: '0001-01-01', end: '9999-12-31', aggregation };
      // 60,000 days a window (one symbol): the last one would begin 160 years before year 1.
      const windows = rangeWindows(query, 1, 60_000);
      assert.equal(windows.at(-1)!.start, '0001-01-01', aggregation);
      for (const window of windows) assert.match(window.start, /^\d{4}-\d{2}-\d{2}$/, aggregation);
      for (let index = 1; index < windows.length; index++)
        assert.equal(addDays(windows[index]!.end, 1), windows[index - 1]!.start, aggregation);
      assert.ok(windows.length <= Math.ceil(3_652_059 / 60_000) + 1, aggregation);
    }
  });

  test('dates outside those held join the newest and the oldest window', () => {
    const query = { ...QUERY, start: '1900-01-01', end: '2199-12-31' };
    const windows = rangeWindows(query, 10, 300, { first: '2020-01-01', last: '2020-12-31' });
    assert.equal(windows[0]!.end, '2199-12-31');
    assert.equal(windows.at(-1)!.start, '1900-01-01');
    for (let index = 1; index < windows.length; index++)
      assert.equal(addDays(windows[index]!.end, 1), windows[index - 1]!.start);
    assert.equal(windows.length, Math.ceil(366 / 30));
    assert.deepEqual(rangeWindows(query, 10, 300, null), [query]);
  });

  test('one day is one window', () => {
    assert.deepEqual(rangeWindows({ ...QUERY, end: QUERY.start }, 40), [
      { ...QUERY, end: QUERY.start },
    ]);
  });
});

/** Two years of two sources, with gaps, a missing symbol now and then and a second fixing. */
function history(): Observation[] {
  const rows: Observation[] = [];
  for (let day = 0; day < 730; day++) {
    const date = addDays('2022-01-03', day);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6 || day % 17 === 5) continue;
    for (const [index, symbol] of ['USD', 'JPY', 'GBP', 'CHF'].entries()) {
      if ((day + index) % 23 === 0) continue;
      rows.push(observation('ecb', symbol, `${date}T15:00:00Z`, 1 + index + (day % 97) / 1000));
    }
    // A source that stops: its last day without the base, the day before without the symbol.
    // Its last pair, of two days before, is carried over from then on.
    if (date >= '2023-01-02' && date <= '2023-03-31') {
      if (date !== '2023-03-30')
        rows.push(observation('cbr', 'JPY', `${date}T12:00:00Z`, 0.5 + (day % 61) / 1000));
      if (date !== '2023-03-31')
        rows.push(observation('cbr', 'USD', `${date}T12:00:00Z`, 70 + (day % 59) / 100));
    }
    if (day % 3 === 0) {
      rows.push(observation('boe', 'USD', `${date}T15:30:00Z`, 1.2 + (day % 89) / 1000));
      rows.push(observation('boe', 'EUR', `${date}T15:30:00Z`, 1.1 + (day % 83) / 1000));
    }
  }
  return rows;
}

forEachEngine((engine) => {
  describe('long ranges answered in windows', () => {
    let whole: TestService;
    let windowed: TestService;
    let baseUrl: string;
    before(async () => {
      whole = await startService({ today: () => '2024-06-01', rowsPerWindow: 1e9 }, { engine });
      windowed = await startService({ today: () => '2024-06-01', rowsPerWindow: 50 }, { engine });
      for (const service of [whole, windowed]) await service.store.writeObservations(history());
      baseUrl = await windowed.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await whole.close();
      await windowed.close();
    });

    for (const query of [
      'sources=ecb,boe&base=USD',
      'sources=boe,ecb&base=GBP&max_sources_per_symbol=2&format=csv',
      'sources=ecb,boe&aggregation=week&format=xml',
      'sources=ecb,boe&aggregation=month&observation_time_selection=latest',
      'sources=ecb&aggregation=quarter&symbols=USD,CHF',
    ]) {
      test(`the same answer as one statement: /all?${query}`, async () => {
        const url = `/v1/exchangerate/all?${query}`;
        const [one, cut] = await Promise.all([whole.app.inject(url), windowed.app.inject(url)]);
        assert.equal(cut.statusCode, 200);
        assert.ok(cut.body.length > 1000);
        assert.equal(cut.body, one.body);
      });
    }

    // Past LONG_LOOK_BACK_DAYS, each window reads only what reaches into it from the days before
    // it. Here no series pauses for that long, nor is today that far after the data: whatever
    // the look-back beyond it, the answer is the one of the form that reads every day.
    for (const query of [
      'sources=ecb,boe&base=USD',
      'sources=boe,ecb&base=JPY&aggregation=month&max_sources_per_symbol=2',
      'sources=ecb,boe&base=EUR&symbols=USD,GBP,EUR&observation_time_selection=latest',
      'sources=ecb,cbr&base=USD&symbols=JPY,RUB&max_sources_per_symbol=2',
    ]) {
      test(`a look-back past ${LONG_LOOK_BACK_DAYS} days, windowed: the answer of every day read, in one statement: /all?${query}`, async () => {
        const read = `/v1/exchangerate/all?${query}&up_to_days_before=${LONG_LOOK_BACK_DAYS}`;
        const reached = `/v1/exchangerate/all?${query}&up_to_days_before=36525`;
        const [one, cut] = await Promise.all([
          whole.app.inject(read),
          windowed.app.inject(reached),
        ]);
        assert.equal(cut.statusCode, 200);
        assert.ok(cut.body.length > 1000);
        assert.equal(cut.body, one.body);
      });
    }

    test('a range far wider than the data held: the same answer, in as many windows as the data needs', async () => {
      const url = '/v1/exchangerate/1900-01-01/2199-12-31?sources=ecb,boe&aggregation=week';
      const [one, cut] = await Promise.all([whole.app.inject(url), windowed.app.inject(url)]);
      assert.equal(cut.statusCode, 200);
      assert.ok(cut.body.length > 1000);
      assert.equal(cut.body, one.body);
      const { query } = JSON.parse((await windowed.app.inject(`${url}&show_query=true`)).body);
      // Two years held at 50 rows a window: a week or two a window, some fifty windows. Cut
      // over the 300 years asked for, they would be more than ten thousand.
      const count = Number(/^\/\* run as (\d+) statements/.exec(query)?.[1]);
      assert.ok(count > 20 && count < 200, `${count} windows`);
    });

    test('show_query shows the statement the windows are cut from, and says so', async () => {
      const { query } = JSON.parse(
        (await windowed.app.inject('/v1/exchangerate/all?show_query=true&sources=ecb')).body,
      );
      assert.match(query, /^\/\* run as \d+ statements, newest dates first/);
    });

    test('clients that go away mid-answer free what their answers held', async () => {
      // More abandoned answers than the PostgreSQL pool has connections.
      for (let index = 0; index < 20; index++) {
        await new Promise<void>((resolve, reject) => {
          const outgoing = request(`${baseUrl}/v1/exchangerate/all?sources=ecb,boe`, (response) => {
            response.once('data', () => {
              response.destroy();
              resolve();
            });
          });
          outgoing.on('error', reject).end();
        });
      }
      const response = await fetch(`${baseUrl}/v1/exchangerate/2023-03-01/2023-03-31`, {
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(response.status, 200);
    });
  });
});
