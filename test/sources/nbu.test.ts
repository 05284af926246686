import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbu, parseNbuJson } from '../../src/sources/nbu.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbu.yml'];

describe('nbu on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbu', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-16',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 720, symbols: 45 }); // 45 currencies x 16 days, weekends included
    await assertSpots(run, [
      // 16.03.2026 JPY rate 2.7705 for units 10; 15:30 Kyiv in winter is 13:30Z (summer: inline sample)
      {
        date: '2026-03-16',
        base: 'JPY',
        symbol: 'UAH',
        rate: '0.27705',
        decimals: 12,
        observationTime: '2026-03-16T13:30:00.000Z',
      },
      {
        date: '2026-03-16',
        base: 'USD',
        symbol: 'UAH',
        rate: '44.1381',
        decimals: 12,
        observationTime: '2026-03-16T13:30:00.000Z',
      },
    ]);
  });
});

describe('nbu parser on inline samples', () => {
  test('rate per `units`, dd.mm.yyyy dates, weekends kept', () => {
    const text = JSON.stringify([
      { exchangedate: '06.07.2024', cc: 'JPY', rate: 2.5, units: 10 },
      { exchangedate: '06.07.2024', cc: 'XXX', rate: 1, units: 1 },
      { exchangedate: '06.07.2024', cc: 'USD', rate: 0, units: 1 },
      { exchangedate: '06.07.2024', cc: 'KRW', rate: 2.9321, units: 100 },
    ]);
    const result = parseNbuJson(text, nbu);
    assert.deepEqual(observationRows(result), [
      ['JPY', '2024-07-06T12:30:00.000Z', 4], // 15:30 EEST
      // 2.9321 UAH per 100 KRW is 0.029321 per won, by moving the point
      ['KRW', '2024-07-06T12:30:00.000Z', 1 / 0.029321],
    ]);
    assert.equal(result.dropped, 2);
  });
});
