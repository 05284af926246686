import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { banrepUrl, publisher as banrep, parseBanrepJson } from '../../src/sources/banrep.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['banrep.yml'];

describe('banrep on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('banrep', {
      recordings: RECORDINGS,
      from: '2026-03-16',
      to: '2026-03-24',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // five TRM rows, valid from 17, 18, 19, 20 and 21 March (the last through the 24th)
    await assertIngested(run, { stored: 5, symbols: 1 });
    await assertSpots(run, [
      // valor 3691.9 from 2026-03-17; 00:00 in Bogota (UTC-5) is 05:00Z
      {
        date: '2026-03-17',
        base: 'USD',
        symbol: 'COP',
        rate: '3691.9',
        decimals: 10,
        observationTime: '2026-03-17T05:00:00.000Z',
      },
      // valor 3704.87 valid from Saturday the 21st through Tuesday the 24th
      {
        date: '2026-03-23',
        base: 'USD',
        symbol: 'COP',
        rate: '3704.87',
        decimals: 10,
        observationTime: '2026-03-21T05:00:00.000Z',
      },
      // valor 3689.97 on the 18th, read as USD per COP
      {
        date: '2026-03-18',
        base: 'COP',
        symbol: 'USD',
        rate: '0.000271005',
        decimals: 9,
        observationTime: '2026-03-18T05:00:00.000Z',
      },
    ]);
  });
});

describe('banrep parser on inline samples', () => {
  test('the window is a SoQL filter on vigenciadesde, percent-encoded', () => {
    assert.equal(
      banrepUrl({ from: '2024-01-01', to: '2024-12-31' }),
      'https://www.datos.gov.co/resource/32sa-8pi3.json?$limit=50000&$order=vigenciadesde%20ASC' +
        '&$where=vigenciadesde%3E=%272024-01-01T00:00:00.000%27%20AND%20vigenciadesde%3C=%272024-12-31T00:00:00.000%27',
    );
  });

  test('COP per USD on the first day of validity; other units and bad values dropped', () => {
    const extraction = parseBanrepJson(
      JSON.stringify([
        {
          valor: '3822.05',
          unidad: 'COP',
          vigenciadesde: '2024-01-06T00:00:00.000',
          vigenciahasta: '2024-01-09T00:00:00.000',
        },
        { valor: '1', unidad: 'USD', vigenciadesde: '2024-01-10T00:00:00.000' },
        { valor: 'n/a', unidad: 'COP', vigenciadesde: '2024-01-11T00:00:00.000' },
      ]),
      banrep,
    );
    assert.deepEqual(observationRows(extraction), [
      ['USD', '2024-01-06T05:00:00.000Z', 1 / 3822.05],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('an error object or a cut-short body fails', () => {
    assert.throws(
      () => parseBanrepJson('{"error":true,"message":"Invalid SoQL query"}', banrep),
      /JSON array/,
    );
    assert.throws(() => parseBanrepJson('[{"valor":"3691.9","unidad":"CO', banrep), /cut short/);
  });
});
