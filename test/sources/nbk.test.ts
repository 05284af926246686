import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as nbk, parseNbkXml } from '../../src/sources/nbk.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['nbk.yml'];

describe('nbk on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('nbk', {
      recordings: RECORDINGS,
      from: '2026-04-01',
      to: '2026-04-03',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 39 currencies (XDR among them) x 3 dates, one request each
    await assertIngested(run, { stored: 117, symbols: 39 });
    await assertSpots(run, [
      // 2026-04-03 USD quant 1 at 472.31 KZT; 00:00 Almaty (UTC+5) is 19:00Z the day before
      {
        date: '2026-04-03',
        base: 'USD',
        symbol: 'KZT',
        rate: '472.31',
        decimals: 12,
        observationTime: '2026-04-02T19:00:00.000Z',
      },
      // KRW quant 100 at 31.15 KZT
      {
        date: '2026-04-03',
        base: 'KRW',
        symbol: 'KZT',
        rate: '0.3115',
        decimals: 12,
        observationTime: '2026-04-02T19:00:00.000Z',
      },
      // EUR 543.72 and USD 472.31 KZT: USD per EUR is their ratio
      {
        date: '2026-04-03',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.151193072347',
        decimals: 12,
        observationTime: '2026-04-02T19:00:00.000Z',
      },
    ]);
  });
});

describe('nbk parser on inline samples', () => {
  const item = (code: string, value: string, quant: string) =>
    `<item><fullname>X</fullname><title>${code}</title><description>${value}</description>` +
    `<quant>${quant}</quant><index>UP</index><change>+0.01</change></item>`;
  const document = (items: string) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<rates><title>Official exchange rates</title>` +
    `<date>15.07.2025</date>${items}</rates>\n`;

  test('quant moves the decimal point; unknown codes and empty figures are dropped', () => {
    const extraction = parseNbkXml(
      document(
        item('UZS', '40.11', '1000') +
          item('USD', '520.5', '1') +
          item('XXX1', '1', '1') +
          item('EUR', '', '1'),
      ),
      nbk,
    );
    assert.deepEqual(observationRows(extraction), [
      ['UZS', '2025-07-14T19:00:00.000Z', 1 / 0.04011],
      ['USD', '2025-07-14T19:00:00.000Z', 1 / 520.5],
    ]);
    assert.equal(extraction.dropped, 2);
  });

  test('a body cut short or an HTML page is refused', () => {
    assert.throws(
      () => parseNbkXml(document(item('USD', '520.5', '1')).slice(0, -12), nbk),
      /cut short/,
    );
    assert.throws(
      () => parseNbkXml('<html><body>Service unavailable</body></html>', nbk),
      /<rates>/,
    );
  });
});
