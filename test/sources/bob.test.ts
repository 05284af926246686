import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bob, parseBobCsv } from '../../src/sources/bob.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bob.yml'];

describe('bob on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bob', {
      recordings: RECORDINGS,
      from: '2009-04-27',
      to: '2026-03-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 6,247 rows x 7 currencies, less 3,911 figures of 0.0000 (not quoted, skipped), less the
    // 42 figures of the 3 days printed twice with different figures (17 Jan 2018, 23 Oct
    // 2018, 13 Aug 2019: both rows dropped).
    await assertIngested(run, { stored: 39776, symbols: 7, dropped: 42 });
    assert.equal(run.report.requests, 1);
    // No fixing time is documented: 00:00 Gaborone is 22:00Z the day before.
    await assertSpots(run, [
      // "19 Mar 2026": USD 0.0748 per BWP
      {
        date: '2026-03-19',
        base: 'BWP',
        symbol: 'USD',
        rate: '0.0748',
        observationTime: '2026-03-18T22:00:00.000Z',
      },
      // ZAR 1.2717 and USD 0.0748 per BWP the same day: ZAR per USD
      {
        date: '2026-03-19',
        base: 'USD',
        symbol: 'ZAR',
        rate: divideDecimals('1.2717', '0.0748', 10),
        decimals: 10,
        observationTime: '2026-03-18T22:00:00.000Z',
      },
      // "27 Apr 2009", the first day: YEN 13.0100 per BWP; the date endpoint's 2009-04-26 (UTC)
      {
        date: '2009-04-26',
        base: 'BWP',
        symbol: 'JPY',
        rate: '13.01',
        observationTime: '2009-04-26T22:00:00.000Z',
      },
    ]);
    // 13 Aug 2019 was printed twice: the day before's figures answer for it (UTC 2019-08-12).
    const entry = await run.rate('2019-08-12', 'BWP', 'USD');
    assert.deepEqual(entry, {
      rate: '0.0904',
      observationTime: '2019-08-11T22:00:00.000Z',
      source: 'bob',
    });
  });
});

describe('bob parser on inline samples', () => {
  const file = (...rows: string[]) => ['\uFEFFDate,CHN,USD,SDR,YEN', ...rows].join('\n');

  test('units per BWP; CHN, YEN and SDR as codes; 0.0000 is not quoted', () => {
    assert.deepEqual(
      observationRows(parseBobCsv(file('"02 Jan 2024",0.0000,0.0745,0.0556,10.5300'), bob)),
      [
        ['USD', '2024-01-01T22:00:00.000Z', 0.0745],
        ['XDR', '2024-01-01T22:00:00.000Z', 0.0556],
        ['JPY', '2024-01-01T22:00:00.000Z', 10.53],
      ],
    );
  });

  test('a day printed twice: the same figures are kept once, different ones dropped', () => {
    const row = '"02 Jan 2024",0.6000,0.0745,0.0556,10.5300';
    const same = parseBobCsv(file(row, row), bob);
    assert.equal(same.observations.length, 4);
    assert.equal(same.dropped, 0);
    const twice = parseBobCsv(
      file(
        '"03 Jan 2024",0.6000,0.0745,0.0556,10.5300',
        '"03 Jan 2024",0.6000,0.0746,0.0556,10.5300',
      ),
      bob,
    );
    assert.deepEqual([twice.observations.length, twice.dropped], [0, 8]);
  });

  test('a body cut short or another file is refused', () => {
    assert.throws(() => parseBobCsv(file('"02 Jan 2024",0.6000,0.07'), bob), /line 2.*cut short/);
    assert.throws(() => parseBobCsv(file('"02 Jan 2024",0.6000'), bob), /cut short/);
    assert.throws(() => parseBobCsv('<p>Not found</p>', bob), /header starting with Date/);
  });
});
