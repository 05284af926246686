import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SOURCES } from '../src/sources/registry.js';
import { forEachEngine, getJson, startService, type TestService } from './support/harness.js';

/**
 * Many sources at once: past a number of them (see MOST_SOURCES_INLINE in rates-sql.ts), the
 * statement takes their priorities from a table of sources instead of computing them per row.
 * Either way each source's entry is the answer it gives alone, in the requested order.
 */
const PUBLISHERS = SOURCES.slice(0, 24);
const KEYS = PUBLISHERS.map((source) => source.key);
const SYMBOLS = ['USD', 'EUR', 'GBP', 'CHF', 'JPY'];
const DAYS = ['2024-03-18', '2024-03-19'];

forEachEngine((engine) => {
  describe('24 sources in one answer', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations(
        PUBLISHERS.flatMap(({ key, relativeCurrency }, index) =>
          DAYS.flatMap((day, dayIndex) =>
            SYMBOLS.filter((symbol) => symbol !== relativeCurrency).map((symbol, symbolIndex) => ({
              source: key,
              symbol,
              observationTime: new Date(`${day}T12:00:00Z`),
              rate: Number((1 + index / 7 + symbolIndex / 3 + dayIndex / 11).toPrecision(6)),
            })),
          ),
        ),
      );
    });
    after(() => service.close());

    const alone = async (path: string, key: string): Promise<unknown> => {
      const { body } = await getJson(service.app, `${path}&sources=${key}`);
      return body.rates.GBP;
    };

    test('one date: every source, in the requested order, each as it answers alone', async () => {
      const path = '/v1/exchangerate/2024-03-19?base=CHF&symbols=GBP';
      for (const order of [KEYS, [...KEYS].reverse()]) {
        const { body } = await getJson(
          service.app,
          `${path}&sources=${order.join(',')}&max_sources_per_symbol=${order.length}`,
        );
        assert.deepEqual(Object.keys(body.rates.GBP), order);
        for (const key of order) {
          const entry = { ...((await alone(path, key)) as Record<string, unknown>) };
          delete entry.source;
          assert.deepEqual(body.rates.GBP[key], entry, key);
        }
        const first = await getJson(service.app, `${path}&sources=${order.join(',')}`);
        assert.deepEqual(first.body.rates.GBP, await alone(path, order[0]!));
      }
    });

    test('a range: the first source in the requested order on each date, newest first', async () => {
      const path = `/v1/exchangerate/${DAYS[0]}/${DAYS[1]}?base=JPY&symbols=USD,EUR,GBP,CHF`;
      for (const order of [KEYS, [...KEYS].reverse()]) {
        const { body } = await getJson(service.app, `${path}&sources=${order.join(',')}`);
        assert.deepEqual(Object.keys(body.rates), [...DAYS].reverse());
        const single = await getJson(service.app, `${path}&sources=${order[0]}`);
        assert.deepEqual(body.rates, single.body.rates);
      }
    });
  });
});
