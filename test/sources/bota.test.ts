import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  publisher as bota,
  botaRequestBody,
  parseBotaForm,
  parseBotaHtml,
} from '../../src/sources/bota.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bota.yml'];
const REFUSED = ['bota_no_token.yml'];

describe('bota on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bota', {
      recordings: RECORDINGS,
      from: '2026-05-19',
      to: '2026-05-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The form page, then one posted day: 43 rows, of which RUR repeats RUB (dropped)
    await assertIngested(run, { stored: 42, symbols: 42, dropped: 1 });
    assert.equal(run.report.requests, 2);
    assert.match(run.report.dropReasons[0]!, /RUR repeats RUB/);
    // No fixing time is documented: 00:00 Dar es Salaam is 21:00Z the day before.
    await assertSpots(run, [
      // USD mean "2,602.0,545" TZS
      {
        date: '2026-05-19',
        base: 'USD',
        symbol: 'TZS',
        rate: '2602.0545',
        decimals: 10,
        observationTime: '2026-05-18T21:00:00.000Z',
      },
      // UGX mean "0.7,050"
      {
        date: '2026-05-19',
        base: 'UGX',
        symbol: 'TZS',
        rate: '0.705',
        decimals: 12,
        observationTime: '2026-05-18T21:00:00.000Z',
      },
      // KWD mean "8,472.3,000"
      {
        date: '2026-05-19',
        base: 'KWD',
        symbol: 'TZS',
        rate: '8472.3',
        decimals: 10,
        observationTime: '2026-05-18T21:00:00.000Z',
      },
    ]);
  });
});

describe('bota when the bank refuses the form', { skip: skipWithoutRecordings(REFUSED) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bota', {
      recordings: REFUSED,
      from: '2026-05-19',
      to: '2026-05-19',
    });
  });
  after(() => run?.close());

  test('a page without its token is reported with the URL, and nothing is stored', async () => {
    assert.match(
      run.report.error ?? '',
      /\/ExchangeRate\/previous_rates: the rates page offers no __RequestVerificationToken/,
    );
    assert.equal(run.report.stored, 0);
    const status = (await run.get('/v1/exchangerate/status')).body;
    const row = status.sources.find((s: { source: string }) => s.source === 'bota');
    assert.match(row.last_error, /__RequestVerificationToken/);
  });
});

describe('bota parser on inline samples', () => {
  const page = (rows: string) =>
    `<!DOCTYPE html><html><body><table id="myTable"><thead><tr><th>S/N</th><th>Currency</th>` +
    `<th>Buy</th><th>Sell</th><th>Mean</th><th>Date</th></tr></thead><tbody>${rows}</tbody>` +
    `</table></body></html>\n`;
  const row = (code: string, mean: string, date = '02-Jan-24') =>
    `<tr><td>1</td><td>${code}</td><td>1</td><td>1</td><td>${mean}</td><td>${date}</td></tr>`;

  test('the form: its token, posted with US dates', () => {
    const form = parseBotaForm(
      '<form><input name="__RequestVerificationToken" type="hidden" value="a-b_c" /></form>',
    );
    assert.equal(form.token, 'a-b_c');
    assert.equal(
      botaRequestBody(form.token, { from: '2026-05-01', to: '2026-05-31' }),
      '__RequestVerificationToken=a-b_c&dateFrom=05%2F01%2F2026&dateTo=05%2F31%2F2026',
    );
  });

  test('every comma is a separator; the mean is TZS per unit; unknown codes dropped', () => {
    const extraction = parseBotaHtml(
      page(row('USD', '2,516.6,832') + row('ZZZ', '1.0') + row('EUR', '')),
      bota,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2024-01-01T21:00:00.000Z', 1 / 2516.6832],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('a day without rates is an empty table; other pages and cut-short ones are refused', () => {
    assert.equal(parseBotaHtml(page(''), bota).observations.length, 0);
    assert.throws(() => parseBotaHtml(page(row('USD', '1')).slice(0, 200), bota), /cut short/);
    assert.throws(
      () => parseBotaHtml('<html><body><p>Server Error</p></body></html>', bota),
      /expected table#myTable/,
    );
    assert.throws(
      () => parseBotaHtml(page('<tr><td>1</td><td>USD</td></tr>'), bota),
      /2 cells, not 6/,
    );
  });
});
