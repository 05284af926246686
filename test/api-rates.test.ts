import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';
import { exactQuotient, exactQuotientText } from './support/exact-reference.js';

// A small market: ECB quotes per EUR, the IMF per USD (and is late on the 19th), BoE per GBP.
const DATA = [
  observation('ecb', 'USD', '2024-03-15T15:00:00Z', 1.0875),
  observation('ecb', 'JPY', '2024-03-15T15:00:00Z', 162.0),
  observation('ecb', 'GBP', '2024-03-15T15:00:00Z', 0.8545),
  observation('ecb', 'USD', '2024-03-18T15:00:00Z', 1.0872),
  observation('ecb', 'JPY', '2024-03-18T15:00:00Z', 162.5),
  observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
  observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
  observation('imf', 'EUR', '2024-03-18T16:00:00Z', 0.92),
  observation('imf', 'EUR', '2024-03-18T09:00:00Z', 0.919),
  observation('imf', 'CHF', '2024-03-18T16:00:00Z', 0.885),
  observation('boe', 'USD', '2024-03-19T15:00:00Z', 1.2725),
];

forEachEngine((engine) => {
  describe('rate endpoints', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations(DATA);
    });
    after(() => service.close());

    test('date: cross rates through the base, source and observation time of the legs', async () => {
      const { status, body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb&base=USD&symbols=JPY,EUR',
      );
      assert.equal(status, 200);
      assert.deepEqual(body, {
        status: 'success',
        date: '2024-03-19',
        base: 'USD',
        rates: {
          EUR: {
            rate: exactQuotient(1, 1.0863),
            observation_time: '2024-03-19T15:00:00.000Z',
            source: 'ecb',
          },
          JPY: {
            rate: exactQuotient(163.2, 1.0863),
            observation_time: '2024-03-19T15:00:00.000Z',
            source: 'ecb',
          },
        },
      });
    });

    test('the first source in priority order answers each symbol; left-out sources are never used', async () => {
      const imfFirst = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=imf,ecb&symbols=EUR',
      );
      // The IMF's EUR of the 18th is within 4 days and comes first; its earliest observation that day counts.
      assert.deepEqual(imfFirst.body.rates.EUR, {
        rate: 0.919,
        observation_time: '2024-03-18T09:00:00.000Z',
        source: 'imf',
      });
      const ecbFirst = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb,imf&symbols=EUR',
      );
      assert.equal(ecbFirst.body.rates.EUR.source, 'ecb');
      const onlyBoe = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=boe&symbols=EUR,JPY',
      );
      assert.deepEqual(onlyBoe.body.rates, {});
    });

    test('observation_time_selection picks the earliest or latest observation of a day', async () => {
      const latest = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-18?sources=imf&symbols=EUR&observation_time_selection=latest',
      );
      assert.deepEqual(latest.body.rates.EUR, {
        rate: 0.92,
        observation_time: '2024-03-18T16:00:00.000Z',
        source: 'imf',
      });
    });

    test('up_to_days_before bounds how old a stand-in observation may be', async () => {
      const within = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-17?sources=ecb&symbols=JPY&up_to_days_before=2',
      );
      assert.equal(within.body.rates.JPY.observation_time, '2024-03-15T15:00:00.000Z');
      const beyond = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-17?sources=ecb&symbols=JPY&up_to_days_before=1',
      );
      assert.deepEqual(beyond.body.rates, {});
    });

    test('the base is never listed, and the relative currency of a source is a symbol it provides', async () => {
      const { body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb&base=JPY&up_to_days_before=3&decimals=30',
      );
      assert.deepEqual(Object.keys(body.rates), ['EUR', 'USD']);
      assert.equal(body.rates.EUR.rate, exactQuotient(1, 163.2, 30));
    });

    test('max_sources_per_symbol > 1 maps source keys to entries in priority order', async () => {
      const { body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=boe,ecb,imf&symbols=EUR,GBP&max_sources_per_symbol=5',
      );
      // BoE has no EUR; its GBP is the inverse of its USD quote.
      assert.deepEqual(Object.keys(body.rates.EUR), ['ecb', 'imf']);
      assert.deepEqual(body.rates.EUR.ecb, {
        rate: exactQuotient(1, 1.0863),
        observation_time: '2024-03-19T15:00:00.000Z',
      });
      assert.deepEqual(body.rates.EUR.imf, {
        rate: 0.919,
        observation_time: '2024-03-18T09:00:00.000Z',
      });
      assert.deepEqual(body.rates.GBP, {
        boe: { rate: exactQuotient(1, 1.2725), observation_time: '2024-03-19T15:00:00.000Z' },
        ecb: { rate: exactQuotient(0.8545, 1.0875), observation_time: '2024-03-15T15:00:00.000Z' },
      });
      const one = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb&symbols=EUR&max_sources_per_symbol=2',
      );
      assert.deepEqual(one.body.rates.EUR, {
        ecb: { rate: exactQuotient(1, 1.0863), observation_time: '2024-03-19T15:00:00.000Z' },
      });
    });

    test('one symbol from several sources lists them in the requested priority order', async () => {
      for (const sources of [
        ['ecb', 'imf'],
        ['imf', 'ecb'],
      ]) {
        const query = `sources=${sources.join(',')}&symbols=EUR&max_sources_per_symbol=2`;
        const { body } = await getJson(service.app, `/v1/exchangerate/2024-03-19?${query}`);
        assert.deepEqual(Object.keys(body.rates.EUR), sources);
        const csv = await service.app.inject({
          url: `/v1/exchangerate/2024-03-18/2024-03-19?${query}&format=csv`,
        });
        const lines = csv.body.trim().split('\n').slice(1);
        assert.deepEqual(
          lines.map((line) => line.split(',').slice(0, 4).join(',')),
          ['2024-03-19', '2024-03-18'].flatMap((date) =>
            sources.map((source) => `${date},USD,EUR,${source}`),
          ),
        );
      }
    });

    test('latest resolves today with the latest observation of the day', async () => {
      const { body, headers } = await getJson(
        service.app,
        '/v1/exchangerate/latest?sources=imf&symbols=EUR',
      );
      assert.equal(body.date, '2024-03-20');
      assert.deepEqual(body.rates.EUR, {
        rate: 0.92,
        observation_time: '2024-03-18T16:00:00.000Z',
        source: 'imf',
      });
      assert.equal(headers['cache-control'], 'public, max-age=60');
    });

    test('range: start date and every observed date after it, newest first, each equal to the date endpoint', async () => {
      const { body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-16/2024-03-19?sources=ecb&symbols=JPY',
      );
      assert.equal(body.start_date, '2024-03-16');
      assert.equal(body.end_date, '2024-03-19');
      assert.deepEqual(Object.keys(body.rates), ['2024-03-19', '2024-03-18', '2024-03-16']);
      // Values of the 15th stand in under the start date.
      assert.equal(body.rates['2024-03-16'].JPY.observation_time, '2024-03-15T15:00:00.000Z');
      for (const date of Object.keys(body.rates)) {
        const single = await getJson(
          service.app,
          `/v1/exchangerate/${date}?sources=ecb&symbols=JPY`,
        );
        assert.deepEqual(body.rates[date], single.body.rates);
      }
    });

    test('range dates are swapped when given backwards, and * means the earliest data or today', async () => {
      const swapped = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19/2024-03-16?sources=ecb&symbols=JPY',
      );
      assert.equal(swapped.body.start_date, '2024-03-16');
      const stars = await getJson(service.app, '/v1/exchangerate/*/*?sources=ecb&symbols=JPY');
      assert.equal(stars.body.start_date, '2024-03-15');
      assert.equal(stars.body.end_date, '2024-03-20');
      const all = await getJson(service.app, '/v1/exchangerate/all?sources=ecb&symbols=JPY');
      assert.deepEqual(all.body, stars.body);
    });

    test('aggregation groups keys by period and shows the first entry of each (earliest)', async () => {
      const week = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-15/2024-03-19?sources=ecb&symbols=JPY&aggregation=week',
      );
      assert.deepEqual(week.body.rates, {
        '2024-03-18': {
          JPY: {
            rate: exactQuotient(162.5, 1.0872),
            observation_time: '2024-03-18T15:00:00.000Z',
            source: 'ecb',
          },
        },
        '2024-03-11': {
          JPY: {
            rate: exactQuotient(162.0, 1.0875),
            observation_time: '2024-03-15T15:00:00.000Z',
            source: 'ecb',
          },
        },
      });
      const lastOfMonth = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-15/2024-03-19?sources=ecb&symbols=JPY&aggregation=month&observation_time_selection=latest',
      );
      assert.deepEqual(Object.keys(lastOfMonth.body.rates), ['2024-03-01']);
      assert.equal(lastOfMonth.body.rates['2024-03-01'].JPY.rate, exactQuotient(163.2, 1.0863));
      for (const [unit, key] of [
        ['quarter', '2024-01-01'],
        ['year', '2024-01-01'],
        ['decade', '2020-01-01'],
        ['century', '2000-01-01'],
        ['millennium', '2000-01-01'],
        ['day', '2024-03-19'],
      ]) {
        const { body } = await getJson(
          service.app,
          `/v1/exchangerate/2024-03-15/2024-03-19?sources=ecb&symbols=JPY&aggregation=${unit}`,
        );
        assert.equal(Object.keys(body.rates)[0], key, unit);
      }
    });

    test('decades, centuries and millennia of the years 1-999 are keyed 0000-01-01 on every engine', async () => {
      const early = await startService({}, { engine });
      try {
        await early.store.writeObservations([
          observation('ecb', 'USD', '0005-03-01T15:00:00Z', 2),
          observation('ecb', 'USD', '0050-03-01T15:00:00Z', 4),
        ]);
        for (const [unit, keys] of [
          ['decade', ['0050-01-01', '0000-01-01']],
          ['century', ['0000-01-01']],
          ['millennium', ['0000-01-01']],
        ] as const) {
          for (const format of ['json', 'csv']) {
            const response = await early.app.inject(
              `/v1/exchangerate/0001-01-01/0999-12-31?base=EUR&sources=ecb&symbols=USD&aggregation=${unit}&format=${format}`,
            );
            assert.equal(response.statusCode, 200, `${unit} ${format}`);
            if (format === 'json') {
              const body = JSON.parse(response.body);
              assert.deepEqual(Object.keys(body.rates), keys, unit);
            } else {
              const dates = response.body
                .split('\r\n')
                .slice(1, -1)
                .map((line) => line.split(',')[0]);
              assert.deepEqual([...new Set(dates)], keys, `${unit} csv`);
            }
          }
        }
      } finally {
        await early.close();
      }
    });

    test('decimals rounds half away from zero and never writes exponents', async () => {
      const response = await service.app.inject(
        '/v1/exchangerate/2024-03-19?sources=ecb&symbols=EUR&decimals=3&pretty_print=false',
      );
      assert.match(response.body, /"EUR":\{"rate":0\.921,/);
      const tiny = await service.app.inject(
        '/v1/exchangerate/2024-03-19?sources=ecb&base=JPY&symbols=EUR&pretty_print=false',
      );
      assert.match(tiny.body, /"rate":0\.0061274509803922,/);
    });

    test('pretty_print=true is JSON.stringify with two spaces; false is compact', async () => {
      // Rates of at most 10 decimals read back as the same double, so that JSON.stringify
      // reproduces their text (exact quotients with 16 decimals can carry more digits than a double).
      const pretty = await service.app.inject(
        '/v1/exchangerate/2024-03-16/2024-03-19?sources=ecb,imf&max_sources_per_symbol=2&decimals=10',
      );
      assert.equal(pretty.body, `${JSON.stringify(JSON.parse(pretty.body), null, 2)}\n`);
      const compact = await service.app.inject(
        '/v1/exchangerate/2024-03-16/2024-03-19?sources=ecb,imf&pretty_print=false&decimals=10',
      );
      assert.equal(compact.body, JSON.stringify(JSON.parse(compact.body)));
    });

    test('csv: header, CRLF, newest date first then symbol then source priority', async () => {
      const response = await service.app.inject(
        '/v1/exchangerate/2024-03-18/2024-03-19?sources=imf,ecb&symbols=EUR,JPY&max_sources_per_symbol=2&format=csv',
      );
      assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(
        response.body,
        [
          'date,base,symbol,source,rate,observation_time',
          `2024-03-19,USD,EUR,imf,0.919,2024-03-18T09:00:00.000Z`,
          `2024-03-19,USD,EUR,ecb,${exactQuotientText(1, 1.0863)},2024-03-19T15:00:00.000Z`,
          `2024-03-19,USD,JPY,ecb,${exactQuotientText(163.2, 1.0863)},2024-03-19T15:00:00.000Z`,
          `2024-03-18,USD,EUR,imf,0.919,2024-03-18T09:00:00.000Z`,
          `2024-03-18,USD,EUR,ecb,${exactQuotientText(1, 1.0872)},2024-03-18T15:00:00.000Z`,
          `2024-03-18,USD,JPY,ecb,${exactQuotientText(162.5, 1.0872)},2024-03-18T15:00:00.000Z`,
          '',
        ].join('\r\n'),
      );
    });

    test('xml: root exchangerates, head elements, one rate element per entry in csv order', async () => {
      const response = await service.app.inject(
        '/v1/exchangerate/2024-03-19?sources=ecb&symbols=EUR&format=xml&show_query=true&foo=1',
      );
      assert.equal(response.headers['content-type'], 'application/xml; charset=utf-8');
      assert.match(
        response.body,
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<exchangerates>\n  <status>success<\/status>\n  <date>2024-03-19<\/date>\n  <base>USD<\/base>\n  <error>unknown parameter &apos;foo&apos; ignored<\/error>\n  <query>WITH /,
      );
      assert.match(
        response.body,
        new RegExp(
          `<rates>\\n    <rate date="2024-03-19" symbol="EUR" source="ecb" observation_time="2024-03-19T15:00:00.000Z">${exactQuotientText(1, 1.0863)}</rate>\\n  </rates>\\n</exchangerates>\\n$`,
        ),
      );
    });

    test('a date in the future or before all data is no error: the rates are empty', async () => {
      for (const url of [
        '/v1/exchangerate/2099-01-01',
        '/v1/exchangerate/1990-01-01',
        '/v1/exchangerate/1990-01-01/1990-02-01',
      ]) {
        const { status, body } = await getJson(service.app, url);
        assert.equal(status, 200, url);
        assert.deepEqual(body.rates, {}, url);
      }
    });
  });
});
