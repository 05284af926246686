import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbm, parseNbmMetals, parseNbmRates } from '../../src/sources/nbm.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbm.yml'];

describe('nbm on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbm', {
      recordings: RECORDINGS,
      from: '2026-04-06',
      to: '2026-04-08',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 3 dates x (40 currencies + gold and silver)
    await assertIngested(run, { stored: 126, symbols: 42 });
    assert.equal(run.replay.requests.length, 6);
    await assertSpots(run, [
      // 2026-04-08 USD nominal 1 at 17.4597 MDL; no documented time: 00:00 Chisinau in summer
      // (EEST) is 21:00Z the day before
      {
        date: '2026-04-08',
        base: 'USD',
        symbol: 'MDL',
        rate: '17.4597',
        decimals: 12,
        observationTime: '2026-04-07T21:00:00.000Z',
      },
      // JPY nominal 100 at 10.9277 MDL
      {
        date: '2026-04-08',
        base: 'JPY',
        symbol: 'MDL',
        rate: '0.109277',
        decimals: 12,
        observationTime: '2026-04-07T21:00:00.000Z',
      },
      // gold 2612.3455 MDL per gram, times 31.1034768 grams per troy ounce
      {
        date: '2026-04-08',
        base: 'XAU',
        symbol: 'MDL',
        rate: '81253.0276528',
        decimals: 7,
        observationTime: '2026-04-07T21:00:00.000Z',
      },
      // EUR 20.1703 and USD 17.4597 MDL: USD per EUR is their ratio
      {
        date: '2026-04-08',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.155248944713',
        decimals: 12,
        observationTime: '2026-04-07T21:00:00.000Z',
      },
    ]);
  });
});

describe('nbm parsers on inline samples', () => {
  const valute = (code: string, nominal: string, value: string) =>
    `<Valute ID="1"><NumCode>0</NumCode><CharCode>${code}</CharCode><Nominal>${nominal}</Nominal>` +
    `<Name>x</Name><Value>${value}</Value></Valute>`;

  test('Nominal moves the decimal point; unknown codes and empty values are dropped', () => {
    const extraction = parseNbmRates(
      `<?xml version="1.0" encoding="UTF-8"?>\n<ValCurs Date="15.01.2026" name="Official exchange rate">` +
        valute('HUF', '100', '5.0913') +
        valute('USD', '1', '16.9') +
        valute('ABC1', '1', '1.0') +
        valute('EUR', '1', '') +
        '</ValCurs>\n',
      nbm,
    );
    assert.deepEqual(observationRows(extraction), [
      // winter: 00:00 Chisinau (EET) is 22:00Z the day before
      ['HUF', '2026-01-14T22:00:00.000Z', 1 / 0.050913],
      ['USD', '2026-01-14T22:00:00.000Z', 1 / 16.9],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('metal prices per gram become prices per troy ounce', () => {
    const extraction = parseNbmMetals(
      '<MetalPrice Date="15.01.2026" name="The price of precious metals"><Metal ID="">' +
        '<NumCode>961</NumCode><CharCode>XAG</CharCode><Nominal>1</Nominal><Name>Gram silver</Name>' +
        '<Value>40</Value></Metal></MetalPrice>',
      nbm,
    );
    // 40 x 31.1034768 = 1244.139072 MDL per ounce
    assert.deepEqual(observationRows(extraction), [
      ['XAG', '2026-01-14T22:00:00.000Z', 1 / 1244.139072],
    ]);
  });

  test('a body cut short or another document is refused', () => {
    assert.throws(
      () => parseNbmRates(`<ValCurs Date="15.01.2026">${valute('USD', '1', '16.9')}`, nbm),
      /cut short/,
    );
    assert.throws(() => parseNbmMetals('<ValCurs Date="15.01.2026"></ValCurs>', nbm), /MetalPrice/);
  });
});
