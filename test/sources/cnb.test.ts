import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as cnb, parseCnbJson } from '../../src/sources/cnb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['cnb.yml'];

describe('cnb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('cnb', {
      recordings: RECORDINGS,
      from: '2026-01-01',
      to: '2026-04-02',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 1950, symbols: 30 }); // 30 currencies x 65 days
    await assertSpots(run, [
      // 2026-04-02 IDR amount 1000 rate 1.253; 14:30 Prague in summer is 12:30Z
      {
        date: '2026-04-02',
        base: 'IDR',
        symbol: 'CZK',
        rate: '0.001253',
        decimals: 12,
        observationTime: '2026-04-02T12:30:00.000Z',
      },
      // JPY amount 100 rate 13.338
      {
        date: '2026-04-02',
        base: 'JPY',
        symbol: 'CZK',
        rate: '0.13338',
        decimals: 12,
        observationTime: '2026-04-02T12:30:00.000Z',
      },
      // 2026-01-02 USD amount 1 rate 20.611; in winter 14:30 Prague is 13:30Z
      {
        date: '2026-01-02',
        base: 'USD',
        symbol: 'CZK',
        rate: '20.611',
        decimals: 12,
        observationTime: '2026-01-02T13:30:00.000Z',
      },
    ]);
  });
});

describe('cnb parser on inline samples', () => {
  test('CZK per `amount` units, by moving the decimal point', () => {
    assert.deepEqual(
      observationRows(
        parseCnbJson(
          JSON.stringify({
            rates: [{ currencyCode: 'IDR', amount: 1000, validFor: '2024-01-02', rate: 1.445 }],
          }),
          cnb,
        ),
      ),
      // 1.445 CZK per 1000 IDR is 0.001445 per rupiah (1000 / 1.445 on doubles is one bit off)
      [['IDR', '2024-01-02T13:30:00.000Z', 1 / 0.001445]],
    );
  });
});
