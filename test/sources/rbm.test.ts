import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as rbm, parseRbmHtml, rbmRequestBody } from '../../src/sources/rbm.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['rbm.yml'];

describe('rbm on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('rbm', {
      recordings: RECORDINGS,
      from: '2024-01-02',
      to: '2024-01-05',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 38 codes x 4 days; CMD (no currency, the dollar's figures again) and IEP (not the Irish
    // pound's figures) are dropped on each day
    await assertIngested(run, { stored: 144, symbols: 36, dropped: 8 });
    // Blantyre (UTC+2, no daylight saving) documents no fixing time: 00:00 local is 22:00Z on
    // the day before, the UTC date the date endpoint finds a day's rates under
    await assertSpots(run, [
      // USD middle 1683.3663 on Jan 02
      {
        date: '2024-01-01',
        base: 'USD',
        symbol: 'MWK',
        rate: '1683.3663',
        decimals: 10,
        observationTime: '2024-01-01T22:00:00.000Z',
      },
      // EUR middle 1899.2782 on Jan 03
      {
        date: '2024-01-02',
        base: 'EUR',
        symbol: 'MWK',
        rate: '1899.2782',
        decimals: 10,
        observationTime: '2024-01-02T22:00:00.000Z',
      },
      // Jan 05: XDR middle 2250.2731, JPY middle 11.6142
      {
        date: '2024-01-04',
        base: 'XDR',
        symbol: 'JPY',
        rate: divideDecimals('2250.2731', '11.6142', 8),
        decimals: 8,
        observationTime: '2024-01-04T22:00:00.000Z',
      },
    ]);
  });
});

describe('rbm parser on inline samples', () => {
  const page = (rows: string, end = '</tbody></table>') =>
    `<div><table id="exchange-rates"><thead><tr><th>Currency</th><th>Buying</th><th>Middle</th>` +
    `<th>Selling</th><th>Date</th></tr></thead><tbody>${rows}${end}</div>`;
  const row = (code: string, middle: string, date = 'Jul 01&nbsp;&nbsp;2026') =>
    `<tr><td><strong> ${code} </strong></td><td>1</td><td>${middle}</td><td>2</td>` +
    `<td><span>${date.split('&nbsp;&nbsp;')[0]}&nbsp;&nbsp;</span><span>2026</span></td></tr>`;

  test('the middle rate in MWK per unit, English dates', () => {
    const result = parseRbmHtml(page(row('IDR', '0.1084')), rbm);
    assert.deepEqual(observationRows(result), [['IDR', '2026-06-30T22:00:00.000Z', 1 / 0.1084]]);
  });

  test('CMD, IEP and missing figures are dropped and counted', () => {
    const result = parseRbmHtml(
      page(row('CMD', '1683.3663') + row('IEP', '1201.7') + row('USD', '-')),
      rbm,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 3);
  });

  test('a page without the table or cut short is refused', () => {
    assert.throws(() => parseRbmHtml(page(row('USD', '1683'), ''), rbm), /cut short/);
    assert.throws(() => parseRbmHtml('<html><table></table></html>', rbm), /exchange-rates/);
  });

  test('the form posts dates as MM/DD/YYYY', () => {
    assert.equal(
      rbmRequestBody({ from: '2024-01-02', to: '2024-01-05' }),
      'RateTypes=&StartDate=01%2F02%2F2024&EndDate=01%2F05%2F2024',
    );
  });
});
