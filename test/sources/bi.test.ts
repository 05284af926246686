import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import {
  publisher as bi,
  biSearchBody,
  parseBiCurrent,
  parseBiForm,
  parseBiHistory,
} from '../../src/sources/bi.js';
import { midpoint } from '../../src/sources/publisher-text.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';
import { readCassette } from '../support/replay-server.js';

const RECORDINGS = ['bi.yml'];

describe('bi on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    // The page's last update is 2 April 2026: a run from that day needs the page alone.
    run = await replayPublisher('bi', {
      recordings: RECORDINGS,
      from: '2026-04-02',
      to: '2026-04-02',
    });
  });
  after(() => run?.close());

  test("today's table stored; published figures come back through the API", async () => {
    // 26 rows; CNH (offshore yuan) is no ISO code and is dropped.
    await assertIngested(run, { stored: 25, symbols: 25, dropped: 1 });
    assert.equal(run.replay.requests.length, 1);
    await assertSpots(run, [
      // USD 1: sell 17,087.01, buy 16,916.99. No time is documented: 00:00 in Jakarta (UTC+7,
      // no DST) is 17:00Z the day before.
      {
        date: '2026-04-02',
        base: 'USD',
        symbol: 'IDR',
        rate: midpoint('16916.99', '17087.01'),
        decimals: 10,
        observationTime: '2026-04-01T17:00:00.000Z',
      },
      // JPY 100: sell 10,762.12, buy 10,653.69 per 100 yen
      {
        date: '2026-04-02',
        base: 'JPY',
        symbol: 'IDR',
        rate: divideDecimals(midpoint('10653.69', '10762.12'), '100', 10),
        decimals: 10,
        observationTime: '2026-04-01T17:00:00.000Z',
      },
      // EUR 1: sell 19,791.88, buy 19,593.26: dollars per euro
      {
        date: '2026-04-02',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals(
          midpoint('19593.26', '19791.88'),
          midpoint('16916.99', '17087.01'),
          10,
        ),
        decimals: 10,
        observationTime: '2026-04-01T17:00:00.000Z',
      },
    ]);
  });

  test('earlier days are searched currency by currency with the form the page posts back', async () => {
    // The recording holds the searches for AED, AUD and BND over 1-5 March 2026; the next
    // currency of the list (CAD) was not recorded, so the run stops there with the reason.
    const report = await run.ingest({ from: '2026-03-01', to: '2026-03-05' });
    assert.match(String(report.error), /404/);
    assert.match(String(report.error), /default\.aspx/);
    const posted = readCassette('bi.yml').filter((i) => i.method === 'POST');
    assert.equal(posted.length, 3);
    await assertSpots(run, [
      // AED on 5 Mar 2026: sell 4,627.79, buy 4,580.24
      {
        date: '2026-03-05',
        base: 'AED',
        symbol: 'IDR',
        rate: midpoint('4580.24', '4627.79'),
        decimals: 10,
        observationTime: '2026-03-04T17:00:00.000Z',
      },
      // BND on 2 Mar 2026: sell 13,337.74, buy 13,197.71; fixed at 17:00Z on 1 March, so the
      // UTC date 2026-03-01 answers with it (2026-03-02 with the rates of 3 March)
      {
        date: '2026-03-01',
        base: 'BND',
        symbol: 'IDR',
        rate: midpoint('13197.71', '13337.74'),
        decimals: 10,
        observationTime: '2026-03-01T17:00:00.000Z',
      },
    ]);
    const sql =
      "SELECT count(*) AS n FROM observations WHERE source = 'bi' AND observation_time < '2026-03-06'";
    const count = await run.get(`/v1/exchangerate/query?q=${encodeURIComponent(sql)}`);
    assert.equal(Number(count.body.rows[0].n), 12); // 3 currencies x 4 days
  });

  test('the search body is the one the page asks for', () => {
    const [page, search] = readCassette('bi.yml');
    const form = parseBiForm(page!.response.body.toString());
    assert.equal(form.currencies.length, 26);
    assert.equal(
      biSearchBody(form, form.currencies[0]!, { from: '2026-03-01', to: '2026-03-05' }),
      search!.requestBody,
    );
  });
});

describe('bi parsers on inline samples', () => {
  const page = (body: string) => `<!DOCTYPE html><html><body>${body}</body></html>`;
  const row = (...values: string[]) =>
    `<tr>${values.map((v) => `<td class="text-right">${v}</td>`).join('')}</tr>`;
  const today = (rows: string) =>
    page(
      'Last Update&nbsp;<span>2 July 2024</span>' +
        '<table class="table table-striped table-no-bordered table-lg"><tr class="table-header"><th>Currencies</th></tr>' +
        `${rows}</table><input type="submit" name="x$ListViewKurs$ctrl0$btnGraphImage" />`,
    );

  test('midpoint of buy and sell per Value units; thousands commas', () => {
    const extraction = parseBiCurrent(
      today(
        row('JPY ', '100', '10,762.12', '10,653.69') + row('USD ', '1', '16,500.50', '16,300.50'),
      ),
      bi,
    );
    assert.equal(extraction.date, '2024-07-02');
    assert.deepEqual(observationRows(extraction), [
      ['JPY', '2024-07-01T17:00:00.000Z', 1 / 107.07905],
      ['USD', '2024-07-01T17:00:00.000Z', 1 / 16400.5],
    ]);
  });

  test('codes that are no currency and missing prices are dropped and counted', () => {
    const extraction = parseBiCurrent(
      today(row('CNH ', '1', '2,484.01', '2,458.51') + row('LAK ', '1', '', '0.76')),
      bi,
    );
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 2);
  });

  test('search results: one row per date; a page without results has none', () => {
    const results = (rows: string) =>
      page(
        '<input name="p$txtFrom" value="" /><table class="table-lg" id="p_gvSearchResult2"><tr><th>Value</th></tr>' +
          `${rows}</table>`,
      );
    const extraction = parseBiHistory(
      results(
        row('1.00', '4,627.79', '4,580.24', '5 Mar 2026') +
          row('1.00', '4,616.19', '4,569.51', '31 Feb 2026'),
      ),
      'AED',
      bi,
    );
    assert.deepEqual(observationRows(extraction), [
      ['AED', '2026-03-04T17:00:00.000Z', 1 / 4604.015],
    ]);
    assert.equal(extraction.dropped, 1);
    assert.equal(parseBiHistory(results(''), 'AED', bi).observations.length, 0);
  });

  test('a page cut short or without its table or date is refused', () => {
    assert.throws(
      () => parseBiCurrent(today(row('USD', '1', '1', '1')).slice(0, -20), bi),
      /cut short/,
    );
    assert.throws(() => parseBiCurrent(page('<p>Maintenance</p>'), bi), /Last Update/);
    assert.throws(() => parseBiHistory(page('<p>Error</p>'), 'USD', bi), /transaction-rates page/);
    assert.throws(() => parseBiForm(page('<p>Error</p>')), /lacks MSOWebPartPage_PostbackSource/);
  });
});
