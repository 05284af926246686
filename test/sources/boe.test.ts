import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as boe, boeUrl, parseBoeCsv } from '../../src/sources/boe.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['boe.yml'];

describe('boe on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('boe', {
      recordings: RECORDINGS,
      from: '2026-03-17',
      to: '2026-03-20',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    await assertIngested(run, { stored: 104, symbols: 26 }); // 4 days x 26 series
    await assertSpots(run, [
      // 17 Mar 2026,1.3343 (XUDLUSS); 16:00 London in winter is 16:00Z (summer: inline sample)
      {
        date: '2026-03-17',
        base: 'GBP',
        symbol: 'USD',
        rate: '1.3343',
        observationTime: '2026-03-17T16:00:00.000Z',
      },
    ]);
  });
});

describe('boe parser on inline samples', () => {
  test('series codes to currencies, empty cells skipped, the request names every series', () => {
    const text = 'DATE,XUDLUSS,XUDLJYS\r\n02 Jul 2024,1.2646,\r\n03 Jan 2024,1.2665,180.9\r\n';
    assert.deepEqual(observationRows(parseBoeCsv(text, boe)), [
      ['USD', '2024-07-02T15:00:00.000Z', 1.2646], // 16:00 BST
      ['USD', '2024-01-03T16:00:00.000Z', 1.2665],
      ['JPY', '2024-01-03T16:00:00.000Z', 180.9],
    ]);
    assert.match(
      boeUrl({ from: '2024-01-03', to: '2024-07-02' }),
      /Datefrom=03\/Jan\/2024&Dateto=02\/Jul\/2024&SeriesCodes=XUDLUSS,XUDLERS,/,
    );
    assert.throws(() => parseBoeCsv('<p>no data</p>\n', boe), /not DATE/);
  });
});
