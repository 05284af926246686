import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bnro, parseBnroXml } from '../../src/sources/bnro.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bnr.yml'];

describe('bnro on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bnro', {
      recordings: RECORDINGS,
      from: '2026-01-01',
      to: '2026-08-19',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 5809, symbols: 37 });
    await assertSpots(run, [
      // <Rate currency="HUF" multiplier="100">1.3247</Rate> on 2026-01-05: RON per 100 HUF;
      // 13:00 Bucharest in winter is 11:00Z
      {
        date: '2026-01-05',
        base: 'HUF',
        symbol: 'RON',
        rate: '0.013247',
        decimals: 12,
        observationTime: '2026-01-05T11:00:00.000Z',
      },
      // <Rate currency="AUD">3.1994</Rate> on 2026-08-19; in summer 13:00 is 10:00Z
      {
        date: '2026-08-19',
        base: 'AUD',
        symbol: 'RON',
        rate: '3.1994',
        decimals: 12,
        observationTime: '2026-08-19T10:00:00.000Z',
      },
      // <Rate currency="XAU">621.3365</Rate>: RON per gram; XAU is a troy ounce, so the price
      // is 621.3365 x 31.1034768, exactly
      {
        date: '2026-01-05',
        base: 'XAU',
        symbol: 'RON',
        rate: '19325.7254127432',
        decimals: 10,
        observationTime: '2026-01-05T11:00:00.000Z',
      },
    ]);
  });
});

describe('bnro parser on inline samples', () => {
  test('multipliers move the decimal point, gold per gram becomes per troy ounce, exactly', () => {
    const text =
      '<?xml version="1.0" encoding="utf-8"?><DataSet><Body><Cube date="2024-01-03">' +
      '<Rate currency="EUR">4.9713</Rate><Rate currency="HUF" multiplier="100">1.3049</Rate>' +
      '<Rate currency="XAU">300.5</Rate><Rate currency="RON">1</Rate></Cube></Body></DataSet>';
    const result = parseBnroXml(text, bnro);
    assert.deepEqual(observationRows(result), [
      ['EUR', '2024-01-03T11:00:00.000Z', 1 / 4.9713],
      // 1.3049 RON per 100 HUF is 0.013049 per forint
      ['HUF', '2024-01-03T11:00:00.000Z', 1 / 0.013049],
      // 300.5 x 31.1034768 = 9346.5947784 RON per troy ounce
      ['XAU', '2024-01-03T11:00:00.000Z', 1 / 9346.5947784],
    ]);
    assert.deepEqual(result.dropReasons, ["RON is the source's own currency"]);
    assert.throws(() => parseBnroXml(text.slice(0, -20), bnro), /cut short/);
  });
});
