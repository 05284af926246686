import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { divideDecimals } from '../../src/exact-decimal.js';
import {
  publisher as boa,
  boaQuote,
  parseBoaPage,
  parseBoaWorkbook,
} from '../../src/sources/boa.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['boa.yml'];

describe('boa on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('boa', {
      recordings: RECORDINGS,
      from: '2026-04-01',
      to: '2026-04-30',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The page, then the workbook: 17 sheets, 16 of them with 22 days of April 2026; the MRO
    // sheet has no rows. Nothing dropped.
    await assertIngested(run, { stored: 352, symbols: 16 });
    assert.equal(run.report.requests, 2);
    // No fixing time is documented: 00:00 Algiers is 23:00Z the day before.
    await assertSpots(run, [
      // "USD / DZD" 30/04/2026: 132.5429
      {
        date: '2026-04-30',
        base: 'USD',
        symbol: 'DZD',
        rate: '132.5429',
        decimals: 10,
        observationTime: '2026-04-29T23:00:00.000Z',
      },
      // "100 JPY / DZD" 30/04/2026: 82.8057 per 100 yen
      {
        date: '2026-04-30',
        base: 'JPY',
        symbol: 'DZD',
        rate: '0.828057',
        decimals: 12,
        observationTime: '2026-04-29T23:00:00.000Z',
      },
      // "EURO / DZD" 154.7637 the same day: euros per dollar
      {
        date: '2026-04-30',
        base: 'USD',
        symbol: 'EUR',
        rate: divideDecimals('132.5429', '154.7637', 10),
        decimals: 10,
        observationTime: '2026-04-29T23:00:00.000Z',
      },
    ]);
  });
});

describe('boa parser on inline samples', () => {
  const workbook = (sheets: Record<string, unknown[][]>): Uint8Array => {
    const book = utils.book_new();
    for (const [name, rows] of Object.entries(sheets)) {
      utils.book_append_sheet(book, utils.aoa_to_sheet(rows), name);
    }
    return new Uint8Array(write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  };

  test("the page's workbook link", () => {
    assert.equal(
      parseBoaPage('<a href="/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx">x</a>')
        .workbookUrl,
      'https://www.bank-of-algeria.dz/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx',
    );
    assert.throws(() => parseBoaPage('<html><body>Maintenance</body></html>'), /no Cotation/);
  });

  test('titles: per 100 units, EURO as EUR', () => {
    assert.deepEqual(boaQuote('100 JPY / DZD'), { units: '100', code: 'JPY' });
    assert.deepEqual(boaQuote(' CHF / DZD'), { units: '1', code: 'CHF' });
    assert.deepEqual(boaQuote('EURO / DZD'), { units: '1', code: 'EUR' });
    assert.equal(boaQuote('Cours moyens'), undefined);
  });

  test('DZD per unit or per 100 on serial or dd/mm/yyyy dates; blanks skipped', () => {
    const bytes = workbook({
      'JPY - DZD': [[], ['100 JPY / DZD'], [], [null, 'JPY / DZD'], [45293, 91.5], [45294, null]],
      'USD - DZD': [
        [],
        ['USD / DZD'],
        [],
        [null, 'USD / DZD'],
        ['03/01/2024', '134.25'],
        [45295, '-'],
      ],
    });
    const extraction = parseBoaWorkbook(bytes, boa);
    assert.deepEqual(observationRows(extraction), [
      ['JPY', '2024-01-01T23:00:00.000Z', 1 / 0.915],
      ['USD', '2024-01-02T23:00:00.000Z', 1 / 134.25],
    ]);
    // '-' on 2024-01-04 is no number
    assert.equal(extraction.dropped, 1);
  });

  test('another file, or a workbook cut short, is refused', () => {
    assert.throws(
      () => parseBoaWorkbook(workbook({ Feuil1: [['Cours'], ['x']] }), boa),
      /names no quote against DZD/,
    );
    const bytes = workbook({ 'USD - DZD': [[], ['USD / DZD'], [], [null, 'USD'], [45293, 1]] });
    assert.throws(() => parseBoaWorkbook(bytes.subarray(0, bytes.length - 200), boa), /ZIP/);
  });
});
