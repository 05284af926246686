import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as nbt, parseNbtXml } from '../../src/sources/nbt.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbt.yml'];

describe('nbt on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbt', {
      recordings: RECORDINGS,
      from: '2026-05-18',
      to: '2026-05-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 36 currencies on each of the 3 recorded days
    await assertIngested(run, { stored: 108, symbols: 36 });
    assert.deepEqual(run.replay.requests, [
      '/en/kurs/export_xml.php?date=2026-05-18&export=xmlout',
      '/en/kurs/export_xml.php?date=2026-05-19&export=xmlout',
      '/en/kurs/export_xml.php?date=2026-05-20&export=xmlout',
    ]);
    // Dushanbe (UTC+5, no daylight saving) documents no fixing time: 00:00 local is 19:00Z on
    // the day before, so the date endpoint finds a day's rates under the previous UTC date
    await assertSpots(run, [
      // 2026-05-18 USD Nominal 1 Value 9.3450
      {
        date: '2026-05-17',
        base: 'USD',
        symbol: 'TJS',
        rate: '9.345',
        decimals: 12,
        observationTime: '2026-05-17T19:00:00.000Z',
      },
      // 2026-05-20 KRW Nominal 100 Value 0.6183
      {
        date: '2026-05-19',
        base: 'KRW',
        symbol: 'TJS',
        rate: '0.006183',
        decimals: 12,
        observationTime: '2026-05-19T19:00:00.000Z',
      },
      // 2026-05-19 EUR 10.8600 and USD 9.3371: USD per EUR is 10.86 / 9.3371
      {
        date: '2026-05-18',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('10.86', '9.3371', 9),
        decimals: 9,
        observationTime: '2026-05-18T19:00:00.000Z',
      },
    ]);
  });
});

describe('nbt parser on inline samples', () => {
  const xml = (valutes: string) =>
    `<?xml version="1.0" encoding="utf-8" ?>\n<ValCurs Date="2026-05-18" name="Foreign Currency Market">\n${valutes}</ValCurs>\n`;

  test('TJS per `Nominal` units, by moving the decimal point', () => {
    const result = parseNbtXml(
      xml(
        '<Valute ID="364"><CharCode>IRR</CharCode><Nominal>1000</Nominal><Name>Iranian Rial</Name><Value>0.0071</Value></Valute>\n',
      ),
      nbt,
    );
    assert.deepEqual(observationRows(result), [['IRR', '2026-05-17T19:00:00.000Z', 1 / 0.0000071]]);
  });

  test('a missing value or an unknown code is dropped and counted', () => {
    const result = parseNbtXml(
      xml(
        '<Valute ID="840"><CharCode>USD</CharCode><Nominal>1</Nominal><Value></Value></Valute>\n' +
          '<Valute ID="0"><CharCode>ZZZ</CharCode><Nominal>1</Nominal><Value>1.5</Value></Valute>\n',
      ),
      nbt,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
  });

  test('a body cut short is refused', () => {
    assert.throws(() => parseNbtXml(xml('').slice(0, -12), nbt), /cut short/);
  });
});
