import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bceao, bceaoNameKey, parseBceaoHtml } from '../../src/sources/bceao.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bceao.yml'];

describe('bceao on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bceao', {
      recordings: RECORDINGS,
      from: '2026-03-16',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 135, symbols: 27 }); // 27 currencies x 5 days
    await assertSpots(run, [
      // 2026-03-20 "Dinar Koweitien" 1.953,1500; Dakar is UTC all year
      {
        date: '2026-03-20',
        base: 'KWD',
        symbol: 'XOF',
        rate: '1953.15',
        decimals: 10,
        observationTime: '2026-03-20T00:00:00.000Z',
      },
      // "Won Cor\xC3\xA9en" 0,4102
      {
        date: '2026-03-20',
        base: 'KRW',
        symbol: 'XOF',
        rate: '0.4102',
        decimals: 12,
        observationTime: '2026-03-20T00:00:00.000Z',
      },
      // 2026-03-16 "Euro" 655,9570 and "Dollar us" 605,5200: euros per dollar
      {
        date: '2026-03-16',
        base: 'USD',
        symbol: 'EUR',
        rate: divideDecimals('605.52', '655.957', 10),
        decimals: 10,
        observationTime: '2026-03-16T00:00:00.000Z',
      },
    ]);
  });
});

describe('bceao parser on inline samples', () => {
  const page = (rows: [string, string][], heading = 'Cours des devises du lundi 1 juillet 2024') =>
    `<h2>${heading}</h2><table><tbody><tr><th>Devise</th><th>CFA</th></tr>` +
    rows.map(([name, value]) => `<tr>\n<td>${name}</td>\n<td>${value}</td>\n</tr>`).join('') +
    '</tbody></table>';

  test('French names, escaped or real accents, decimal commas and thousands dots', () => {
    const extraction = parseBceaoHtml(
      page([
        ['Couronne su\\xC3\\xA9doise', '59,4700'],
        ['Real brésilien', '107,07'],
        ['Dinar Koweitien', '1.953,1500'],
      ]),
      bceao,
    );
    assert.deepEqual(observationRows(extraction), [
      ['SEK', '2024-07-01T00:00:00.000Z', 1 / 59.47],
      ['BRL', '2024-07-01T00:00:00.000Z', 1 / 107.07],
      ['KWD', '2024-07-01T00:00:00.000Z', 1 / 1953.15],
    ]);
    assert.equal(bceaoNameKey('Dollar n\\xC3\\xA9o-z\\xC3\\xA9landais'), 'dollar neo-zelandais');
  });

  test('dates in French; unknown names and missing values are dropped and counted', () => {
    const extraction = parseBceaoHtml(
      page(
        [
          ['Franc guinéen', '0,07'],
          ['Euro', ''],
          ['Dollar us', '600,00'],
        ],
        'Cours des devises du jeudi 15 août 2024',
      ),
      bceao,
    );
    assert.deepEqual(observationRows(extraction), [['USD', '2024-08-15T00:00:00.000Z', 1 / 600]]);
    assert.equal(extraction.dropped, 2);
  });

  test('a page without the dated heading or with the table cut short is refused', () => {
    assert.throws(
      () => parseBceaoHtml('<html><body>Erreur</body></html>', bceao),
      /Cours des devises/,
    );
    assert.throws(
      () => parseBceaoHtml(page([['Euro', '655,957']]).slice(0, -20), bceao),
      /cut short/,
    );
  });
});
