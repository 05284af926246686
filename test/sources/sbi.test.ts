import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { divideDecimals } from '../../src/exact-decimal.js';
import { publisher as sbi, parseSbiXml } from '../../src/sources/sbi.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['sbi.yml'];

describe('sbi on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  before(async () => {
    run = await replayPublisher('sbi', {
      recordings: RECORDINGS,
      from: '2026-03-24',
      to: '2026-03-28',
    });
  });
  after(() => run?.close());

  test('every recorded rate stored; published figures come back through the API', async () => {
    // Middle rates on 4 days: group 9 has 10 series with data (SDR among them), group 7 has 22;
    // buying and selling series are empty, withdrawn currencies' series too
    await assertIngested(run, { stored: 128, symbols: 32 });
    // 11:00 in Reykjavik (UTC all year) is 11:00Z
    await assertSpots(run, [
      // group 9, Bandaríkjadalur miðgengi, 3/27/2026: 124.710000
      {
        date: '2026-03-27',
        base: 'USD',
        symbol: 'ISK',
        rate: '124.71',
        decimals: 12,
        observationTime: '2026-03-27T11:00:00.000Z',
      },
      // group 7, Suðurkóreskt vonn, 3/24/2026: 0.083000 per won
      {
        date: '2026-03-24',
        base: 'KRW',
        symbol: 'ISK',
        rate: '0.083',
        decimals: 12,
        observationTime: '2026-03-24T11:00:00.000Z',
      },
      // 3/24/2026: Evra 144.000000, Sérstök dráttarréttindi- SDR 169.600000
      {
        date: '2026-03-24',
        base: 'XDR',
        symbol: 'EUR',
        rate: divideDecimals('169.6', '144', 9),
        decimals: 9,
        observationTime: '2026-03-24T11:00:00.000Z',
      },
    ]);
  });
});

describe('sbi parser on inline samples', () => {
  const series = (name: string, kind: string, entries: string) =>
    `<TimeSeries ID="1"><FameName><![CDATA[]]></FameName><Name><![CDATA[${name}]]></Name>` +
    `<Description><![CDATA[${name}, skráð ${kind}.]]></Description><TimeSeriesData>${entries}</TimeSeriesData></TimeSeries>`;
  const group = (body: string) =>
    `<?xml version="1.0"  encoding="utf-8"?><Group ID="9"><Name><![CDATA[Opinbert]]></Name>${body}</Group>`;
  const entry = (date: string, value: string) =>
    `<Entry><Date>${date}</Date><Value>${value}</Value></Entry>`;

  test('middle rates by Icelandic name, month/day/year dates; buying and selling skipped', () => {
    const result = parseSbiXml(
      group(
        series('Japanskt jen', 'miðgengi', entry('7/1/2026 12:00:00 AM', '0.783000')) +
          series('Japanskt jen', 'kaupgengi', entry('7/1/2026 12:00:00 AM', '0.780000')),
      ),
      sbi,
    );
    assert.deepEqual(observationRows(result), [['JPY', '2026-07-01T11:00:00.000Z', 1 / 0.783]]);
    assert.equal(result.dropped, 0);
  });

  test('an unknown name or a missing value is dropped and counted', () => {
    const result = parseSbiXml(
      group(
        series('Venesúelskur bólivari', 'miðgengi', entry('7/1/2026 12:00:00 AM', '1.5')) +
          series('Evra', 'miðgengi', entry('7/1/2026 12:00:00 AM', '')),
      ),
      sbi,
    );
    assert.equal(result.observations.length, 0);
    assert.equal(result.dropped, 2);
    assert.match(result.dropReasons[0]!, /Venesúelskur/);
  });

  test('a body cut short or an error page is refused', () => {
    assert.throws(() => parseSbiXml(group('').slice(0, -5), sbi), /cut short/);
    assert.throws(() => parseSbiXml('<error>Invalid group</error>', sbi), /Group/);
  });
});
