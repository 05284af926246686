import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as boi, parseBoiCsv } from '../../src/sources/boi.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['boi.yml'];

describe('boi on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('boi', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 28, symbols: 14 });
    await assertSpots(run, [
      // RER_JPY_ILS ... UNIT_MULT 2 ... 2026-03-02,1.971: ILS per 100 JPY;
      // 15:30 Jerusalem in winter is 13:30Z (summer: inline sample)
      {
        date: '2026-03-02',
        base: 'JPY',
        symbol: 'ILS',
        rate: '0.01971',
        decimals: 12,
        observationTime: '2026-03-02T13:30:00.000Z',
      },
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'ILS',
        rate: '3.073',
        decimals: 12,
        observationTime: '2026-03-02T13:30:00.000Z',
      },
    ]);
  });
});

describe('boi parser on inline samples', () => {
  test('UNIT_MULT is a power of ten; rows against another currency are dropped', () => {
    const text =
      'SERIES_CODE,BASE_CURRENCY,COUNTER_CURRENCY,UNIT_MULT,TIME_PERIOD,OBS_VALUE\n' +
      'RER_JPY_ILS,JPY,ILS,2,2024-01-02,2.561\nRER_LBP_ILS,LBP,ILS,1,2024-01-02,0.0024\n' +
      'RER_USD_EUR,USD,EUR,0,2024-01-02,0.91\nRER_USD_ILS,USD,ILS,0,2024-07-02,3.768\n' +
      'RER_GBP_ILS,GBP,ILS,x,2024-07-02,4.7\n';
    const result = parseBoiCsv(text, boi);
    assert.deepEqual(observationRows(result), [
      ['JPY', '2024-01-02T13:30:00.000Z', 1 / 0.02561],
      ['LBP', '2024-01-02T13:30:00.000Z', 1 / 0.00024],
      ['USD', '2024-07-02T12:30:00.000Z', 1 / 3.768], // 15:30 IDT in summer
    ]);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons[1]!, /price 4.7 per 10\^x is not a positive number/);
  });
});
