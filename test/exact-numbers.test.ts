import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  divideDecimals,
  meanOfDecimals,
  multiplyDecimals,
  shiftDecimal,
} from '../src/exact-decimal.js';
import { formatQuotient } from '../src/format/rate-number.js';
import { ObservationBuilder } from '../src/sources/observation-builder.js';
import { findSource } from '../src/sources/registry.js';
import {
  exactQuotientText,
  isReciprocalOfPrice,
  significantDigits,
} from './support/exact-reference.js';
import { forEachEngine, getJson, startService, type TestService } from './support/harness.js';

/**
 * Publisher-like figures: 1 to 17 significant digits at any magnitude a rate has (those of
 * more than 12 that are not the reciprocal of a price, which are tested apart below).
 */
const figure = fc
  .tuple(fc.integer({ min: 1, max: 17 }), fc.double({ min: 1e-9, max: 1e9, noNaN: true }))
  .map(([digits, value]) => Number(value.toPrecision(digits)))
  .filter((value) => value > 0 && !isReciprocalOfPrice(value));

/** a x b exactly, for two decimal texts (plain or in exponent notation). */
function exactProduct(a: string, b: string): string {
  const parse = (text: string): [bigint, number] => {
    const [mantissa = '', exponent = '0'] = text.split('e');
    const [integer = '', fraction = ''] = mantissa.split('.');
    return [BigInt(integer + fraction), fraction.length - Number(exponent)];
  };
  const [x, xScale] = parse(a);
  const [y, yScale] = parse(b);
  let scale = xScale + yScale;
  let digits = (x * y).toString();
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  digits = digits.padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * Prices as publishers print them: 1 to 10 significant digits. Not those whose reciprocal a
 * double prints in 14 digits or fewer without being exactly that (1 / 0.000100673858 prints as
 * 9933.0652452): such a stored rate is taken for the figure it prints, as a publisher's is.
 */
const price = fc
  .tuple(fc.integer({ min: 1, max: 10 }), fc.double({ min: 1e-6, max: 1e7, noNaN: true }))
  .map(([digits, value]) => Number(value.toPrecision(digits)))
  .filter(
    (value) =>
      value > 0 &&
      (significantDigits(String(1 / value)) >= 15 ||
        significantDigits(exactQuotientText('1', String(value), 60)) < 15),
  );

describe('exact cross rates', () => {
  test('the quotient of two figures is the exact decimal quotient of their shortest texts, rounded half away from zero', () => {
    fc.assert(
      fc.property(figure, figure, fc.integer({ min: 1, max: 40 }), (a, b, decimals) => {
        assert.equal(
          formatQuotient(a, b, decimals),
          exactQuotientText(String(a), String(b), decimals),
          `${a} / ${b} @ ${decimals}`,
        );
      }),
      { numRuns: 20_000 },
    );
  });

  test('a quote stored inverted (1 / price) stands for the exact reciprocal of the price', () => {
    fc.assert(
      fc.property(price, price, figure, fc.integer({ min: 1, max: 30 }), (p, q, n, decimals) => {
        const what = `1/${p}, 1/${q}, ${n} @ ${decimals}`;
        // The price comes back as printed, and every cross is exact on it.
        assert.equal(
          formatQuotient(1, 1 / p, decimals),
          exactQuotientText(String(p), '1', decimals),
          what,
        );
        assert.equal(
          formatQuotient(1 / p, 1, decimals),
          exactQuotientText('1', String(p), decimals),
          what,
        );
        assert.equal(
          formatQuotient(1 / q, 1 / p, decimals),
          exactQuotientText(String(p), String(q), decimals),
          what,
        );
        assert.equal(
          formatQuotient(n, 1 / p, decimals),
          exactQuotientText(exactProduct(String(n), String(p)), '1', decimals),
          what,
        );
      }),
      { numRuns: 5_000 },
    );
    // A feed's figures of 13 and 14 digits are taken as printed.
    for (const printed of [1.5046777779523, 0.92245341335049, 163.28476351849])
      assert.equal(formatQuotient(printed, 1, 16), String(printed));
    // The Bank of Russia's 92.5058 RUB per USD and 100.7452 per EUR, stored inverted.
    assert.equal(formatQuotient(1, 1 / 92.5058, 16), '92.5058');
    assert.equal(formatQuotient(1 / 92.5058, 1 / 100.7452, 16), '1.0890690097269577');
    assert.equal(formatQuotient(1 / 100.7452, 1 / 92.5058, 16), '0.9182154584039736');
  });

  test('halves round away from zero, and decimals above 17 give exact digits', () => {
    const cases: [number, number, number, string][] = [
      [6.3945, 0.9, 2, '7.11'], // exactly 7.105
      [85.4451, 1.1111, 16, '76.9013590135901359'],
      [1, 3, 30, '0.333333333333333333333333333333'],
      // 23 decimals as published: more than a double's exact powers of ten hold.
      [1.00000000000061e-9, 1, 23, '0.00000000100000000000061'],
      [1.00000000000061e-9, 1, 30, '0.00000000100000000000061'],
      [1.00000000000061e-9, 2, 30, '0.000000000500000000000305'],
      [2, 3, 20, '0.66666666666666666667'],
      [1, 8, 2, '0.13'], // 0.125
      [1, 1.0863, 16, '0.9205560158335635'],
      [99.995, 1, 2, '100'],
      [1, 1e-7, 2, '10000000'],
      [1e-7, 3, 12, '0.000000033333'],
    ];
    for (const [a, b, decimals, expected] of cases) {
      assert.equal(formatQuotient(a, b, decimals), expected, `${a} / ${b} @ ${decimals}`);
    }
  });

  test('publisher figures are scaled, averaged and converted without float noise', () => {
    assert.equal(shiftDecimal('59.2589', -2), '0.592589');
    assert.equal(String(Number(shiftDecimal('59.2589', -2))), '0.592589');
    assert.equal(meanOfDecimals('5.3001', '5.3003'), '5.3002');
    assert.equal(multiplyDecimals('2.5', '31.1034768'), '77.758692');
    assert.equal(divideDecimals('-1', '8', 2), '-0.13');
  });
});

forEachEngine((engine) => {
  describe('quotes published the other way round', () => {
    let service: TestService;
    before(async () => {
      service = await startService({ today: () => '2024-03-20' }, { engine });
      // As the Bank of Russia prints them: roubles per unit (per 100 yen).
      const builder = new ObservationBuilder(findSource('cbr')!);
      builder.addPrice('2024-03-15', 'USD', '92.5058');
      builder.addPrice('2024-03-15', 'EUR', '100.7452');
      builder.addPrice('2024-03-15', 'JPY', '62.1335', '100');
      await service.store.writeObservations(builder.result().observations);
    });
    after(() => service.close());

    test('answer with the printed prices, and exact crosses of them', async () => {
      const rates = async (query: string) =>
        (await getJson(service.app, `/v1/exchangerate/2024-03-15?sources=cbr&${query}`)).body.rates;
      assert.equal((await rates('base=USD&symbols=RUB')).RUB.rate, 92.5058);
      assert.equal((await rates('base=JPY&symbols=RUB')).RUB.rate, 0.621335);
      const euro = await rates('base=EUR&symbols=RUB,USD,JPY');
      assert.equal(euro.RUB.rate, 100.7452);
      const csv = await service.app.inject(
        '/v1/exchangerate/2024-03-15?sources=cbr&base=EUR&symbols=USD,JPY&decimals=30&format=csv',
      );
      assert.match(
        csv.body,
        new RegExp(`,USD,cbr,${exactQuotientText('100.7452', '92.5058', 30)},`),
      );
      assert.match(
        csv.body,
        new RegExp(`,JPY,cbr,${exactQuotientText('100.7452', '0.621335', 30)},`),
      );
      // In roubles: the reciprocals, exactly rounded.
      const rouble = await service.app.inject(
        '/v1/exchangerate/2024-03-15?sources=cbr&base=RUB&symbols=USD&format=csv',
      );
      assert.match(rouble.body, new RegExp(`,USD,cbr,${exactQuotientText('1', '92.5058', 16)},`));
    });
  });
});
