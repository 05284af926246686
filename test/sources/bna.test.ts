import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bna, parseBnaCurrencies, parseBnaRates } from '../../src/sources/bna.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bna.yml'];

describe('bna on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bna', {
      recordings: RECORDINGS,
      from: '2026-05-18',
      to: '2026-05-21',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // The list names 73 codes: AOA, XAU (in USD) and XDRUSD are not requested, 70 are. SDG's
    // answer is empty; the other 69 hold 2026-05-19 to 05-21 each (the ALL answer holds every
    // currency's rows, of which the lek's are read there).
    await assertIngested(run, { stored: 207, symbols: 69 });
    assert.equal(run.replay.requests.length, 71);
    await assertSpots(run, [
      // USD 913.116 on 2026-05-19. No time is documented: 00:00 in Luanda (UTC+1, no DST) is
      // 23:00Z the day before, so the UTC date 2026-05-18 answers with the rates of the 19th.
      {
        date: '2026-05-18',
        base: 'USD',
        symbol: 'AOA',
        rate: '913.116',
        decimals: 10,
        observationTime: '2026-05-18T23:00:00.000Z',
      },
      // ZMK 0.04852 on 2026-05-19
      {
        date: '2026-05-18',
        base: 'ZMK',
        symbol: 'AOA',
        rate: '0.04852',
        decimals: 12,
        observationTime: '2026-05-18T23:00:00.000Z',
      },
      // EUR 1060.8582 and USD 913.116 on 2026-05-19: dollars per euro
      {
        date: '2026-05-18',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('1060.8582', '913.116', 10),
        decimals: 10,
        observationTime: '2026-05-18T23:00:00.000Z',
      },
    ]);
  });
});

describe('bna parsers on inline samples', () => {
  const rows = (items: object[]) => JSON.stringify({ genericResponse: items, success: true });
  const row = (code: string, taxa: number | string | null, tipoCambio = 'M') => ({
    taxa,
    descricaoTipoCambio: 'Taxa de Referência - MEDIO',
    tipoCambio,
    data: '2024-07-01',
    codigoMoeda: code,
  });

  test('AOA per unit of the requested currency; other currencies in the answer are left out', () => {
    const extraction = parseBnaRates(rows([row('USD', 850.5), row('EUR', 920.1)]), 'USD', bna);
    assert.deepEqual(observationRows(extraction), [['USD', '2024-06-30T23:00:00.000Z', 1 / 850.5]]);
    assert.equal(extraction.dropped, 0);
  });

  test('STD and VEF, still listed at the levels of their successors, are stored as STN and VES', () => {
    const dated = (code: string, taxa: number, data: string) => ({ ...row(code, taxa), data });
    const dobra = parseBnaRates(
      rows([dated('STD', 43.53396, '2026-05-21'), dated('STD', 0.0391, '2017-12-29')]),
      'STD',
      bna,
    );
    assert.deepEqual(
      observationRows(dobra).map(([symbol, time]) => [symbol, time]),
      [
        ['STN', '2026-05-20T23:00:00.000Z'],
        ['STD', '2017-12-28T23:00:00.000Z'],
      ],
    );
    const bolivar = parseBnaRates(rows([dated('VEF', 1.7857, '2026-05-21')]), 'VEF', bna);
    assert.deepEqual(observationRows(bolivar)[0]!.slice(0, 2), ['VES', '2026-05-20T23:00:00.000Z']);
  });

  test('missing values and rates of another type are dropped and counted', () => {
    const extraction = parseBnaRates(rows([row('USD', null), row('USD', 851, 'V')]), 'USD', bna);
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 2);
  });

  test('the currency list keeps codes quoted in kwanzas', () => {
    const list = rows(
      ['AED', 'AOA', 'XAU', 'XDRUSD', 'ZMK'].map((code) => ({ idMoeda: 1, codigoMoeda: code })),
    );
    assert.deepEqual(parseBnaCurrencies(list, bna), ['AED', 'ZMK']);
  });

  test('a body cut short or a failure answer is refused', () => {
    assert.throws(
      () => parseBnaRates(rows([row('USD', 850)]).slice(0, 50), 'USD', bna),
      /not valid JSON/,
    );
    assert.throws(() => parseBnaRates('{"success":false}', 'USD', bna), /success: false/);
    assert.throws(() => parseBnaCurrencies('{"error":"x"}', bna), /genericResponse/);
  });
});
