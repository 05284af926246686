import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbp, parseNbpGold, parseNbpTables } from '../../src/sources/nbp.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbp.yml'];

describe('nbp on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbp', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-05',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 248, symbols: 149 }); // table A 4 x 32, table B 116, gold 4
    await assertSpots(run, [
      // table A 2026-03-02: USD mid 3.6056; 12:00 Warsaw in winter is 11:00Z (summer: inline sample)
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'PLN',
        rate: '3.6056',
        decimals: 12,
        observationTime: '2026-03-02T11:00:00.000Z',
      },
      // gold 2026-03-02: 595.71 PLN per gram; 595.71 x 31.1034768 = 18528.652164528 per troy ounce
      {
        date: '2026-03-02',
        base: 'XAU',
        symbol: 'PLN',
        rate: '18528.652164528',
        decimals: 10,
        observationTime: '2026-03-02T11:00:00.000Z',
      },
    ]);
  });
});

describe('nbp parsers on inline samples', () => {
  test('tables are PLN per unit, gold PLN per gram', () => {
    assert.deepEqual(
      observationRows(
        parseNbpTables(
          JSON.stringify([
            { effectiveDate: '2024-01-02', rates: [{ code: 'USD', mid: 3.9432 }] },
            { effectiveDate: '2024-07-02', rates: [{ code: 'USD', mid: 4.0245 }] },
          ]),
          nbp,
        ),
      ),
      [
        ['USD', '2024-01-02T11:00:00.000Z', 1 / 3.9432],
        ['USD', '2024-07-02T10:00:00.000Z', 1 / 4.0245], // 12:00 CEST
      ],
    );
    // 260 x 31.1034768 = 8086.903968 PLN per troy ounce
    assert.deepEqual(observationRows(parseNbpGold('[{"data":"2024-01-02","cena":260.0}]', nbp)), [
      ['XAU', '2024-01-02T11:00:00.000Z', 1 / 8086.903968],
    ]);
  });
});
