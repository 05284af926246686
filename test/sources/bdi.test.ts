import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as bdi, parseBdiCsv } from '../../src/sources/bdi.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bdi.yml'];

describe('bdi on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bdi', {
      recordings: RECORDINGS,
      from: '2026-02-09',
      to: '2026-02-11',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 171 country rows a day: 17 repeat a currency already listed (CFA francs, US and East
    // Caribbean dollars, ...) and are kept once; BYN, IRR, KPW and RUB are "N.A." (dropped):
    // 150 currencies x 3 days, 4 x 3 dropped.
    await assertIngested(run, { stored: 450, symbols: 150, dropped: 12 });
    await assertSpots(run, [
      // ANGOLA,Adjusted Kwanza,AOA,087,1092.767 on 2026-02-10. No time is documented: 00:00 in
      // Rome is 23:00Z the day before in winter, so the UTC date 2026-02-09 answers with it.
      {
        date: '2026-02-09',
        base: 'EUR',
        symbol: 'AOA',
        rate: '1092.767',
        decimals: 10,
        observationTime: '2026-02-09T23:00:00.000Z',
      },
      // BARBADOS,Barbados Dollar,BBD,195,2.377200 on 2026-02-09
      {
        date: '2026-02-08',
        base: 'EUR',
        symbol: 'BBD',
        rate: '2.3772',
        decimals: 10,
        observationTime: '2026-02-08T23:00:00.000Z',
      },
      // 2026-02-11: ARGENTINA 1671.2422 pesos and AUSTRALIA 1.6737 dollars per euro
      {
        date: '2026-02-11',
        base: 'AUD',
        symbol: 'ARS',
        rate: divideDecimals('1671.2422', '1.6737', 8),
        decimals: 8,
        observationTime: '2026-02-10T23:00:00.000Z',
      },
    ]);
  });
});

describe('bdi parser on inline samples', () => {
  const header = 'Country,Currency,ISO Code,UIC Code,Rate,Rate convention,Reference date (CET)\n';
  const row = (
    country: string,
    code: string,
    rate: string,
    convention = 'Foreign currency amount for 1 Euro.',
  ) => `${country},X,${code},001,${rate},${convention},2024-07-01\n`;

  test('units per euro; a currency repeated by several countries is kept once', () => {
    const extraction = parseBdiCsv(
      header +
        row('BENIN', 'XOF', '655.957') +
        row('MALI', 'XOF', '655.957') +
        row('"KOREA, REPUBLIC OF"', 'KRW', '1484.19') +
        row('SOMEWHERE', 'ABC', '2', 'Euro amount for 1 unit of foreign currency.') +
        '# DISCLAIMER\n# Banca d’Italia, notices, and more.\n',
      bdi,
    );
    assert.deepEqual(observationRows(extraction), [
      ['XOF', '2024-06-30T22:00:00.000Z', 655.957],
      ['KRW', '2024-06-30T22:00:00.000Z', 1484.19],
    ]);
    // ABC is no currency: dropped and counted
    assert.equal(extraction.dropped, 1);
  });

  test('"N.A." rates and unknown conventions are dropped and counted', () => {
    const extraction = parseBdiCsv(
      header + row('RUSSIA', 'RUB', 'N.A.') + row('X', 'USD', '1.08', 'Something else'),
      bdi,
    );
    assert.equal(extraction.observations.length, 0);
    assert.equal(extraction.dropped, 2);
  });

  test('a body cut short or without the expected columns is refused', () => {
    assert.throws(() => parseBdiCsv(header + 'ALBANIA,Lek,ALL,047,96', bdi), /cut short|fields/);
    assert.throws(() => parseBdiCsv('Date,Value\n2024-07-01,1\n', bdi), /ISO Code/);
  });
});
