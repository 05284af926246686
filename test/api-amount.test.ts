import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDecimal } from '../src/exact-decimal.js';
import { formatScaledQuotient } from '../src/format/rate-number.js';
import {
  forEachEngine,
  getJson,
  observation,
  startService,
  type TestService,
} from './support/harness.js';
import { exactQuotientText, isReciprocalOfPrice } from './support/exact-reference.js';

// ECB quotes per EUR; the IMF per USD. Today is 2024-03-20 in the test service.
const DATA = [
  observation('ecb', 'USD', '2024-03-18T15:00:00Z', 1.0872),
  observation('ecb', 'JPY', '2024-03-18T15:00:00Z', 162.5),
  observation('ecb', 'USD', '2024-03-19T15:00:00Z', 1.0863),
  observation('ecb', 'JPY', '2024-03-19T15:00:00Z', 163.2),
  observation('imf', 'EUR', '2024-03-19T16:00:00Z', 0.92),
];

/** The exact product of two plain decimal texts, written independently of the service. */
function product(a: string, b: string): string {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  const scale = af.length + bf.length;
  const digits = (BigInt(ai + af) * BigInt(bi + bf)).toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** A number's shortest text in plain notation: 1e-7 is 0.0000001. */
function plain(value: number): string {
  const [mantissa = '', exponentText = '0'] = String(value).split('e');
  const [integer = '', fraction = ''] = mantissa.split('.');
  const exponent = Number(exponentText);
  const digits = integer + fraction;
  const point = integer.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** amount x numerator / denominator, rounded half away from zero to `decimals`. */
function converted(amount: string, numerator: number, denominator: number, decimals = 16): string {
  return exactQuotientText(product(amount, plain(numerator)), plain(denominator), decimals);
}

forEachEngine((engine) => {
  describe('amount: rates for an amount of the base currency', () => {
    let service: TestService;
    before(async () => {
      service = await startService({}, { engine });
      await service.store.writeObservations(DATA);
    });
    after(() => service.close());

    test('date: every rate is the exact quotient times the amount, rounded once', async () => {
      const { body, headers } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb&base=USD&symbols=JPY,EUR&amount=250.5',
      );
      assert.equal(headers['x-error'], undefined);
      assert.deepEqual(Object.keys(body), ['status', 'date', 'base', 'rates']);
      assert.deepEqual(body.rates.JPY, {
        rate: Number(converted('250.5', 163.2, 1.0863)),
        observation_time: '2024-03-19T15:00:00.000Z',
        source: 'ecb',
      });
      assert.equal(body.rates.EUR.rate, Number(converted('250.5', 1, 1.0863)));
    });

    test('the product is rounded, not the rate: 3 x 1/3 is 1 and decimals apply after', async () => {
      // 1 EUR = 0.92 USD at the IMF; in EUR, 1 USD is 1/0.92 = 1.0869565217391304...
      const three = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=imf&base=EUR&symbols=USD&amount=0.92&decimals=4',
      );
      assert.equal(three.body.rates.USD.rate, 1);
      const rounded = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=imf&base=EUR&symbols=USD&amount=7&decimals=2',
      );
      // 7 / 0.92 = 7.6086..., while 7 x round(1/0.92, 2) would be 7.63.
      assert.equal(rounded.body.rates.USD.rate, 7.61);
      assert.equal(rounded.body.rates.USD.rate, Number(converted('7', 1, 0.92, 2)));
    });

    test('latest, range and all take the amount too, each entry multiplied', async () => {
      const latest = await getJson(
        service.app,
        '/v1/exchangerate/latest?sources=ecb&base=EUR&symbols=JPY&amount=1000',
      );
      assert.equal(latest.body.rates.JPY.rate, 163200);
      const range = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-18/2024-03-19?sources=ecb&base=USD&symbols=JPY&amount=12.25',
      );
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(range.body.rates).map(([date, rates]) => [
            date,
            (rates as { JPY: { rate: number } }).JPY.rate,
          ]),
        ),
        {
          '2024-03-19': Number(converted('12.25', 163.2, 1.0863)),
          '2024-03-18': Number(converted('12.25', 162.5, 1.0872)),
        },
      );
      const all = await getJson(
        service.app,
        '/v1/exchangerate/all?sources=ecb&base=EUR&symbols=USD&amount=2',
      );
      assert.equal(all.body.rates['2024-03-18'].USD.rate, 2.1744);
      assert.equal(all.body.rates['2024-03-19'].USD.rate, 2.1726);
    });

    test('several sources per symbol: each source entry is multiplied', async () => {
      const { body } = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=imf,ecb&base=USD&symbols=EUR&max_sources_per_symbol=2&amount=3',
      );
      assert.equal(body.rates.EUR.imf.rate, 2.76);
      assert.equal(body.rates.EUR.ecb.rate, Number(converted('3', 1, 1.0863)));
    });

    test('csv and xml carry the multiplied rates in the same layout', async () => {
      const csv = await service.app.inject(
        '/v1/exchangerate/2024-03-19?sources=ecb&base=EUR&symbols=JPY,USD&amount=0.5&format=csv',
      );
      assert.equal(
        csv.body,
        'date,base,symbol,source,rate,observation_time\r\n' +
          '2024-03-19,EUR,JPY,ecb,81.6,2024-03-19T15:00:00.000Z\r\n' +
          '2024-03-19,EUR,USD,ecb,0.54315,2024-03-19T15:00:00.000Z\r\n',
      );
      const xml = await service.app.inject(
        '/v1/exchangerate/2024-03-18/2024-03-19?sources=ecb&base=EUR&symbols=USD&amount=0.5&decimals=3&format=xml&pretty_print=false',
      );
      assert.match(
        xml.body,
        /<rates><rate date="2024-03-19" symbol="USD" source="ecb" observation_time="2024-03-19T15:00:00.000Z">0.543<\/rate><rate date="2024-03-18" symbol="USD" source="ecb" observation_time="2024-03-18T15:00:00.000Z">0.544<\/rate><\/rates>/,
      );
    });

    test('every rate endpoint in every format: the same multiplied, rounded rates', async () => {
      // EUR-based ECB figures: 3.3 x 1.0863 = 3.58479 and 3.3 x 1.0872 = 3.58776, to 2 decimals.
      const expected: Record<string, string[]> = {
        latest: ['3.58'],
        '2024-03-19': ['3.58'],
        '2024-03-18/2024-03-19': ['3.58', '3.59'],
        all: ['3.58', '3.59'],
      };
      const ratesIn = (format: string, body: string): string[] => {
        if (format === 'csv')
          return body
            .trim()
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(',')[4]!);
        if (format === 'xml') return [...body.matchAll(/>([^<]*)<\/rate>/g)].map((m) => m[1]!);
        const rates = JSON.parse(body).rates;
        const entries = rates.USD ? [rates] : Object.values(rates);
        return entries.map((entry: any) => String(entry.USD.rate));
      };
      for (const [path, rates] of Object.entries(expected)) {
        for (const format of ['json', 'csv', 'xml']) {
          const url = `/v1/exchangerate/${path}?sources=ecb&base=EUR&symbols=USD&amount=3.3&decimals=2&format=${format}`;
          const response = await service.app.inject(url);
          assert.equal(response.statusCode, 200, url);
          assert.equal(response.headers['x-error'], undefined, url);
          assert.deepEqual(ratesIn(format, response.body), rates, url);
        }
      }
    });

    test('an unusable amount gets the default of 1 and an X-Error', async () => {
      const plain = await getJson(
        service.app,
        '/v1/exchangerate/2024-03-19?sources=ecb&base=EUR&symbols=JPY',
      );
      for (const amount of ['0', '-5', 'abc', '1e3', '1,5', '1'.repeat(31)]) {
        const { body, headers } = await getJson(
          service.app,
          `/v1/exchangerate/2024-03-19?sources=ecb&base=EUR&symbols=JPY&amount=${encodeURIComponent(amount)}`,
        );
        assert.deepEqual(body.rates, plain.body.rates, amount);
        assert.match(
          String(headers['x-error']),
          /^amount '.*' is not a positive decimal number of at most 30 digits: 1 is used$/,
          amount,
        );
        assert.equal(body.error, headers['x-error']);
      }
    });

    test('answers for different amounts are cached apart', async () => {
      const url = '/v1/exchangerate/2024-03-19?sources=ecb&base=EUR&symbols=JPY';
      const one = await getJson(service.app, url);
      const ten = await getJson(service.app, `${url}&amount=10`);
      const again = await getJson(service.app, url);
      assert.equal(one.body.rates.JPY.rate, 163.2);
      assert.equal(ten.body.rates.JPY.rate, 1632);
      assert.equal(again.body.rates.JPY.rate, 163.2);
      assert.notEqual(one.headers.etag, ten.headers.etag);
    });
  });
});

/** Publisher-like figures: 1 to 17 significant digits at any magnitude a rate has. */
const figure = fc
  .tuple(fc.integer({ min: 1, max: 17 }), fc.double({ min: 1e-9, max: 1e9, noNaN: true }))
  .map(([digits, value]) => Number(value.toPrecision(digits)))
  // A reciprocal of a price stands for that exactly (exact-numbers.test.ts).
  .filter((value) => value > 0 && !isReciprocalOfPrice(value));

/** Amounts as people type them: up to 30 digits, some after the point. */
const amountText = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 30n - 1n }), fc.integer({ min: 0, max: 12 }))
  .map(([digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
  });

describe('amount arithmetic', () => {
  test('amount x numerator / denominator is exact, then rounded once half away from zero', () => {
    fc.assert(
      fc.property(
        figure,
        figure,
        fc.oneof(amountText, fc.constantFrom('1', '2', '0.5', '100', '250.5')),
        fc.integer({ min: 1, max: 40 }),
        (a, b, amount, decimals) => {
          assert.equal(
            formatScaledQuotient(a, b, parseDecimal(amount)!, decimals),
            converted(amount, a, b, decimals),
            `${amount} x ${a} / ${b} @ ${decimals}`,
          );
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
