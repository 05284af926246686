import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals, meanOfDecimals } from '../../src/exact-decimal.js';
import { publisher as cbllr, parseCbllrHtml } from '../../src/sources/cbllr.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbllr.yml'];

describe('cbllr on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    // The first page reaches back to 2026-04-11, so a window from there needs no second page.
    run = await replayPublisher('cbllr', {
      recordings: RECORDINGS,
      from: '2026-04-11',
      to: '2026-05-23',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    assert.deepEqual(run.replay.requests, ['/research/buying-selling-rates']);
    // 31 rows, 2026-04-11 to 2026-05-23, one rate (LRD) each
    await assertIngested(run, { stored: 31, symbols: 1 });
    await assertSpots(run, [
      // Saturday, May 23, 2026: buying L$182.0819, selling L$183.9653 per US$1.00; Monrovia
      // keeps UTC all year
      {
        date: '2026-05-23',
        base: 'USD',
        symbol: 'LRD',
        rate: meanOfDecimals('182.0819', '183.9653'),
        observationTime: '2026-05-23T00:00:00.000Z',
      },
      // Monday, April 13, 2026: L$183.2773 / L$185.3335
      {
        date: '2026-04-13',
        base: 'USD',
        symbol: 'LRD',
        rate: meanOfDecimals('183.2773', '185.3335'),
        observationTime: '2026-04-13T00:00:00.000Z',
      },
      // The same, from the Liberian dollar
      {
        date: '2026-04-13',
        base: 'LRD',
        symbol: 'USD',
        rate: divideDecimals('1', meanOfDecimals('183.2773', '185.3335'), 12),
        decimals: 12,
        observationTime: '2026-04-13T00:00:00.000Z',
      },
    ]);
  });

  test('a window older than the first page walks on to the next page', async () => {
    const report = await run.ingest({ from: '2026-03-01', to: '2026-05-23' });
    // The recording holds only the first page: the second is asked for and reported missing.
    assert.deepEqual(run.replay.requests.slice(-2), [
      '/research/buying-selling-rates',
      '/research/buying-selling-rates?page=1',
    ]);
    assert.match(report.error ?? '', /page=1: HTTP 404/);
  });
});

describe('cbllr parser on inline samples', () => {
  const page = (rows: string, pager = '') =>
    '<html><body><table class="table"><thead><tr><th>Date</th><th>Buying</th><th>Selling</th></tr></thead><tbody>' +
    rows +
    `</tbody></table>${pager}</body></html>\n`;
  const row = (datetime: string, buying: string, selling: string) =>
    `<tr><td><div><time datetime="${datetime}">x</time></div></td><td>${buying}  </td><td>${selling}</td></tr>`;

  test('midpoint of buying and selling, per the amount of US dollars quoted', () => {
    const result = parseCbllrHtml(
      page(
        row('2026-05-23T12:00:00Z', 'L$182.0819/US$1.00', 'L$183.9653/US$1.00') +
          row('2026-05-22T12:00:00Z', 'L$18,208.19/US$100', 'L$18,396.53/US$100'),
        '<a href="?page=1" rel="next">Next</a>',
      ),
      cbllr,
    );
    assert.deepEqual(observationRows(result), [
      ['LRD', '2026-05-23T00:00:00.000Z', 183.0236],
      ['LRD', '2026-05-22T00:00:00.000Z', 183.0236],
    ]);
    assert.equal(result.oldest, '2026-05-22');
    assert.equal(result.hasNext, true);
  });

  test('rows without a date or a rate are dropped and counted', () => {
    const result = parseCbllrHtml(
      page(
        row('2026-05-23T12:00:00Z', 'n/a', 'L$183.9653/US$1.00') + row('', 'L$1/US$1', 'L$1/US$1'),
      ),
      cbllr,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
    assert.equal(result.hasNext, false);
  });

  test('a cut-short page or one without the table is refused', () => {
    const html = page(row('2026-05-23T12:00:00Z', 'L$182.0819/US$1.00', 'L$183.9653/US$1.00'));
    assert.throws(() => parseCbllrHtml(html.slice(0, 120), cbllr), /cut short/);
    assert.throws(
      () => parseCbllrHtml('<html><body><p>Site under maintenance</p></body></html>', cbllr),
      /no table of buying and selling rates/,
    );
  });
});
