import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AGGREGATIONS } from '../src/resolve/rate-query.js';
import { addDays } from '../src/dates.js';
import { LONG_LOOK_BACK_DAYS } from '../src/resolve/rates-sql.js';
import { findSource } from '../src/sources/registry.js';
import {
  referenceDate,
  referenceRange,
  type RefEntry,
  type RefObservation,
  type RefRequest,
} from './support/reference.js';
import { exactQuotientText } from './support/exact-reference.js';
import { forEachEngine, getJson, startService, type TestService } from './support/harness.js';

/**
 * Random multi-source data and random requests, compared with the plain reference of
 * CONTRACT §3-§4. The seed is fixed (override with FXRATES_TEST_SEED) and printed in every
 * failure message, so a failure can be replayed exactly.
 */
const SEED = Number(process.env.FXRATES_TEST_SEED ?? 20241121);
const DATASETS = 4;
const REQUESTS_PER_DATASET = 90;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Sources with different relative currencies, two of them sharing USD.
const SOURCE_KEYS = ['ecb', 'imf', 'boe', 'cbr', 'bcb', 'float_rates'];
const SYMBOLS = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'RUB', 'BRL', 'AUD'];
const FIRST_DAY = '2024-02-20';
const DAYS = 40;

function generateData(random: () => number): RefObservation[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const data: RefObservation[] = [];
  for (const key of SOURCE_KEYS) {
    const relative = findSource(key)!.relativeCurrency;
    const symbols = SYMBOLS.filter((s) => s !== relative && random() < 0.75);
    const weekendPublisher = random() < 0.3;
    const holidayOdds = random() * 0.25;
    // About half the sources observe once a day, which the statements read without a step
    // per day (rates-sql.ts, legsOf); the others observe up to three times on some days.
    const sharesDays = random() < 0.5;
    for (let offset = 0; offset < DAYS; offset++) {
      const day = addDays(FIRST_DAY, offset);
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      if (!weekendPublisher && (weekday === 0 || weekday === 6)) continue;
      if (random() < holidayOdds) continue;
      const observationsToday = sharesDays && random() < 0.4 ? 2 + Math.floor(random() * 2) : 1;
      const times = new Set<string>();
      while (times.size < observationsToday) {
        const minutes = Math.floor(random() * 1440);
        times.add(
          `${day}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}.${String(Math.floor(random() * 1000)).padStart(3, '0')}Z`,
        );
      }
      for (const time of times) {
        for (const symbol of symbols) {
          if (random() < 0.1) continue; // a symbol missing on a day
          const rate =
            Number(
              (random() * pick([1, 10, 200, 0.01])).toPrecision(1 + Math.floor(random() * 8)),
            ) || 0.5;
          data.push({ source: key, symbol, time, rate });
        }
      }
    }
  }
  return data;
}

interface RandomRequest {
  url: string;
  request: RefRequest;
  kind: 'date' | 'range' | 'latest';
  start: string;
  end: string;
  aggregation: string;
}

function randomRequest(random: () => number, today: string): RandomRequest {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let shuffled = [...SOURCE_KEYS]
    .sort(() => random() - 0.5)
    .slice(0, 1 + Math.floor(random() * SOURCE_KEYS.length));
  let base = pick(SYMBOLS);
  if (random() < 0.25) {
    // Every source quoted in the base currency: the statements without a base leg.
    base = findSource(shuffled[0]!)!.relativeCurrency;
    shuffled = shuffled.filter((key) => findSource(key)!.relativeCurrency === base);
  }
  const symbols = random() < 0.4 ? null : SYMBOLS.filter(() => random() < 0.5);
  // A fifth of the requests look back further than LONG_LOOK_BACK_DAYS: over all of the data.
  const window =
    random() < 0.2
      ? LONG_LOOK_BACK_DAYS + 1 + Math.floor(random() * 30_000)
      : 1 + Math.floor(random() * 6);
  const max = random() < 0.6 ? 1 : 1 + Math.floor(random() * 3);
  const kind = pick(['date', 'range', 'range', 'latest'] as const);
  const selection = random() < 0.5 ? 'earliest' : 'latest';
  const aggregation = kind === 'range' && random() < 0.4 ? pick(AGGREGATIONS) : 'day';
  const a = addDays(FIRST_DAY, Math.floor(random() * (DAYS + 6)) - 3);
  const b = addDays(a, Math.floor(random() * 20));
  const [start, end] = kind === 'latest' ? [today, today] : kind === 'date' ? [a, a] : [a, b];
  const query = new URLSearchParams({
    base,
    sources: shuffled.join(','),
    up_to_days_before: String(window),
    max_sources_per_symbol: String(max),
    observation_time_selection: selection,
    decimals: '30',
    pretty_print: 'false',
  });
  if (symbols) query.set('symbols', symbols.join(',') || 'USD');
  if (aggregation !== 'day') query.set('aggregation', aggregation);
  const path = kind === 'latest' ? 'latest' : kind === 'date' ? start : `${start}/${end}`;
  const effectiveSymbols = symbols ? (symbols.length > 0 ? symbols : ['USD']) : null;
  return {
    url: `/v1/exchangerate/${path}?${query}`,
    kind,
    start,
    end,
    aggregation,
    request: {
      base,
      symbols: effectiveSymbols,
      sources: shuffled.map((key) => ({
        key,
        relativeCurrency: findSource(key)!.relativeCurrency,
      })),
      window,
      max,
      selection,
    },
  };
}

