import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bdp, parseBdpJsonStat } from '../../src/sources/bdp.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bdp.yml'];

describe('bdp on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bdp', {
      recordings: RECORDINGS,
      from: '1998-12-28',
      to: '1999-01-05',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // Three pages listing 10 + 10 + 4 series, 4 days each (the ECU stored as XEU).
    await assertIngested(run, { stored: 96, symbols: 24 });
    assert.equal(run.replay.requests.length, 3);
    await assertSpots(run, [
      // US, Dollars (USD) on 1998-12-31: 171.829; 00:00 in Lisbon is 00:00Z in winter
      {
        date: '1998-12-31',
        base: 'USD',
        symbol: 'PTE',
        rate: '171.829',
        decimals: 10,
        observationTime: '1998-12-31T00:00:00.000Z',
      },
      // Italy, Liras (ITL) on 1998-12-28: 0.10353
      {
        date: '1998-12-28',
        base: 'ITL',
        symbol: 'PTE',
        rate: '0.10353',
        decimals: 12,
        observationTime: '1998-12-28T00:00:00.000Z',
      },
      // Page 3: Australia, Dollars (AUD) 105.555 and page 2: Germany, Deutsche Mark (DEM)
      // 102.505 on 1998-12-31: marks per Australian dollar
      {
        date: '1998-12-31',
        base: 'AUD',
        symbol: 'DEM',
        rate: divideDecimals('105.555', '102.505', 10),
        decimals: 10,
        observationTime: '1998-12-31T00:00:00.000Z',
      },
      // ECU - Banco do Portugal (ECU) 1998-12-29: 201.324
      {
        date: '1998-12-29',
        base: 'XEU',
        symbol: 'PTE',
        rate: '201.324',
        decimals: 10,
        observationTime: '1998-12-29T00:00:00.000Z',
      },
    ]);
  });
});

describe('bdp parser on inline samples', () => {
  const page = (options: { value: unknown; next?: boolean; series?: [string, number][] }) =>
    JSON.stringify({
      version: '2.0',
      id: ['12', '13', 'reference_date'],
      size: [2, 1, 2],
      value: options.value,
      dimension: {
        '12': { category: { index: ['826', '758'] } },
        '13': { category: { index: ['794'] } },
        reference_date: { category: { index: ['1998-07-01', '1998-07-02'] } },
      },
      extension: {
        series: (
          options.series ?? [
            ['US, Dollars (USD) against Escudo - daily', 826],
            ['Japan, Yen (JPY) against Escudo - daily', 758],
          ]
        ).map(([label, category]) => ({
          label,
          dimension_category: [{ dimension_id: 12, category_id: category }],
        })),
        next_page: options.next ? 'https://bpstat.bportugal.pt/next' : null,
      },
    });

  test('escudos per unit, currency by currency then date; summer dates at 23:00Z', () => {
    const extraction = parseBdpJsonStat(page({ value: [180.5, 181, 1.25, null] }), bdp);
    assert.deepEqual(observationRows(extraction), [
      ['USD', '1998-06-30T23:00:00.000Z', 1 / 180.5],
      ['USD', '1998-07-01T23:00:00.000Z', 1 / 181],
      ['JPY', '1998-06-30T23:00:00.000Z', 1 / 1.25],
    ]);
    assert.equal(extraction.dropped, 1);
    assert.equal(extraction.nextPage, false);
  });

  test('sparse values as an object; series of other pages are left to them', () => {
    const extraction = parseBdpJsonStat(
      page({
        value: { '1': 181 },
        next: true,
        series: [['US, Dollars (USD) against Escudo - daily', 826]],
      }),
      bdp,
    );
    assert.deepEqual(observationRows(extraction), [['USD', '1998-07-01T23:00:00.000Z', 1 / 181]]);
    assert.equal(extraction.dropped, 1);
    assert.equal(extraction.nextPage, true);
  });

  test('a body cut short or not JSON-stat is refused', () => {
    assert.throws(
      () => parseBdpJsonStat(page({ value: [1, 2, 3, 4] }).slice(0, 100), bdp),
      /not valid JSON/,
    );
    assert.throws(() => parseBdpJsonStat('{"error":"not found"}', bdp), /JSON-stat/);
  });
});
