import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  publisher as cbr,
  parseCbrDaily,
  parseCbrDynamic,
  parseCbrMetals,
} from '../../src/sources/cbr.js';
import { decodeBody } from '../../src/sources/http-client.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbr.yml'];

describe('cbr on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbr', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-05',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 228, symbols: 58 }); // XML_daily 54 + XML_dynamic 162 + metals 12
    await assertSpots(run, [
      // R01030 (DZD) on 03.03.2026: Nominal 100, Value 59,2589; Moscow 15:30 is 12:30Z all year
      {
        date: '2026-03-03',
        base: 'DZD',
        symbol: 'RUB',
        rate: '0.592589',
        decimals: 12,
        observationTime: '2026-03-03T12:30:00.000Z',
      },
      // R01010 (AUD) on 03.03.2026: 54,7468
      {
        date: '2026-03-03',
        base: 'AUD',
        symbol: 'RUB',
        rate: '54.7468',
        decimals: 12,
        observationTime: '2026-03-03T12:30:00.000Z',
      },
      // XML_daily of 25.04.2026: AUD 53,8359
      {
        date: '2026-04-25',
        base: 'AUD',
        symbol: 'RUB',
        rate: '53.8359',
        decimals: 12,
        observationTime: '2026-04-25T12:30:00.000Z',
      },
      // gold, code 1, 03.03.2026: buy = sell = 12957,47 RUB per gram;
      // 12957.47 x 31.1034768 = 403022.367531696 per troy ounce
      {
        date: '2026-03-03',
        base: 'XAU',
        symbol: 'RUB',
        rate: '403022.367531696',
        decimals: 9,
        observationTime: '2026-03-03T12:30:00.000Z',
      },
    ]);
  });
});

describe('cbr parsers on inline samples', () => {
  test('windows-1251 bytes, decimal commas and Nominal; metals from the buy/sell midpoint', () => {
    const xml =
      '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="02.07.2024" name="Foreign Currency Market">' +
      '<Valute ID="R01030"><NumCode>012</NumCode><CharCode>DZD</CharCode><Nominal>100</Nominal>' +
      '<Name>Алжирских динаров</Name><Value>65,1234</Value></Valute></ValCurs>';
    const bytes = new Uint8Array(
      [...xml].map((char) => {
        const code = char.charCodeAt(0);
        return code >= 0x410 && code <= 0x44f ? code - 0x410 + 0xc0 : code; // Cyrillic А-я in 1251
      }),
    );
    const text = decodeBody('http://cbr.test/', bytes, 'text/xml; charset=windows-1251', [
      'windows-1251',
      'utf-8',
    ]);
    assert.match(text, /Алжирских динаров/);
    const daily = parseCbrDaily(text, cbr);
    assert.deepEqual(observationRows(daily), [['DZD', '2024-07-02T12:30:00.000Z', 1 / 0.651234]]);
    assert.deepEqual(daily.currencies, [{ id: 'R01030', code: 'DZD' }]);
    const dynamic =
      '<ValCurs ID="R01235"><Record Date="02.07.2024" Id="R01235"><Nominal>1</Nominal><Value>87,7866</Value></Record></ValCurs>';
    assert.deepEqual(observationRows(parseCbrDynamic(dynamic, 'USD', cbr)), [
      ['USD', '2024-07-02T12:30:00.000Z', 1 / 87.7866],
    ]);
    const metals =
      '<Metall><Record Date="02.07.2024" Code="1"><Buy>6800,00</Buy><Sell>6900,00</Sell></Record>' +
      '<Record Date="02.07.2024" Code="9"><Buy>1</Buy><Sell>1</Sell></Record></Metall>';
    const metal = parseCbrMetals(metals, cbr);
    // midpoint 6850 RUB per gram; 6850 x 31.1034768 = 213058.81608 per troy ounce
    assert.deepEqual(observationRows(metal), [
      ['XAU', '2024-07-02T12:30:00.000Z', 1 / 213058.81608],
    ]);
    assert.equal(metal.dropped, 1);
  });

  test('Nominal moves the decimal point: no float division before the one inversion', () => {
    const record = (nominal: string, value: string) =>
      `<ValCurs ID="R01030"><Record Date="03.03.2026" Id="R01030"><Nominal>${nominal}</Nominal><Value>${value}</Value></Record></ValCurs>`;
    const [dzd] = parseCbrDynamic(record('100', '59,2589'), 'DZD', cbr).observations;
    // 59,2589 RUB per 100 DZD is 0.592589 RUB per dinar; the stored rate is its inverse.
    assert.equal(dzd!.rate, 1 / 0.592589);
    assert.notEqual(dzd!.rate, 100 / 59.2589); // what dividing by the Nominal as doubles gives
    const [huge] = parseCbrDynamic(record('1000000', '3,1415'), 'VES', cbr).observations;
    assert.equal(huge!.rate, 1 / 0.0000031415);
    const metals =
      '<Metall><Record Date="03.03.2026" Code="3"><Buy>3162,45</Buy><Sell>3200,11</Sell></Record></Metall>';
    // (3162.45 + 3200.11) / 2 = 3181.28 exactly; x 31.1034768 = 98948.868674304 exactly, where
    // the same sums on doubles give 98948.86867430399.
    assert.deepEqual(observationRows(parseCbrMetals(metals, cbr)), [
      ['XPT', '2026-03-03T12:30:00.000Z', 1 / 98948.868674304],
    ]);
  });
});
