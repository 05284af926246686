import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nb, parseNbCsv } from '../../src/sources/nb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nb.yml'];

describe('nb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nb', {
      recordings: RECORDINGS,
      from: '2026-03-16',
      to: '2026-03-24',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 38 series x 7 business days = 266 rows; the I44 and TWI krone indices (2 x 7) are dropped
    await assertIngested(run, { stored: 252, symbols: 36, dropped: 14 });
    assert.match(run.report.dropReasons[0]!, /TWI on 2026-03-16 is the trade-weighted krone index/);
    await assertSpots(run, [
      // 2026-03-24 USD 9.7049 NOK (UNIT_MULT 0); 14:15 Oslo in winter (CET) is 13:15Z
      {
        date: '2026-03-24',
        base: 'USD',
        symbol: 'NOK',
        rate: '9.7049',
        decimals: 12,
        observationTime: '2026-03-24T13:15:00.000Z',
      },
      // JPY UNIT_MULT 2: 6.1065 NOK per 100 yen
      {
        date: '2026-03-24',
        base: 'JPY',
        symbol: 'NOK',
        rate: '0.061065',
        decimals: 12,
        observationTime: '2026-03-24T13:15:00.000Z',
      },
      // EUR 11.2305 and USD 9.7049 NOK: USD per EUR is their ratio
      {
        date: '2026-03-24',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.157198940741',
        decimals: 12,
        observationTime: '2026-03-24T13:15:00.000Z',
      },
    ]);
  });
});

describe('nb parser on inline samples', () => {
  const header =
    'FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\n';

  test('UNIT_MULT moves the decimal point; indices and missing values are dropped', () => {
    const extraction = parseNbCsv(
      header +
        'B,SEK,NOK,SP,2,false,2,C,2025-07-01,107.51\n' +
        'B,IDR,NOK,SP,6,false,2,C,2025-07-01,0.062101\n' +
        'B,USD,NOK,SP,4,false,0,C,2025-07-01,10.0815\n' +
        'B,TWI,NOK,SP,2,true,0,C,2025-07-01,115.85\n' +
        'B,GBP,NOK,SP,4,false,0,C,2025-07-01,\n',
      nb,
    );
    assert.deepEqual(observationRows(extraction), [
      // summer: 14:15 Oslo (CEST) is 12:15Z
      ['SEK', '2025-07-01T12:15:00.000Z', 1 / 1.0751],
      ['IDR', '2025-07-01T12:15:00.000Z', 1 / 0.00062101],
      ['USD', '2025-07-01T12:15:00.000Z', 1 / 10.0815],
    ]);
    assert.equal(extraction.dropped, 2);
    assert.match(extraction.dropReasons[0]!, /TWI .* not a currency/);
  });

  test('a body cut short or without the expected columns is refused', () => {
    assert.throws(
      () => parseNbCsv(header + 'B,SEK,NOK,SP,2,false,2,C,2025-07-01,107.5', nb),
      /cut short/,
    );
    assert.throws(() => parseNbCsv('TIME_PERIOD,OBS_VALUE\n2025-07-01,1\n', nb), /BASE_CUR/);
  });
});
