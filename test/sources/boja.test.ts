import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  publisher as boja,
  bojaRequestBody,
  parseBojaPage,
  parseBojaTable,
} from '../../src/sources/boja.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['boja.yml'];

describe('boja on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('boja', {
      recordings: RECORDINGS,
      from: '2026-03-02',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The page (for its nonce), then the table: 17 names x 15 days; the Northern Ireland
    // pound (banknotes of sterling, no currency of its own) is dropped on each of the 15 days.
    await assertIngested(run, { stored: 240, symbols: 16, dropped: 15 });
    assert.equal(run.report.requests, 2);
    // No fixing time is documented: 00:00 Kingston is 05:00Z.
    await assertSpots(run, [
      // USD 02 Mar 2026: buying DMD & TT 155.3493, selling 157.2639; midpoint 156.3066
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'JMD',
        rate: '156.3066',
        decimals: 10,
        observationTime: '2026-03-02T05:00:00.000Z',
      },
      // EUR 20 Mar 2026: 182.4722 and 183.8523; midpoint 183.16225
      {
        date: '2026-03-20',
        base: 'EUR',
        symbol: 'JMD',
        rate: '183.16225',
        decimals: 10,
        observationTime: '2026-03-20T05:00:00.000Z',
      },
      // JPY 20 Mar 2026: 0.9753 and 1.0032; midpoint 0.98925
      {
        date: '2026-03-20',
        base: 'JPY',
        symbol: 'JMD',
        rate: '0.98925',
        decimals: 12,
        observationTime: '2026-03-20T05:00:00.000Z',
      },
    ]);
  });
});

describe('boja parser on inline samples', () => {
  test("the page's nonce for the table, and the posted body", () => {
    const page = parseBojaPage(
      '<input type="hidden" id="wdtNonceFrontendServerSide_134" ' +
        'name="wdtNonceFrontendServerSide_134" value="5a1cc1896f" />',
    );
    assert.equal(bojaRequestBody(page.nonce), 'draw=1&start=0&length=-1&wdtNonce=5a1cc1896f');
    assert.throws(() => parseBojaPage('<html><body>Maintenance</body></html>'), /no nonce/);
  });

  test('names to codes; the midpoint of buying DMD & TT and selling; others dropped', () => {
    const extraction = parseBojaTable(
      JSON.stringify({
        data: [
          ['02 Jan 2024', 'DOMINICAN REP. PESO ', '2.5', '2.2', '0.0000', '2.6'],
          ['02 Jan 2024', 'NORTHERN IRELAND POUND', '229', '206', '0.0000', '235'],
          ['02 Jan 2024', 'ATLANTIS CROWN', '1', '1', '0.0000', '1'],
          ['02 Jan 2024', 'EURO', '0.0000', '170', '0.0000', '188'],
        ],
      }),
      boja,
    );
    assert.deepEqual(observationRows(extraction), [['DOP', '2024-01-02T05:00:00.000Z', 1 / 2.55]]);
    // Northern Ireland pound, an unknown name, and a zero buying rate
    assert.equal(extraction.dropped, 3);
    assert.match(extraction.dropReasons[1]!, /ATLANTIS CROWN on 2024-01-02: unknown currency name/);
  });

  test('other answers and cut-short bodies are refused', () => {
    assert.throws(() => parseBojaTable('0', boja), /data\[\]/);
    assert.throws(() => parseBojaTable('{"data":[["02 Jan 2024","EURO"]]}', boja), /6 fields/);
    assert.throws(() => parseBojaTable('{"draw":1,"data":[["02 Jan', boja), /not valid JSON/);
  });
});