function shapeRow(row: Map<string, RefEntry[]>, max: number): Record<string, unknown> {
  const shaped: Record<string, unknown> = {};
  for (const [symbol, entries] of row) {
    shaped[symbol] =
      max > 1
        ? Object.fromEntries(
            entries.map((e) => [e.source, { rate: e.rate, observation_time: e.observation_time }]),
          )
        : {
            rate: entries[0]!.rate,
            observation_time: entries[0]!.observation_time,
            source: entries[0]!.source,
          };
  }
  return shaped;
}

forEachEngine((engine) => {
  describe(`rates against the reference implementation (seed ${SEED})`, () => {
    for (let dataset = 0; dataset < DATASETS; dataset++) {
      describe(`dataset ${dataset}`, () => {
        const random = prng(SEED + dataset);
        const data = generateData(random);
        const today = addDays(FIRST_DAY, DAYS - 2);
        const manyPairsFrom = [undefined, 0, undefined, 0][dataset];
        let service: TestService;
        before(async () => {
          // Datasets 2 and 3 answer ranges in windows of a day or a few days; datasets 1 and 3
          // take the spans of long ranges for every range over every symbol (rate-request.ts,
          // manyPairs): only the series that miss a day are sorted.
          const rowsPerWindow = [undefined, undefined, 1, 20][dataset];
          service = await startService(
            { today: () => today, rowsPerWindow, manyPairsFrom },
            { engine },
          );
          await service.store.writeObservations(
            data.map((o) => ({
              source: o.source,
              symbol: o.symbol,
              observationTime: new Date(o.time),
              rate: o.rate,
            })),
          );
        });
        after(() => service.close());

        test(`${REQUESTS_PER_DATASET} random requests match, range rows equal date answers, shown SQL gives the same rows`, async () => {
          for (let index = 0; index < REQUESTS_PER_DATASET; index++) {
            const r = randomRequest(random, today);
            const context = `seed ${SEED}, dataset ${dataset}, request ${index}: ${r.url}`;
            const { status, body, headers } = await getJson(service.app, r.url);
            assert.equal(status, 200, context);
            assert.equal(headers['x-error'], undefined, context);
            if (r.kind === 'range') {
              const expected = referenceRange(data, r.start, r.end, r.request, r.aggregation);
              const shaped = Object.fromEntries(
                [...expected].map(([date, row]) => [date, shapeRow(row, r.request.max)]),
              );
              assert.deepEqual(body.rates, shaped, context);
              assert.deepEqual(
                Object.keys(body.rates),
                Object.keys(shaped),
                `${context} (date order)`,
              );
              if (r.aggregation === 'day') {
                for (const date of Object.keys(body.rates)) {
                  const single = await getJson(
                    service.app,
                    r.url.replace(`${r.start}/${r.end}`, date),
                  );
                  assert.deepEqual(
                    body.rates[date],
                    single.body.rates,
                    `${context}: range.rates[${date}] differs from the date endpoint`,
                  );
                }
              }
            } else {
              const expected = referenceDate(data, r.start, r.request);
              assert.equal(body.date, r.start, context);
              assert.deepEqual(body.rates, shapeRow(expected, r.request.max), context);
            }
            if (index % 6 === 0) await assertShownQueryRoundTrips(service, r.url, context);
            if (
              manyPairsFrom === 0 &&
              r.kind === 'range' &&
              r.start !== r.end &&
              !r.url.includes('symbols=')
            ) {
              const shown = await getJson(service.app, `${r.url}&show_query=true`);
              assert.match(shown.body.query, /\bseries AS \(/, `${context} (spans of long ranges)`);
            }
          }
        });
      });
    }
  });

  /** show_query's SQL, run through the query endpoint, gives exactly the rows of the csv answer. */
  async function assertShownQueryRoundTrips(
    service: TestService,
    url: string,
    context: string,
  ): Promise<void> {
    const shown = await getJson(service.app, `${url}&show_query=true`);
    const csv = await service.app.inject(`${url}&format=csv`);
    const ran = await getJson(
      service.app,
      `/v1/exchangerate/query?q=${encodeURIComponent(shown.body.query)}&pretty_print=false`,
    );
    assert.equal(ran.status, 200, context);
    assert.deepEqual(
      ran.body.columns,
      ['date', 'symbol', 'source', 'symbol_rate', 'base_rate', 'observation_time'],
      context,
    );
    const fromCsv = csv.body
      .trim()
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => {
        const [date, , symbol, source, rate, time] = line.split(',');
        return { date, symbol, source, rate, observation_time: time };
      });
    // Each csv rate is the exact quotient of the query row's two legs; every other field is the
    // query's row (aggregated answers carry the period start).
    const fromQuery = ran.body.rows.map(
      (row: { symbol_rate: number; base_rate: number; [column: string]: unknown }) => ({
        date: row.date,
        symbol: row.symbol,
        source: row.source,
        rate: exactQuotientText(row.symbol_rate, row.base_rate, 30),
        observation_time: row.observation_time,
      }),
    );
    assert.deepEqual(fromQuery, fromCsv, `${context} (show_query round trip)`);
  }
});
