import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bbk, parseBbkCsv } from '../../src/sources/bbk.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bbk.yml'];

describe('bbk on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bbk', {
      recordings: RECORDINGS,
      from: '1998-12-21',
      to: '1999-01-15',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 18 currencies x 6 fixing days from 21 to 30 December 1998; the other 4 days of each
    // series are "." (holidays and weekends), no figure
    await assertIngested(run, { stored: 108, symbols: 18 });
    // The request ends at the last fixing, whatever the window asks for after it
    assert.equal(run.report.requests, 1);
    await assertSpots(run, [
      // USD 1998-12-21 1.6647 DEM per 1 USD; 13:00 in Frankfurt in winter is 12:00Z
      {
        date: '1998-12-21',
        base: 'USD',
        symbol: 'DEM',
        rate: '1.6647',
        decimals: 12,
        observationTime: '1998-12-21T12:00:00.000Z',
      },
      // ITL 1998-12-28 1.0098 per "1 000 ITL"
      {
        date: '1998-12-28',
        base: 'ITL',
        symbol: 'DEM',
        rate: '0.0010098',
        decimals: 12,
        observationTime: '1998-12-28T12:00:00.000Z',
      },
      // 1998-12-21 GBP 2.8035 and USD 1.6647 DEM: 2.8035 / 1.6647 USD per GBP
      {
        date: '1998-12-21',
        base: 'GBP',
        symbol: 'USD',
        rate: '1.6840872229',
        decimals: 10,
        observationTime: '1998-12-21T12:00:00.000Z',
      },
    ]);
    const later = await run.ingest({ from: '1999-01-01', to: '2026-01-01' });
    assert.deepEqual([later.error, later.requests], [null, 0]);
  });
});

const HEADER =
  'DATAFLOW;BBK_STD_FREQ;BBK_STD_CURRENCY;BBK_ERX_PARTNER_CURRENCY;BBK_ERX_SERIES_TYPE;' +
  'BBK_ERX_RATE_TYPE;BBK_ERX_SUFFIX;TIME_PERIOD;OBS_VALUE;TIME_FORMAT;BBK_DECIMALS;BBK_ID;' +
  'BBK_UNIT;BBK_UNIT_MULT;BBK_TITLE;WEB_CATEGORY;BBK_COMM_GEN;BBK_DIFF;OBS_STATUS';
const row = (code: string, date: string, value: string, per: string, status = '') =>
  `BBK:BBEX3(1.0);D;${code};DEM;AA;AC;000;${date};${value};P1D;3;BBEX3.D.${code}.DEM.AA.AC.000;` +
  `DEM;0;Devisenkurse der Frankfurter Börse / ${per} ${code} = ... DEM / Land;WEDE;"Notiz; amtlich";0.0;${status}`;

describe('bbk parser on inline samples', () => {
  test('DEM per the units the title names; "." is no figure; summer time is UTC+2', () => {
    const text = `\uFEFF${HEADER}\r\n${row('ESP', '1995-07-03', '1.1420', '100')}\r\n\r\n${row(
      'ITL',
      '1995-07-03',
      '0.8712',
      '1 000',
    )}\r\n${row('ESP', '1995-07-04', '.', '100', 'K')}\r\n`;
    assert.deepEqual(observationRows(parseBbkCsv(text, bbk)), [
      ['ESP', '1995-07-03T11:00:00.000Z', 1 / 0.01142],
      ['ITL', '1995-07-03T11:00:00.000Z', 1 / 0.0008712],
    ]);
  });

  test('a title without units is dropped; a cut-short body fails', () => {
    const odd = row('XEU', '1995-07-03', '1.8', '100').replace('100 XEU = ... DEM', 'ECU in DEM');
    const extraction = parseBbkCsv(`${HEADER}\n${odd}\n`, bbk);
    assert.deepEqual([extraction.observations.length, extraction.dropped], [0, 1]);
    const text = `${HEADER}\n${row('ESP', '1995-07-03', '1.1420', '100')}\n`;
    assert.throws(() => parseBbkCsv(text.slice(0, -1), bbk), /cut short/);
    assert.throws(() => parseBbkCsv(text.slice(0, -40) + '\n', bbk), /fields, the header/);
    assert.throws(() => parseBbkCsv('error\n', bbk), /header lacks/);
  });
});
