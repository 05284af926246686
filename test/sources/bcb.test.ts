import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bcb, bcbUrl, parseBcbJson } from '../../src/sources/bcb.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcb.yml'];

describe('bcb on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bcb', {
      recordings: RECORDINGS,
      from: '2026-03-01',
      to: '2026-03-07',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 50, symbols: 10 }); // 10 currencies x 5 days
    await assertSpots(run, [
      // USD 2026-03-02: cotacaoCompra 5.19950, cotacaoVenda 5.20010, midpoint 5.1998;
      // 13:00 Sao Paulo is 16:00Z all year
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'BRL',
        rate: '5.1998',
        decimals: 12,
        observationTime: '2026-03-02T16:00:00.000Z',
      },
    ]);
  });
});

describe('bcb parser on inline samples', () => {
  const bulletin = (buy: number, sell: number) =>
    JSON.stringify({
      value: [
        {
          cotacaoCompra: buy,
          cotacaoVenda: sell,
          dataHoraCotacao: '2024-01-02 13:04:00.123',
          tipoBoletim: 'Fechamento',
        },
      ],
    });

  test('the midpoint of buying and selling rates; dates as MM-DD-YYYY in the request', () => {
    assert.deepEqual(observationRows(parseBcbJson(bulletin(4.8, 4.9), 'USD', bcb)), [
      ['USD', '2024-01-02T16:00:00.000Z', 1 / 4.85],
    ]);
    assert.match(
      bcbUrl('USD', { from: '2024-01-02', to: '2024-12-31' }),
      /@dataFinalCotacao=%2712-31-2024%27&@dataInicial=%2701-02-2024%27&@moeda=%27USD%27$/,
    );
  });

  test('the midpoint is the exact decimal mean, not a sum of doubles halved', () => {
    // (5.4321 + 5.4327) / 2 on doubles is 5.4323999999999995
    const [usd] = parseBcbJson(bulletin(5.4321, 5.4327), 'USD', bcb).observations;
    assert.equal(usd!.rate, 1 / 5.4324);
  });
});
