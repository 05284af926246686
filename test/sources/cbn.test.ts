import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as cbn, parseCbnJson } from '../../src/sources/cbn.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cbn.yml'];

describe('cbn on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cbn', {
      recordings: RECORDINGS,
      from: '2026-05-14',
      to: '2026-05-21',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 78 records less 6 of WAUA, which has no ISO code
    await assertIngested(run, { stored: 72, symbols: 12, dropped: 6 });
    await assertSpots(run, [
      // US DOLLAR 2026-05-21: buying 1371.3079, selling 1372.3079, midpoint 1371.8079;
      // 00:00 Lagos (no time documented) is 23:00Z the day before, all year
      {
        date: '2026-05-21',
        base: 'USD',
        symbol: 'NGN',
        rate: '1371.8079',
        decimals: 10,
        observationTime: '2026-05-20T23:00:00.000Z',
      },
    ]);
  });
});

describe('cbn parser on inline samples', () => {
  test('an answer without rates is refused: every answer holds the whole history', () => {
    assert.throws(() => parseCbnJson('[]', cbn), /an empty list of rates/);
  });

  test('name variants to codes, WAUA dropped, buy/sell midpoint', () => {
    const text = JSON.stringify([
      {
        currency: ' POUNDS  STERLING ',
        ratedate: '2024-01-02',
        buyingrate: '1140.0',
        centralrate: '1140.5',
        sellingrate: '1141.0',
      },
      {
        currency: 'WAUA',
        ratedate: '2024-01-02',
        buyingrate: '1',
        centralrate: '1',
        sellingrate: '1',
      },
      {
        currency: 'EURO',
        ratedate: '2024-01-02',
        buyingrate: '',
        centralrate: '1250.25',
        sellingrate: '',
      },
    ]);
    const result = parseCbnJson(text, cbn);
    assert.deepEqual(observationRows(result), [
      ['GBP', '2024-01-01T23:00:00.000Z', 1 / 1140.5],
      // no buying and selling rates: the central rate
      ['EUR', '2024-01-01T23:00:00.000Z', 1 / 1250.25],
    ]);
    assert.deepEqual(result.dropReasons, ["unknown currency name 'WAUA'"]);
  });
});
