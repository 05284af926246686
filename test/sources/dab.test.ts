import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as dab, parseDabHtml } from '../../src/sources/dab.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['dab.yml'];

describe('dab on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('dab', {
      recordings: RECORDINGS,
      from: '2026-05-18',
      to: '2026-05-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 10 currencies on each of 3 pages (the Iranian toman as 10 rials); the monthly
    // "Average Rates" table is not read.
    await assertIngested(run, { stored: 30, symbols: 10 });
    assert.equal(run.replay.requests.length, 3);
    // Kabul has no DST: midnight is 19:30Z the day before.
    await assertSpots(run, [
      // 18 May 2026, USD$: Transfer (Sell) 64.0267, Transfer (Buy) 63.9267
      {
        date: '2026-05-17',
        base: 'USD',
        symbol: 'AFN',
        rate: '63.9767',
        decimals: 10,
        observationTime: '2026-05-17T19:30:00.000Z',
      },
      // IRAN Toman: 0.0008 and 0.0004 AFN per toman of 10 rials
      {
        date: '2026-05-17',
        base: 'IRR',
        symbol: 'AFN',
        rate: '0.00006',
        decimals: 12,
        observationTime: '2026-05-17T19:30:00.000Z',
      },
      // EURO€: 73.7838 and 73.5238, against the dollar's 63.9767
      {
        date: '2026-05-17',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('73.6538', '63.9767', 10),
        decimals: 10,
        observationTime: '2026-05-17T19:30:00.000Z',
      },
      // 20 May 2026, USD$: 63.7440 and 63.6440
      {
        date: '2026-05-19',
        base: 'USD',
        symbol: 'AFN',
        rate: '63.694',
        decimals: 10,
        observationTime: '2026-05-19T19:30:00.000Z',
      },
    ]);
  });
});

describe('dab parser on inline samples', () => {
  const page = (rows: string, updated = '2 January 2024') =>
    '<!DOCTYPE html><html><body><h2 class="mb-0">Exchange Rates</h2>' +
    `<p class="font-weight-light mb-0">Last updated: ${updated}</p>` +
    '<table><thead><tr><th>Currency</th><th>Cash (Sell)</th><th>Cash (Buy)</th>' +
    '<th>Transfer (Sell)</th><th>Transfer (Buy)</th></tr></thead><tbody>' +
    rows +
    '</tbody></table></body></html>\n';
  const row = (name: string, ...prices: string[]) =>
    `<tr><td>${name}</td>${prices.map((price) => `<td>${price}</td>`).join('')}</tr>`;

  test('names mapped to codes, transfer midpoints, tomans as ten rials', () => {
    const text = page(
      row('POUND£', '90.1', '89.1', '89.8', '89.4') +
        row('IRAN Toman', '0.0018', '0.0012', '0.0016', '0.0013') +
        row('GOLD (gram)', '5000', '4900', '4990', '4950') +
        row('INDIAN Rs.', '0.85', '0.84', '', '0.845'),
    );
    const result = parseDabHtml(text, dab);
    assert.deepEqual(observationRows(result), [
      ['GBP', '2024-01-01T19:30:00.000Z', 1 / 89.6],
      ['IRR', '2024-01-01T19:30:00.000Z', 1 / 0.000145],
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /unknown currency name 'GOLD \(gram\)'.*INR/);
  });

  test('cut-short pages and other pages fail', () => {
    const text = page(row('USD$', '64.1', '63.9', '64.0', '63.95'));
    assert.throws(() => parseDabHtml(text.slice(0, -30), dab), /cut short/);
    assert.throws(
      () => parseDabHtml('<html><body><h1>Page not found</h1></body></html>', dab),
      /no "Exchange Rates/,
    );
    assert.throws(
      () => parseDabHtml(text.replace('Transfer (Buy)', 'Buy'), dab),
      /Transfer \(Sell\) and Transfer \(Buy\)/,
    );
  });
});
