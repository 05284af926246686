import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bct, parseBctHtml } from '../../src/sources/bct.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bct.yml'];

describe('bct on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bct', {
      recordings: RECORDINGS,
      from: '2026-05-18',
      to: '2026-05-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 20 currencies x 3 days from the interbank table; the bank-note table is not read.
    await assertIngested(run, { stored: 60, symbols: 20 });
    await assertSpots(run, [
      // 18/05/2026 JPY, Unité 1000, 18,4093. No time is documented: 00:00 in Tunis (no DST) is
      // 23:00Z the day before, so the date endpoint gives each day's rates from the UTC day before.
      {
        date: '2026-05-17',
        base: 'JPY',
        symbol: 'TND',
        rate: '0.0184093',
        decimals: 12,
        observationTime: '2026-05-17T23:00:00.000Z',
      },
      // 20/05/2026 DKK, Unité 100, 45,4665
      {
        date: '2026-05-20',
        base: 'DKK',
        symbol: 'TND',
        rate: '0.454665',
        decimals: 12,
        observationTime: '2026-05-19T23:00:00.000Z',
      },
      // 19/05/2026 EUR 3,3907 and USD 2,9021: dollars per euro
      {
        date: '2026-05-18',
        base: 'EUR',
        symbol: 'USD',
        rate: divideDecimals('3.3907', '2.9021', 10),
        decimals: 10,
        observationTime: '2026-05-18T23:00:00.000Z',
      },
    ]);
  });
});

describe('bct parser on inline samples', () => {
  const row = (name: string, code: string, units: string, value: string) =>
    `<tr> <td nowrap scope='col'><img alt='${code}/CHF' src='x.gif' />   ${name}</td> <td scope='col'>${code}</td>` +
    ` <td scope='col'><div align='right'>${units}</div></td> <td scope='col'><div align='right'>${value}</div></td> </tr>`;
  const page = (rows: string) =>
    "<h5 align='center'>Journée du 01/07/2024&nbsp;&nbsp;<a href='x'>xls</a></h5>" +
    `<table><thead><tr><td>Monnaie</td></tr></thead><tbody>${rows}</tbody></table>`;

  test('TND per Unité units with a decimal comma', () => {
    const extraction = parseBctHtml(
      page(row('YEN JAPONAIS', 'JPY', '1000', ' 18,4093') + row('EURO', 'EUR', '1', '  3,3965')),
      bct,
    );
    assert.deepEqual(observationRows(extraction), [
      ['JPY', '2024-06-30T23:00:00.000Z', 1 / 0.0184093],
      ['EUR', '2024-06-30T23:00:00.000Z', 1 / 3.3965],
    ]);
  });

  test('an empty value or an unknown code is dropped and counted', () => {
    const extraction = parseBctHtml(
      page(row('DINAR LIBYEN', 'LYD', '1', '') + row('UNITE DE COMPTE', 'XYZ', '1', '1,5')),
      bct,
    );
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 2);
  });

  test('a page without the day or cut inside the table is refused', () => {
    assert.throws(() => parseBctHtml('<html><body>Erreur</body></html>', bct), /Journée du/);
    assert.throws(
      () => parseBctHtml(page(row('EURO', 'EUR', '1', '3,39')).slice(0, -30), bct),
      /cut short/,
    );
  });
});
