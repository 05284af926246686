import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { publisher as bot, botUnits, parseBotJson } from '../../src/sources/bot.js';
import { idleReason } from '../../src/sources/publisher.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bot.yml'];

describe('bot on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('bot', {
      recordings: RECORDINGS,
      from: '2026-04-01',
      to: '2026-04-03',
      env: { BOT_API_KEY: 'test-key' },
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 19 currencies x 3 days (2026-04-01 to 04-03), every one with a mid rate
    await assertIngested(run, { stored: 57, symbols: 19 });
    await assertSpots(run, [
      // 2026-04-03 USD mid 32.6448000 THB; 18:00 Bangkok is 11:00Z
      {
        date: '2026-04-03',
        base: 'USD',
        symbol: 'THB',
        rate: '32.6448',
        decimals: 12,
        observationTime: '2026-04-03T11:00:00.000Z',
      },
      // 2026-04-01 JPY "(100 YEN)" mid 20.5513000: THB per 100 yen
      {
        date: '2026-04-01',
        base: 'JPY',
        symbol: 'THB',
        rate: '0.205513',
        decimals: 12,
        observationTime: '2026-04-01T11:00:00.000Z',
      },
      // 2026-04-02 IDR "(1,000 RUPIAH)" mid 1.9322000: THB per 1,000 rupiah
      {
        date: '2026-04-02',
        base: 'IDR',
        symbol: 'THB',
        rate: '0.0019322',
        decimals: 12,
        observationTime: '2026-04-02T11:00:00.000Z',
      },
    ]);
  });
});

describe('bot parser on inline samples', () => {
  test('without BOT_API_KEY the publisher is idle, and says which variable to set', () => {
    assert.equal(
      idleReason(bot, {}),
      'idle: set BOT_API_KEY to a BOT API key to ingest this source',
    );
  });

  const body = (rows: object[]) => JSON.stringify({ result: { data: { data_detail: rows } } });

  test('THB per the units the name gives; a blank mid rate is no rate', () => {
    assert.equal(botUnits('INDONESIA : RUPIAH (1,000 RUPIAH) (IDR)'), '1000');
    assert.equal(botUnits('USA : DOLLAR (USD) '), '1');
    assert.deepEqual(
      observationRows(
        parseBotJson(
          body([
            {
              period: '2024-01-02',
              currency_id: 'JPY',
              currency_name_eng: 'JAPAN : YEN (100 YEN) (JPY) ',
              mid_rate: '24.2000000',
            },
            {
              period: '2024-01-02',
              currency_id: 'USD',
              currency_name_eng: 'USA : DOLLAR (USD) ',
              mid_rate: '',
            },
          ]),
          bot,
        ),
      ),
      [['JPY', '2024-01-02T11:00:00.000Z', 1 / 0.242]],
    );
  });

  test('an unknown code is dropped; error answers and cut-short bodies are refused', () => {
    const extraction = parseBotJson(
      body([{ period: '2024-01-02', currency_id: 'XYZ', currency_name_eng: 'X', mid_rate: '1' }]),
      bot,
    );
    assert.equal(extraction.dropped, 1);
    assert.throws(
      () => parseBotJson(JSON.stringify({ message: 'Invalid token' }), bot),
      /data_detail.*Invalid token/,
    );
    assert.throws(() => parseBotJson(body([]).slice(0, 20), bot), /not valid JSON/);
  });
});
