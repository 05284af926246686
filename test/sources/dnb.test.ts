import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as dnb, dnbQuery, parseDnbBulk } from '../../src/sources/dnb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['dnb.yml'];

describe('dnb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('dnb', {
      recordings: RECORDINGS,
      from: '2025-03-03',
      to: '2026-03-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 8,070 rows: 30 currencies x 269 days; the 63 BGN rows of 2026 are '..' (no rate since
    // the euro replaced the lev) and are skipped.
    await assertIngested(run, { stored: 8007, symbols: 30 });
    assert.deepEqual(run.replay.requests, ['/v1/data']);
    await assertSpots(run, [
      // USD;KBH;2025M07D08;636.7000 per 100 dollars; 16:00 Copenhagen in summer is 14:00Z
      {
        date: '2025-07-08',
        base: 'USD',
        symbol: 'DKK',
        rate: '6.367',
        decimals: 10,
        observationTime: '2025-07-08T14:00:00.000Z',
      },
      // JPY;KBH;2026M01D05;4.0833; in winter 16:00 is 15:00Z
      {
        date: '2026-01-05',
        base: 'JPY',
        symbol: 'DKK',
        rate: '0.040833',
        decimals: 12,
        observationTime: '2026-01-05T15:00:00.000Z',
      },
      // EUR;KBH;2026M01D05;746.9500 against USD;KBH;2026M01D05;640.3900
      {
        date: '2026-01-05',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('746.95', '640.39', 10),
        decimals: 10,
        observationTime: '2026-01-05T15:00:00.000Z',
      },
    ]);
  });
});

describe('dnb parser on inline samples', () => {
  test('the query names the first day in Statistics Denmark period codes', () => {
    const query = JSON.parse(dnbQuery('2024-01-02'));
    assert.deepEqual(query.variables[2], { code: 'Tid', values: ['>=2024M01D02'] });
    assert.equal(query.variables[0].values.length, 30);
  });

  test('per 100 units; missing rates skipped; bad rows dropped; cut-off bodies fail', () => {
    const text =
      'VALUTA;KURTYP;TID;INDHOLD\r\n' +
      'USD;KBH;2024M07D01;695.1200\r\n' +
      'IDR;KBH;2024M01D02;0.0438\r\n' +
      'BGN;KBH;2024M01D02;..\r\n' +
      'XYZ;KBH;2024M01D02;12.5000\r\n' +
      'GBP;KBH;2024Q1;860.0000\r\n';
    const result = parseDnbBulk(text, dnb);
    assert.deepEqual(observationRows(result), [
      ['USD', '2024-07-01T14:00:00.000Z', 1 / 6.9512],
      ['IDR', '2024-01-02T15:00:00.000Z', 1 / 0.000438],
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons.join(' | '), /'XYZ' is not a currency code.*'2024Q1'/);
    assert.throws(() => parseDnbBulk(text.slice(0, -6), dnb), /cut short/);
    assert.throws(() => parseDnbBulk('USD;KBH;2024M07D01\n', dnb), /expected the header/);
    assert.throws(
      () => parseDnbBulk('VALUTA;KURTYP;TID;INDHOLD\nUSD;KBH\n', dnb),
      /line 2 has 2 fields/,
    );
  });
});
