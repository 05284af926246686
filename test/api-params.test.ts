import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';

const DATA = [
  observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
  observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
  observation('imf', 'EUR', '2024-03-19T16:00:00Z', 0.92),
];

/** CONTRACT §8: data for the most likely intended query, the problem in X-Error and the json key error. */
forEachEngine((engine) => {
  describe('parameter problems', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations(DATA);
    });
    after(() => service.close());

    const cases: [string, string, string, (body: any) => void][] = [
      [
        'case is forgiven silently in values',
        '?base=usd&symbols=eur,jpy&sources=ECB&format=JSON',
        '',
        (b) => assert.deepEqual(Object.keys(b.rates), ['EUR', 'JPY']),
      ],
      [
        'unknown parameter',
        '?foo=bar&sources=ecb',
        "unknown parameter 'foo' ignored",
        (b) => assert.equal(Object.keys(b.rates).length, 2),
      ],
      [
        'known name in other case',
        '?Base=EUR&sources=ecb',
        "parameter 'Base' read as 'base'",
        (b) => assert.equal(b.base, 'EUR'),
      ],
      [
        'unknown symbol dropped',
        '?symbols=EUR,XYZ&sources=ecb',
        "unknown symbol 'XYZ' dropped from symbols",
        (b) => assert.deepEqual(Object.keys(b.rates), ['EUR']),
      ],
      [
        'no known symbols left: empty, never widened',
        '?symbols=XYZ&sources=ecb',
        "unknown symbol 'XYZ' dropped from symbols",
        (b) => assert.deepEqual(b.rates, {}),
      ],
      [
        'unknown sources dropped; none left gives nothing',
        '?sources=bac,gaf',
        "unknown source 'bac' dropped from sources; unknown source 'gaf' dropped from sources",
        (b) => assert.deepEqual(b.rates, {}),
      ],
      [
        'unknown base',
        '?base=XYZ&sources=ecb',
        "unknown base 'XYZ': USD is used",
        (b) => assert.equal(b.base, 'USD'),
      ],
      [
        'bad number',
        '?up_to_days_before=-1&sources=ecb',
        "up_to_days_before '-1' is not a positive integer: 4 is used",
        (b) => assert.ok(b.rates.EUR),
      ],
      [
        'zero',
        '?max_sources_per_symbol=0&sources=ecb',
        "max_sources_per_symbol '0' is not a positive integer: 1 is used",
        (b) => assert.equal(b.rates.EUR.source, 'ecb'),
      ],
      [
        // '+' in a query string is a space: ' 5' is not [0-9]+.
        'number written with a space',
        '?decimals=+5&sources=ecb',
        "decimals ' 5' is not a positive integer: 16 is used",
        (b) => assert.equal(b.rates.JPY.rate, Number('150.2347417840375771')), // 16 decimals, not 5
      ],
      [
        'too large a window',
        '?up_to_days_before=99999&sources=ecb',
        "up_to_days_before '99999' is above its maximum: 36525 is used",
        (b) => assert.ok(b.rates.EUR),
      ],
      [
        'bad enum',
        '?observation_time_selection=middle&sources=ecb',
        "observation_time_selection 'middle' is not one of latest, earliest: earliest is used",
        (b) => assert.ok(b.rates.EUR),
      ],
      [
        'bad boolean',
        '?pretty_print=yes&sources=ecb',
        "pretty_print 'yes' is not one of true, false: true is used",
        (b) => assert.ok(b.rates.EUR),
      ],
      [
        'bad format',
        '?format=yaml&sources=ecb',
        "format 'yaml' is not one of json, csv, xml: json is used",
        (b) => assert.ok(b.rates.EUR),
      ],
      [
        'aggregation on a date',
        '?aggregation=week&sources=ecb',
        "parameter 'aggregation' ignored: it applies to ranges only",
        (b) => assert.ok(b.rates.EUR),
      ],
      [
        'repeated parameter',
        '?base=EUR&base=JPY&sources=ecb',
        "parameter 'base' repeated: the first value is used",
        (b) => assert.equal(b.base, 'EUR'),
      ],
      [
        'empty value',
        '?base=&sources=ecb',
        "parameter 'base' is empty: the default is used",
        (b) => assert.equal(b.base, 'USD'),
      ],
      [
        'a list of commas alone',
        '?symbols=,&sources=ecb',
        "parameter 'symbols' is empty: the default is used",
        (b) => assert.ok(b.rates.EUR && b.rates.JPY),
      ],
      [
        'a list of commas and spaces alone',
        '?sources=%20,%20,',
        "parameter 'sources' is empty: the default is used",
        (b) => assert.ok(b.rates.EUR),
      ],
    ];
    for (const [name, query, problem, check] of cases) {
      test(name, async () => {
        const { status, headers, body } = await getJson(
          service.app,
          `/v1/exchangerate/2024-03-19${query}`,
        );
        assert.equal(status, 200);
        assert.equal(headers['x-error'], problem || undefined);
        assert.equal(body.error, problem || undefined);
        check(body);
      });
    }

    test('decimals above 100 are reduced to 100 and reported', async () => {
      for (const decimals of ['101', '99999999999999999999']) {
        const response = await service.app.inject(
          `/v1/exchangerate/2024-03-19?sources=ecb&symbols=JPY&decimals=${decimals}&pretty_print=false`,
        );
        assert.equal(
          response.headers['x-error'],
          `decimals '${decimals}' is above its maximum: 100 is used`,
        );
        // 163.2 / 1.0863 = 1632000 / 10863, which never ends: 100 digits, the last rounded.
        const scaled = (1_632_000n * 10n ** 101n) / 10_863n;
        const rounded = (scaled + 5n) / 10n;
        const digits = rounded.toString();
        const expected = `${digits.slice(0, -100)}.${digits.slice(-100)}`.replace(/0+$/, '');
        assert.match(response.body, new RegExp(`"rate":${expected.replace('.', '\\.')},`));
      }
    });

    test('problems are joined by "; " and the header stays ASCII', async () => {
      const { headers } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb&symbols=%E2%82%AC&foo=1',
      );
      assert.equal(
        headers['x-error'],
        "unknown parameter 'foo' ignored; unknown symbol '?' dropped from symbols",
      );
    });

    test('every problem is reported, however many come before the ones that change the answer', async () => {
      const tracking = ['source', 'medium', 'campaign', 'term', 'content'];
      const { headers, body } = await getJson(
        service.app,
        `/v1/exchangerate/2024-03-19?symbols=EUR,XYZ&${tracking.map((tag) => `utm_${tag}=x`).join('&')}&decimals=0&sources=ecb`,
      );
      const expected = [
        "unknown symbol 'XYZ' dropped from symbols",
        ...tracking.map((tag) => `unknown parameter 'utm_${tag}' ignored`),
        "decimals '0' is not a positive integer: 16 is used",
      ];
      assert.deepEqual(String(headers['x-error']).split('; ').sort(), [...expected].sort());
      assert.equal(body.error, headers['x-error']);
    });

    test('bad aggregation on a range falls back to day', async () => {
      const { headers, body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-18/2024-03-19?aggregation=fortnight&sources=ecb',
      );
      assert.equal(
        headers['x-error'],
        "aggregation 'fortnight' is not one of day, week, month, quarter, year, decade, century, millennium: day is used",
      );
      // By week the key would be Monday 2024-03-18.
      assert.deepEqual(Object.keys(body.rates), ['2024-03-19']);
    });

    test('csv carries problems in X-Error only; xml in <error>', async () => {
      const csv = await service.app.inject(
        '/v1/exchangerate/2024-03-19?format=csv&foo=1&sources=ecb',
      );
      assert.equal(csv.headers['x-error'], "unknown parameter 'foo' ignored");
      assert.ok(csv.body.startsWith('date,base,symbol,source,rate,observation_time\r\n'));
    });

    test('currencies and sources: xml falls back to json with an error; unknown items are reported', async () => {
      const xml = await getJson(service.app, '/v1/currencies?format=xml');
      assert.equal(xml.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(xml.body.error, "format 'xml' is not offered here: json is used");
      const sources = await getJson(service.app, '/v1/sources?sources=ecb,nope&symbols=JPY,QQQ');
      assert.equal(
        sources.headers['x-error'],
        "unknown symbol 'QQQ' dropped from symbols; unknown source 'nope' dropped from sources",
      );
      assert.deepEqual(Object.keys(sources.body.currencies), ['ecb']);
    });
  });

  describe('extreme values', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations(DATA);
    });
    after(() => service.close());

    test('huge numbers and the ends of the calendar answer normally', async () => {
      for (const url of [
        '/v1/exchangerate/2024-03-19?sources=ecb&max_sources_per_symbol=99999999999999999999999',
        '/v1/exchangerate/9999-12-31',
        '/v1/exchangerate/0001-01-01?up_to_days_before=36525',
        '/v1/exchangerate/0001-01-01/9999-12-31?sources=ecb&symbols=JPY&aggregation=millennium',
        '/v1/exchangerate/0001-01-01/9999-12-31?sources=ecb&symbols=JPY&aggregation=week',
        '/v1/exchangerate/0001-01-01/9999-12-31?sources=ecb&symbols=JPY',
      ]) {
        const { status, headers, body } = await getJson(service.app, url);
        assert.equal(status, 200, url);
        assert.equal(headers['x-error'], undefined, url);
        assert.equal(body.status, 'success', url);
      }
      const { body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb,imf&symbols=EUR&max_sources_per_symbol=99999999999999999999999',
      );
      assert.deepEqual(Object.keys(body.rates.EUR), ['ecb', 'imf']);
      const millennium = await getJson(
        service.app,
        '/v1/exchangerate/0001-01-01/9999-12-31?sources=ecb&symbols=JPY&aggregation=millennium',
      );
      assert.deepEqual(Object.keys(millennium.body.rates), ['2000-01-01']);
    });
  });
});
