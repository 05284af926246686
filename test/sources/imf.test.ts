import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as imf, parseImfReport } from '../../src/sources/imf.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['imf.yml'];

describe('imf on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('imf', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 712 REP values (NA and the U.S. dollar row left out) + 22 XDR from SDRCV
    await assertIngested(run, { stored: 734, symbols: 36 });
    await assertSpots(run, [
      // "Japanese yen" 156.400000 on March 02; noon New York in winter is 17:00Z
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'JPY',
        rate: '156.4',
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // ... and 159.800000 on March 31, in summer time (from 8 March): 16:00Z
      {
        date: '2026-03-31',
        base: 'USD',
        symbol: 'JPY',
        rate: '159.8',
        observationTime: '2026-03-31T16:00:00.000Z',
      },
      // "Euro(1)" 1.169800 on March 02: USD per EUR, the other way round from the other rows
      {
        date: '2026-03-02',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.1698',
        decimals: 12,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // SDRCV "U.S. dollar" 0.7296240000 SDR per USD
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'XDR',
        rate: '0.729624',
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // Yen per euro on March 31: the exact quotient of the two stored legs (EUR stored inverted).
      {
        date: '2026-03-31',
        base: 'EUR',
        symbol: 'JPY',
        rate: divideDecimals('159.8', String(1 / 1.1498), 10),
        decimals: 10,
        observationTime: '2026-03-31T16:00:00.000Z',
      },
    ]);
  });
});

describe('imf parser on inline samples', () => {
  test('names to codes, "(1)" rows inverted, NA skipped, thousands separators read', () => {
    const text = [
      'Representative Exchange Rates for Selected Currencies for January 2024',
      'Currency\tJanuary 02, 2024\tJanuary 03, 2024',
      'Euro(1)\t1.250000\tNA',
      'Korean won\t1,300.500000\t1,301.000000',
      'U.S. dollar\t1.000000\t1.000000',
      'Atlantean drachma\t2.0\t2.0',
      '',
      'Notes: (1) in terms of U.S. dollars per currency unit',
    ].join('\r\n');
    const result = parseImfReport(text, 'REP', imf);
    assert.deepEqual(observationRows(result), [
      ['EUR', '2024-01-02T17:00:00.000Z', 0.8],
      ['KRW', '2024-01-02T17:00:00.000Z', 1300.5],
      ['KRW', '2024-01-03T17:00:00.000Z', 1301],
    ]);
    assert.deepEqual(result.dropReasons, ["unknown currency name 'Atlantean drachma'"]);
    const sdr =
      'SDRs per Currency unit for January 2024\nCurrency\tJanuary 02, 2024\nEuro\t0.83\nU.S. dollar\t0.75\n';
    assert.deepEqual(observationRows(parseImfReport(sdr, 'SDRCV', imf)), [
      ['XDR', '2024-01-02T17:00:00.000Z', 0.75],
    ]);
    // Early in a month the report has no rows yet: nothing to store, no failure.
    assert.equal(
      parseImfReport(
        'Representative Exchange Rates for Selected Currencies for February 2024\r\n',
        'REP',
        imf,
      ).observations.length,
      0,
    );
    assert.throws(
      () => parseImfReport(text.replace('\t1,301.000000', ''), 'REP', imf),
      /1 values for 2 dates/,
    );
    assert.throws(
      () => parseImfReport('Service unavailable', 'REP', imf),
      /not an IMF exchange-rate report/,
    );
  });
});
