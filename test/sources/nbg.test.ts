import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbg, parseNbgJson } from '../../src/sources/nbg.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbg.yml'];

describe('nbg on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbg', {
      recordings: RECORDINGS,
      from: '2026-02-28',
      to: '2026-03-04',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // Monday 2026-03-02 answers with the rates valid from Saturday 2026-02-28, Tuesday and
    // Wednesday both with those valid from 2026-03-03: 42 currencies x 2 dates
    await assertIngested(run, { stored: 84, symbols: 42 });
    assert.equal(run.replay.requests.length, 3);
    await assertSpots(run, [
      // valid from 2026-03-03: USD quantity 1 at 2.6922 GEL; 00:00 Tbilisi (UTC+4) is 20:00Z
      {
        date: '2026-03-03',
        base: 'USD',
        symbol: 'GEL',
        rate: '2.6922',
        decimals: 12,
        observationTime: '2026-03-02T20:00:00.000Z',
      },
      // JPY quantity 100 at 1.7162 GEL
      {
        date: '2026-03-03',
        base: 'JPY',
        symbol: 'GEL',
        rate: '0.017162',
        decimals: 12,
        observationTime: '2026-03-02T20:00:00.000Z',
      },
      // valid from 2026-02-28: EUR 3.1581 and USD 2.6759 GEL, USD per EUR is their ratio
      {
        date: '2026-02-28',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.180201053851',
        decimals: 12,
        observationTime: '2026-02-27T20:00:00.000Z',
      },
    ]);
  });
});

describe('nbg parser on inline samples', () => {
  const day = (currencies: object[]) =>
    JSON.stringify([{ date: '2026-01-10T00:00:00.000Z', currencies }]);

  test('quantity moves the decimal point; the formatted figure keeps its digits', () => {
    const extraction = parseNbgJson(
      day([
        {
          code: 'IRR',
          quantity: 10000,
          rateFormated: '0.0204',
          rate: 0.0204,
          validFromDate: '2026-01-10T00:00:00.000Z',
        },
        { code: 'UZS', quantity: 1000, rate: 0.22, validFromDate: '2026-01-10T00:00:00.000Z' },
        { code: 'XXY', quantity: 1, rateFormated: '1.0000' },
        { code: 'USD', quantity: 1, rateFormated: '' },
      ]),
      nbg,
    );
    assert.deepEqual(observationRows(extraction), [
      ['IRR', '2026-01-09T20:00:00.000Z', 1 / 0.00000204],
      ['UZS', '2026-01-09T20:00:00.000Z', 1 / 0.00022],
    ]);
    // XXY is no currency code; USD has no figure
    assert.equal(extraction.dropped, 2);
  });

  test('an unexpected shape or a body cut short is refused', () => {
    assert.throws(() => parseNbgJson('{"message":"error"}', nbg), /JSON array/);
    assert.throws(() => parseNbgJson('[{"date":"2026-01-10"}]', nbg), /currencies/);
    assert.throws(() => parseNbgJson(day([]).slice(0, -5), nbg), /cut short/);
  });
});
