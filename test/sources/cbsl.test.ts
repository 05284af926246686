import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import {
  publisher as cbsl,
  cbslQuery,
  parseCbslForm,
  parseCbslResults,
} from '../../src/sources/cbsl.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbsl.yml'];

describe('cbsl on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbsl', {
      recordings: RECORDINGS,
      from: '2025-05-15',
      to: '2025-05-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 55 tables of 3 dates (15, 16 and 19 May); the offshore yuan (CNH) is no ISO currency,
    // so its 3 rates are dropped.
    await assertIngested(run, { stored: 162, symbols: 54, dropped: 3 });
    assert.match(run.report.dropReasons.join(' | '), /'CNH' is not a currency code/);
    assert.deepEqual(run.replay.requests, [
      '/cbsl_custom/exrates/exrates.php',
      '/cbsl_custom/exrates/exrates_results.php',
    ]);
    // Colombo has no DST: midnight is 18:30Z the day before.
    await assertSpots(run, [
      // US Dollar, 2025-05-19: 1 USD -> LKR 298.8165
      {
        date: '2025-05-18',
        base: 'USD',
        symbol: 'LKR',
        rate: '298.8165',
        decimals: 10,
        observationTime: '2025-05-18T18:30:00.000Z',
      },
      // Gold (per Troy oz.), 2025-05-15: 1 XAU -> LKR 945076.6125
      {
        date: '2025-05-14',
        base: 'XAU',
        symbol: 'LKR',
        rate: '945076.6125',
        decimals: 6,
        observationTime: '2025-05-14T18:30:00.000Z',
      },
      // Euro 334.3159 against the dollar, 2025-05-19
      {
        date: '2025-05-18',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('334.3159', '298.8165', 10),
        decimals: 10,
        observationTime: '2025-05-18T18:30:00.000Z',
      },
    ]);
  });
});

describe('cbsl parser on inline samples', () => {
  const table = (name: string, header: string, rows: [string, string, string][]) =>
    `<h2 id="LOOKUPS_IEXE0101"> ${name} </h2><div class="table-responsive"><table class="table rates">` +
    `<thead><tr><th>Date</th><th>${header}</th><th>inverse</th></tr></thead><tbody>` +
    rows.map((cells) => `<tr>${cells.map((cell) => `<td> ${cell} </td>`).join('')}</tr>`).join('') +
    '</tbody></table></div>';
  const page = (body: string) => `<!DOCTYPE html>\n<html><body>${body}</body></html>\n`;

  test('LKR per n units from the header; missing values and unknown codes dropped', () => {
    const text = page(
      table('Japanese Yen', '100  JPY  -&gt; LKR', [
        ['2024-01-02', '228.1234', '0.4384'],
        ['2024-01-01', '', ''],
      ]) + table('Chinese Yuan (Offshore)', '1  CNH  -&gt; LKR', [['2024-01-02', '45.1', '0.02']]),
    );
    const result = parseCbslResults(text, cbsl);
    assert.deepEqual(observationRows(result), [['JPY', '2024-01-01T18:30:00.000Z', 1 / 2.281234]]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /JPY on 2024-01-01.*'CNH'/);
  });

  test('the form gives the currencies; the query is the form posted', () => {
    const form = parseCbslForm(
      '<form><input name="chk_cur[]" value="AUD~Australian Dollar" type="checkbox">' +
        '<input name="chk_cur[]" value="MYR~Malaysia  Ringgit" type="checkbox">' +
        '<button value="Select All"></button></form>',
    );
    assert.deepEqual(form.currencies, ['AUD~Australian Dollar', 'MYR~Malaysia  Ringgit']);
    assert.equal(
      cbslQuery({ from: '2024-01-01', to: '2024-01-31' }, form.currencies),
      'lookupPage=lookup_daily_exchange_rates.php&rangeType=dates&txtStart=2024-01-01&txtEnd=2024-01-31' +
        '&chk_cur%5B%5D=AUD%7EAustralian+Dollar&chk_cur%5B%5D=MYR%7EMalaysia++Ringgit&submit_button=Submit',
    );
    assert.throws(() => parseCbslForm('<html><body>Maintenance</body></html>'), /no currencies/);
  });

  test('cut-short and unexpected pages fail', () => {
    const text = page(table('US Dollar', '1  USD  -&gt; LKR', [['2024-01-02', '300.1', '0.0033']]));
    assert.throws(() => parseCbslResults(text.slice(0, -20), cbsl), /cut short/);
    assert.throws(() => parseCbslResults(page('<p>No data</p>'), cbsl), /no currency tables/);
    assert.throws(
      () => parseCbslResults(text.replace('USD  -&gt; LKR', 'USD'), cbsl),
      /no 'n CCY -> LKR' column/,
    );
  });
});
