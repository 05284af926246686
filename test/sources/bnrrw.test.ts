import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bnrrw, isoFromBnrrwDate, parseBnrrwJson } from '../../src/sources/bnrrw.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bnrrw.yml'];

describe('bnrrw on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bnrrw', {
      recordings: RECORDINGS,
      from: '2026-05-19',
      to: '2026-05-22',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 16 currencies x 4 days (2026-05-19 to 05-22); nothing dropped
    await assertIngested(run, { stored: 64, symbols: 16 });
    assert.equal(run.report.requests, 16);
    // No fixing time is documented, so figures are dated 00:00 Kigali, 22:00Z the day before:
    // the date endpoint for 2026-05-21 already answers with the rate dated 22-May-26.
    await assertSpots(run, [
      // USD average 1463.3525 RWF on 22-May-26
      {
        date: '2026-05-22',
        base: 'USD',
        symbol: 'RWF',
        rate: '1463.3525',
        decimals: 10,
        observationTime: '2026-05-21T22:00:00.000Z',
      },
      {
        date: '2026-05-21',
        base: 'USD',
        symbol: 'RWF',
        rate: '1463.3525',
        decimals: 10,
        observationTime: '2026-05-21T22:00:00.000Z',
      },
      // EUR average 1699.537594 on 22-May-26
      {
        date: '2026-05-22',
        base: 'EUR',
        symbol: 'RWF',
        rate: '1699.537594',
        decimals: 10,
        observationTime: '2026-05-21T22:00:00.000Z',
      },
      // UGX average 0.387057 on 22-May-26
      {
        date: '2026-05-22',
        base: 'UGX',
        symbol: 'RWF',
        rate: '0.387057',
        decimals: 12,
        observationTime: '2026-05-21T22:00:00.000Z',
      },
    ]);
  });
});

describe('bnrrw parser on inline samples', () => {
  test('two-digit years and English months', () => {
    assert.equal(isoFromBnrrwDate('19-May-26'), '2026-05-19');
    assert.equal(isoFromBnrrwDate('2-Jan-12'), '2012-01-02');
  });

  test('RWF per unit, the average rate; unknown names and bad figures are dropped', () => {
    const extraction = parseBnrrwJson(
      JSON.stringify([
        { currency_name: 'USD', average_rate: '1,290.5', post_date: '02-Jan-25' },
        { currency_name: 'XYZ', average_rate: '1', post_date: '02-Jan-25' },
        { currency_name: 'EUR', average_rate: '', post_date: '02-Jan-25' },
      ]),
      bnrrw,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2025-01-01T22:00:00.000Z', 1 / 1290.5],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('anything but a JSON array is refused', () => {
    assert.throws(() => parseBnrrwJson('{"error":"bad currency"}', bnrrw), /JSON array/);
    assert.throws(() => parseBnrrwJson('[{"currency_name":"USD"', bnrrw), /not valid JSON/);
  });
});
