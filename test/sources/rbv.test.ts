import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as rbv, isoFromRbvDate, parseRbvHtml } from '../../src/sources/rbv.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['rbv.yml'];

describe('rbv on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('rbv', {
      recordings: RECORDINGS,
      from: '2025-08-26',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 185 rows (26-Aug-25 to 22 May 2026) x 6 currencies; the row "05 January 2025", between
    // 6 and 2 January 2026 in the list, is dropped
    await assertIngested(run, { stored: 1110, dropped: 1, symbols: 6 });
    // No documented time: 00:00 in Port Vila (UTC+11, no daylight saving) is 13:00Z the day
    // before, the UTC date the date endpoint finds a day's rates under
    await assertSpots(run, [
      // "22 May 2026": USD 116.28
      {
        date: '2026-05-21',
        base: 'USD',
        symbol: 'VUV',
        rate: '116.28',
        decimals: 10,
        observationTime: '2026-05-21T13:00:00.000Z',
      },
      // "03-Sep-25": JPY 0.8004
      {
        date: '2025-09-02',
        base: 'JPY',
        symbol: 'VUV',
        rate: '0.8004',
        decimals: 10,
        observationTime: '2025-09-02T13:00:00.000Z',
      },
      // "16 March 2026": AUD 82.21, EUR 134.27
      {
        date: '2026-03-15',
        base: 'AUD',
        symbol: 'EUR',
        rate: divideDecimals('82.21', '134.27', 10),
        decimals: 10,
        observationTime: '2026-03-15T13:00:00.000Z',
      },
    ]);
  });
});

describe('rbv parser on inline samples', () => {
  const page = (rows: string, end = '</tbody></table>') =>
    `<html><body><table id="list_1_com_fabrik_1"><thead><tr><th><span>Date</span></th>` +
    `<th><span>USD</span></th><th><span>JPY</span></th><th style="display:none"><input></th>` +
    `</tr></thead><tbody class="fabrik_groupdata">${rows}${end}</body></html>`;
  const row = (date: string, usd: string, jpy: string) =>
    `<tr class="fabrik_row oddRow0"><td> ${date} </td><td> ${usd} </td><td> ${jpy} </td>` +
    `<td style="display:none"><input type="checkbox"></td></tr>`;

  test('VUV per unit, both date formats', () => {
    const result = parseRbvHtml(page(row('1 July 2026', '116.28', '0.7316')), rbv);
    assert.deepEqual(observationRows(result), [
      ['USD', '2026-06-30T13:00:00.000Z', 1 / 116.28],
      ['JPY', '2026-06-30T13:00:00.000Z', 1 / 0.7316],
    ]);
    assert.equal(isoFromRbvDate('03-Sep-25'), '2025-09-03');
    assert.equal(isoFromRbvDate('22 May 2026'), '2026-05-22');
  });

  test('a missing figure or an unreadable date is dropped and counted', () => {
    const result = parseRbvHtml(page(row('1 July 2026', '', '0.73') + row('soon', '1', '1')), rbv);
    assert.equal(result.observations.length, 1);
    assert.equal(result.dropped, 3);
  });

  test('a row dated outside the rows around it (a typo in its year) is dropped and counted', () => {
    const result = parseRbvHtml(
      page(
        row('06 January 2026', '119.5', '0.76') +
          row('05 January 2025', '119.58', '0.763') +
          row('02 January 2026', '119.62', '0.7641'),
      ),
      rbv,
    );
    assert.deepEqual(
      observationRows(result).map(([symbol, time]) => `${symbol} ${time}`),
      [
        'USD 2026-01-05T13:00:00.000Z',
        'JPY 2026-01-05T13:00:00.000Z',
        'USD 2026-01-01T13:00:00.000Z',
        'JPY 2026-01-01T13:00:00.000Z',
      ],
    );
    assert.equal(result.dropped, 1);
    assert.deepEqual(result.dropReasons, [
      "'05 January 2025' lies outside 2026-01-06..2026-01-02 around it in the list",
    ]);
  });

  test('a page cut short or without the table is refused', () => {
    assert.throws(() => parseRbvHtml(page(row('1 July 2026', '1', '1'), ''), rbv), /cut short/);
    assert.throws(
      () => parseRbvHtml('<html><table><tr><td>x</td></tr></table></html>', rbv),
      /Date/,
    );
  });
});
