import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbc, nbcFormBody, parseNbcPage } from '../../src/sources/nbc.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbc.yml'];

describe('nbc on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbc', {
      recordings: RECORDINGS,
      from: '2026-05-16',
      to: '2026-05-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // Each page: the official USD rate and 28 table rows, of which CNH (offshore yuan, no ISO
    // code) is dropped: 28 rates. Dates: 2026-05-18, -19, -20 posted, and 2026-05-25, the
    // latest, shown by each of the three pages fetched for their form token (stored once).
    // Dropped: CNH on each of the 6 pages.
    await assertIngested(run, { stored: 112, symbols: 28, dropped: 6 });
    assert.equal(run.replay.requests.length, 6);
    await assertSpots(run, [
      // 2026-05-20 official rate 4022 KHR / USD; no documented time: 00:00 Phnom Penh (UTC+7)
      // is 17:00Z the day before
      {
        date: '2026-05-20',
        base: 'USD',
        symbol: 'KHR',
        rate: '4022',
        decimals: 12,
        observationTime: '2026-05-19T17:00:00.000Z',
      },
      // JPY unit 100, average 2541.50 KHR
      {
        date: '2026-05-20',
        base: 'JPY',
        symbol: 'KHR',
        rate: '25.415',
        decimals: 12,
        observationTime: '2026-05-19T17:00:00.000Z',
      },
      // 2026-05-18: EUR average 4693.50 and USD 4014 KHR, USD per EUR is their ratio; observed
      // at 17:00Z on 2026-05-17, the UTC date that shows it
      {
        date: '2026-05-17',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.169282511211',
        decimals: 12,
        observationTime: '2026-05-17T17:00:00.000Z',
      },
      // SDR is stored as XDR: average 5535.50 KHR on 2026-05-18
      {
        date: '2026-05-17',
        base: 'XDR',
        symbol: 'KHR',
        rate: '5535.5',
        decimals: 10,
        observationTime: '2026-05-17T17:00:00.000Z',
      },
    ]);
  });
});

describe('nbc parser on inline samples', () => {
  const row = (symbol: string, unit: string, bid: string, ask: string, average: string) =>
    `<tr><td>x</td><td align='center'>${symbol}/KHR</td><td>${unit}</td><td>${bid}</td>` +
    `<td>${ask}</td><td>${average}</td></tr>`;
  const page = (rows: string) =>
    '<!DOCTYPE html><html><body>Exchange Rate on : <font color="#FF3300">2026-01-05</font>' +
    'Official Exchange Rate : <font color="#FF3300">4005</font> KHR / USD' +
    '<input type="hidden" name="tk" value="a/b+c="/>' +
    '<table class="tbl-responsive"><tr><td>Currency</td><td>Symbol</td><td>Unit</td><td>Bid</td>' +
    `<td>Ask</td><td>Average</td></tr>${rows}</table></body></html>`;

  test('units, the average (or the bid/ask midpoint), SDR as XDR; CNH dropped', () => {
    const extraction = parseNbcPage(
      page(
        row('VND', '1000', '153', '154', '153.50') +
          row('SDR', '1', '5508', '5563', '') +
          row('CNH', '1', '590', '596', '593.00'),
      ),
      nbc,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2026-01-04T17:00:00.000Z', 1 / 4005],
      ['VND', '2026-01-04T17:00:00.000Z', 1 / 0.1535],
      ['XDR', '2026-01-04T17:00:00.000Z', 1 / 5535.5],
    ]);
    assert.equal(extraction.dropped, 1);
    assert.equal(extraction.token, 'a/b+c=');
    assert.equal(
      nbcFormBody('2026-01-05', extraction.token),
      'exdate=2026-01-05&tk=a%2Fb%2Bc%3D&view=View',
    );
  });

  test('a page cut short, another page or another table is refused', () => {
    assert.throws(() => parseNbcPage(page('').slice(0, -20), nbc), /cut short/);
    assert.throws(
      () => parseNbcPage('<html><body>Maintenance</body></html>', nbc),
      /not the exchange-rate page/,
    );
    assert.throws(
      () => parseNbcPage(page('').replace('<td>Average</td>', '<td>Mid</td>'), nbc),
      /unexpected rate table columns/,
    );
  });
});
