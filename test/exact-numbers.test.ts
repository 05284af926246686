import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  divideDecimals,
  meanOfDecimals,
  multiplyDecimals,
  shiftDecimal,
} from '../src/exact-decimal.js';
import { formatQuotient } from '../src/format/rate-number.js';
import { exactQuotientText } from './support/exact-reference.js';

/** Publisher-like figures: 1 to 17 significant digits at any magnitude a rate has. */
const figure = fc
  .tuple(fc.integer({ min: 1, max: 17 }), fc.double({ min: 1e-9, max: 1e9, noNaN: true }))
  .map(([digits, value]) => Number(value.toPrecision(digits)))
  .filter((value) => value > 0);

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
