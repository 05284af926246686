import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { addDays, isCalendarDate, zonedTimeToUtc } from '../src/dates.js';
import { formatRate } from '../src/format/rate-number.js';
import { CsvSyntaxError, readCsvRecords } from '../src/import/csv-reader.js';

describe('formatRate', () => {
  test('rounds half away from zero on the shortest decimal text, drops trailing zeros, no exponents', () => {
    const cases: [number, number, string][] = [
      [1.005, 2, '1.01'],
      [0.125, 2, '0.13'],
      [0.124999, 2, '0.12'],
      [1.5, 0 + 1, '1.5'],
      [2.5, 16, '2.5'],
      [0.0000001, 16, '0.0000001'],
      [1e-7, 3, '0'],
      [1.23e21, 4, '1230000000000000000000'],
      [9.9999, 2, '10'],
      [99.995, 2, '100'],
      // 1 / 1.0945 (a quote stored inverted) stands for that exactly: 0.91365920511649154...
      [0.9136592051164916, 16, '0.9136592051164915'],
      [0.006127450980392158, 16, '0.0061274509803922'],
      [145.88396528095018, 4, '145.884'],
      [100, 16, '100'],
      [15000, 2, '15000'],
      [123456789012345, 0, '123456789012345'],
      [1000.001, 3, '1000.001'],
      [0.001002, 6, '0.001002'],
      [1000000.0001, 4, '1000000.0001'],
    ];
    for (const [value, decimals, expected] of cases)
      assert.equal(formatRate(value, decimals), expected, `${value} @ ${decimals}`);
  });

  test('agrees with exact decimal arithmetic on random rates', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-12, max: 1e12, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        (value, decimals) => {
          const text = formatRate(value, decimals);
          assert.doesNotMatch(text, /e/i);
          // Reference: scale the shortest text by 10^decimals with BigInt and round the remainder.
          const [digits, exponent] = value.toExponential().split('e') as [string, string];
          const mantissa = BigInt(digits.replace('.', ''));
          const scale = Number(exponent) - (digits.split('.')[1]?.length ?? 0) + decimals;
          const scaled =
            scale >= 0 ? mantissa * 10n ** BigInt(scale) : mantissa / 10n ** BigInt(-scale);
          const remainder = scale >= 0 ? 0n : mantissa % 10n ** BigInt(-scale);
          const rounded =
            scale < 0 && remainder * 2n >= 10n ** BigInt(-scale) ? scaled + 1n : scaled;
          const padded = rounded.toString().padStart(decimals + 1, '0');
          const expected = `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`.replace(
            /\.?0+$/,
            '',
          );
          assert.equal(text, expected || '0');
        },
      ),
      { numRuns: 2000, seed: 42 },
    );
  });

  test("a publisher's figure of up to 15 digits is printed as written", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }),
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: 0, max: 6 }),
        (mantissa, places, spare) => {
          const digits = mantissa.toString().padStart(places + 1, '0');
          const written =
            places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
          const expected = written.includes('.') ? written.replace(/\.?0+$/, '') : written;
          assert.equal(formatRate(Number(written), places + spare), expected);
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
  });
});

describe('dates and time zones', () => {
  test('calendar dates', () => {
    for (const good of ['2024-02-29', '2000-02-29', '1999-01-04', '2023-12-31'])
      assert.ok(isCalendarDate(good), good);
    for (const bad of [
      '2023-02-29',
      '1900-02-29',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-1-5',
      '0000-01-01',
      'x',
    ]) {
      assert.ok(!isCalendarDate(bad), bad);
    }
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
    assert.equal(addDays('2024-03-01', -1), '2024-02-29');
  });

  test('a wall-clock time in a zone becomes UTC with the offset of that day', () => {
    assert.equal(
      zonedTimeToUtc('2024-01-15', '16:00', 'Europe/Berlin').toISOString(),
      '2024-01-15T15:00:00.000Z',
    );
    assert.equal(
      zonedTimeToUtc('2024-07-01', '16:00', 'Europe/Berlin').toISOString(),
      '2024-07-01T14:00:00.000Z',
    );
    // The days the clocks change: 31 March and 27 October 2024.
    assert.equal(
      zonedTimeToUtc('2024-03-31', '16:00', 'Europe/Berlin').toISOString(),
      '2024-03-31T14:00:00.000Z',
    );
    assert.equal(
      zonedTimeToUtc('2024-10-27', '16:00', 'Europe/Berlin').toISOString(),
      '2024-10-27T15:00:00.000Z',
    );
    assert.equal(
      zonedTimeToUtc('2024-01-15', '16:00', 'Australia/Sydney').toISOString(),
      '2024-01-15T05:00:00.000Z',
    );
    assert.equal(
      zonedTimeToUtc('2024-07-15', '13:00', 'America/Sao_Paulo').toISOString(),
      '2024-07-15T16:00:00.000Z',
    );
    // The years 1-99 are no years 1901-1999 (Berlin then kept local mean time, +0:53:28).
    assert.equal(
      zonedTimeToUtc('0050-06-01', '16:00', 'Europe/Berlin').toISOString(),
      '0050-06-01T15:06:32.000Z',
    );
    assert.equal(
      zonedTimeToUtc('0001-01-01', '00:00', 'UTC').toISOString(),
      '0001-01-01T00:00:00.000Z',
    );
  });
});

describe('CSV reader', () => {
  test('quoted fields, doubled quotes, CRLF and LF, a BOM, blank lines', () => {
    const records = [...readCsvRecords('\uFEFFa,"b,c","d ""e"""\r\n\r\n1,2,3\n"multi\nline",x,\n')];
    assert.deepEqual(records, [
      { line: 1, fields: ['a', 'b,c', 'd "e"'] },
      { line: 3, fields: ['1', '2', '3'] },
      { line: 4, fields: ['multi\nline', 'x', ''] },
    ]);
    assert.throws(() => [...readCsvRecords('a,"open\n')], CsvSyntaxError);
  });
});
