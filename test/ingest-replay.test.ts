import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IngestOptions } from '../src/ingest/ingest-source.js';
import { ingestSource } from '../src/ingest/ingest-source.js';
import { findSource } from '../src/sources/registry.js';
import {
  readRows,
  skipWithoutFixtures,
  startService,
  type TestService,
} from './support/harness.js';
import { RECORDED, ReplayServer } from './support/replay-server.js';

const skip = skipWithoutFixtures(RECORDED);

/** A published figure and where it must come back: GET /v1/exchangerate/{date}?sources=&base=&symbols=. */
interface Spot {
  date: string;
  base: string;
  symbol: string;
  rate: number;
  observationTime: string;
}

interface Recording {
  key: string;
  from: string;
  to: string;
  /** Observations the recorded responses hold, counted from the files. */
  stored: number;
  symbols: number;
  dropped?: number;
  spots: Spot[];
}

// Values copied from the recordings; each comment names the line they come from.
const RECORDINGS: Recording[] = [
  {
    key: 'ecb',
    from: '2026-02-17',
    to: '2026-03-18',
    stored: 638, // 29 currencies x 22 days
    symbols: 29,
    spots: [
      // D,USD,2026-03-18,1.15 -- 16:00 Berlin in winter is 15:00Z
      {
        date: '2026-03-18',
        base: 'USD',
        symbol: 'EUR',
        rate: 1 / 1.15,
        observationTime: '2026-03-18T15:00:00.000Z',
      },
      {
        date: '2026-03-18',
        base: 'EUR',
        symbol: 'JPY',
        rate: 183.49,
        observationTime: '2026-03-18T15:00:00.000Z',
      },
    ],
  },
  {
    key: 'imf',
    from: '2026-03-01',
    to: '2026-03-31',
    stored: 734, // 712 REP values (NA and the U.S. dollar row left out) + 22 XDR from SDRCV
    symbols: 36,
    spots: [
      // "Euro(1)" 1.169800 on March 02: USD per EUR, the other way round from the other rows
      {
        date: '2026-03-02',
        base: 'EUR',
        symbol: 'USD',
        rate: 1.1698,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // "Japanese yen" 156.400000
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'JPY',
        rate: 156.4,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // SDRCV "U.S. dollar" 0.7296240000 SDR per USD
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'XDR',
        rate: 0.729624,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
    ],
  },
  {
    key: 'boe',
    from: '2026-03-17',
    to: '2026-03-20',
    stored: 104, // 4 days x 26 series
    symbols: 26,
    spots: [
      // 17 Mar 2026,1.3343 (XUDLUSS); 16:00 London in winter is 16:00Z
      {
        date: '2026-03-17',
        base: 'GBP',
        symbol: 'USD',
        rate: 1.3343,
        observationTime: '2026-03-17T16:00:00.000Z',
      },
    ],
  },
  {
    key: 'rba',
    from: '2023-01-03',
    to: '2026-03-20',
    stored: 14896, // 17 full series x 808 days + PGK 52 + CAD 563 + CHF 545; AED and ZAR empty
    symbols: 20,
    spots: [
      // 03-Jan-2023,0.6828 (A$1=USD); 16:00 Sydney in summer (AEDT) is 05:00Z
      {
        date: '2023-01-03',
        base: 'AUD',
        symbol: 'USD',
        rate: 0.6828,
        observationTime: '2023-01-03T05:00:00.000Z',
      },
      // the SDR column, 0.5131
      {
        date: '2023-01-03',
        base: 'AUD',
        symbol: 'XDR',
        rate: 0.5131,
        observationTime: '2023-01-03T05:00:00.000Z',
      },
    ],
  },
  {
    key: 'snb',
    from: '2024-08-01',
    to: '2026-07-31',
    stored: 624, // 26 month-end series x 24 months
    symbols: 26,
    spots: [],
  },
  {
    key: 'bnro',
    from: '2026-01-01',
    to: '2026-08-19',
    stored: 5809,
    symbols: 37,
    spots: [
      // <Rate currency="HUF" multiplier="100">1.3247</Rate> on 2026-01-05; 13:00 Bucharest in winter is 11:00Z
      {
        date: '2026-01-05',
        base: 'HUF',
        symbol: 'RON',
        rate: 0.013247,
        observationTime: '2026-01-05T11:00:00.000Z',
      },
      // <Rate currency="AUD">3.1994</Rate> on 2026-08-19; in summer 13:00 is 10:00Z
      {
        date: '2026-08-19',
        base: 'AUD',
        symbol: 'RON',
        rate: 3.1994,
        observationTime: '2026-08-19T10:00:00.000Z',
      },
      // <Rate currency="XAU">621.3365</Rate>: RON per gram; XAU is a troy ounce
      {
        date: '2026-01-05',
        base: 'XAU',
        symbol: 'RON',
        rate: 621.3365 * 31.1034768,
        observationTime: '2026-01-05T11:00:00.000Z',
      },
    ],
  },
  {
    key: 'boi',
    from: '2026-03-01',
    to: '2026-03-20',
    stored: 28,
    symbols: 14,
    spots: [
      // RER_JPY_ILS ... UNIT_MULT 2 ... 2026-03-02,1.971: ILS per 100 JPY; 15:30 Jerusalem in winter is 13:30Z
      {
        date: '2026-03-02',
        base: 'JPY',
        symbol: 'ILS',
        rate: 0.01971,
        observationTime: '2026-03-02T13:30:00.000Z',
      },
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'ILS',
        rate: 3.073,
        observationTime: '2026-03-02T13:30:00.000Z',
      },
    ],
  },
  {
    key: 'nbu',
    from: '2026-03-01',
    to: '2026-03-16',
    stored: 720, // 45 currencies x 16 days, weekends included
    symbols: 45,
    spots: [
      // 16.03.2026 JPY rate 2.7705 for units 10; 15:30 Kyiv in winter is 13:30Z
      {
        date: '2026-03-16',
        base: 'JPY',
        symbol: 'UAH',
        rate: 0.27705,
        observationTime: '2026-03-16T13:30:00.000Z',
      },
      {
        date: '2026-03-16',
        base: 'USD',
        symbol: 'UAH',
        rate: 44.1381,
        observationTime: '2026-03-16T13:30:00.000Z',
      },
    ],
  },
  {
    key: 'cbr',
    from: '2026-03-01',
    to: '2026-03-05',
    stored: 228, // XML_daily 54 + XML_dynamic 162 + metals 12
    symbols: 58,
    spots: [
      // R01030 (DZD) on 03.03.2026: Nominal 100, Value 59,2589; Moscow 15:30 is 12:30Z all year
      {
        date: '2026-03-03',
        base: 'DZD',
        symbol: 'RUB',
        rate: 0.592589,
        observationTime: '2026-03-03T12:30:00.000Z',
      },
      // R01010 (AUD) on 03.03.2026: 54,7468
      {
        date: '2026-03-03',
        base: 'AUD',
        symbol: 'RUB',
        rate: 54.7468,
        observationTime: '2026-03-03T12:30:00.000Z',
      },
      // XML_daily of 25.04.2026: AUD 53,8359
      {
        date: '2026-04-25',
        base: 'AUD',
        symbol: 'RUB',
        rate: 53.8359,
        observationTime: '2026-04-25T12:30:00.000Z',
      },
      // gold, code 1, 03.03.2026: buy = sell = 12957,47 RUB per gram
      {
        date: '2026-03-03',
        base: 'XAU',
        symbol: 'RUB',
        rate: 12957.47 * 31.1034768,
        observationTime: '2026-03-03T12:30:00.000Z',
      },
    ],
  },
  {
    key: 'bcb',
    from: '2026-03-01',
    to: '2026-03-07',
    stored: 50, // 10 currencies x 5 days
    symbols: 10,
    spots: [
      // USD 2026-03-02: cotacaoCompra 5.19950, cotacaoVenda 5.20010; 13:00 Sao Paulo is 16:00Z
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'BRL',
        rate: (5.1995 + 5.2001) / 2,
        observationTime: '2026-03-02T16:00:00.000Z',
      },
    ],
  },
  {
    key: 'cbn',
    from: '2026-05-14',
    to: '2026-05-21',
    stored: 72, // 78 records less 6 of WAUA, which has no ISO code
    symbols: 12,
    dropped: 6,
    spots: [
      // US DOLLAR 2026-05-21: buying 1371.3079, selling 1372.3079; 00:00 Lagos is 23:00Z the day before
      {
        date: '2026-05-21',
        base: 'USD',
        symbol: 'NGN',
        rate: (1371.3079 + 1372.3079) / 2,
        observationTime: '2026-05-20T23:00:00.000Z',
      },
    ],
  },
  {
    key: 'float_rates',
    from: '2024-05-31',
    to: '2024-05-31',
    stored: 146,
    symbols: 146,
    spots: [
      // "aud": rate 1.5046777779523, date Fri, 31 May 2024
      {
        date: '2024-05-31',
        base: 'USD',
        symbol: 'AUD',
        rate: 1.5046777779523,
        observationTime: '2024-05-31T00:00:00.000Z',
      },
    ],
  },
  {
    key: 'boc',
    from: '2026-03-12',
    to: '2026-03-18',
    stored: 115, // 5 days x 23 series with values
    symbols: 23,
    spots: [
      // 2026-03-12 FXUSDCAD 1.3617; 16:30 Toronto in summer time (from 8 March) is 20:30Z
      {
        date: '2026-03-12',
        base: 'USD',
        symbol: 'CAD',
        rate: 1.3617,
        observationTime: '2026-03-12T20:30:00.000Z',
      },
    ],
  },
  {
    key: 'nbp',
    from: '2026-03-01',
    to: '2026-03-05',
    stored: 248, // table A 4 x 32, table B 116, gold 4
    symbols: 149,
    spots: [
      // table A 2026-03-02: USD mid 3.6056
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'PLN',
        rate: 3.6056,
        observationTime: '2026-03-02T11:00:00.000Z',
      },
      // gold 2026-03-02: 595.71 PLN per gram
      {
        date: '2026-03-02',
        base: 'XAU',
        symbol: 'PLN',
        rate: 595.71 * 31.1034768,
        observationTime: '2026-03-02T11:00:00.000Z',
      },
    ],
  },
  {
    key: 'cnb',
    from: '2026-01-01',
    to: '2026-04-02',
    stored: 1950, // 30 currencies x 65 days
    symbols: 30,
    spots: [
      // 2026-04-02 IDR amount 1000 rate 1.253; 14:30 Prague in summer is 12:30Z
      {
        date: '2026-04-02',
        base: 'IDR',
        symbol: 'CZK',
        rate: 0.001253,
        observationTime: '2026-04-02T12:30:00.000Z',
      },
      {
        date: '2026-04-02',
        base: 'JPY',
        symbol: 'CZK',
        rate: 0.13338,
        observationTime: '2026-04-02T12:30:00.000Z',
      },
    ],
  },
  {
    key: 'fred',
    from: '2026-03-01',
    to: '2026-03-13',
    stored: 220, // 22 series x 10 days
    symbols: 22,
    spots: [
      // DEXUSEU 2026-03-02 1.169: USD per EUR; noon New York in winter is 17:00Z
      {
        date: '2026-03-02',
        base: 'EUR',
        symbol: 'USD',
        rate: 1.169,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
      // DEXJPUS 157.48: JPY per USD
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'JPY',
        rate: 157.48,
        observationTime: '2026-03-02T17:00:00.000Z',
      },
    ],
  },
];

function assertClose(actual: number, expected: number, message: string): void {
  assert.ok(
    Math.abs(actual - expected) <= Math.abs(expected) * 1e-12,
    `${message}: ${actual} != ${expected}`,
  );
}

describe('ingestion of recorded publisher responses', { skip }, () => {
  let replay: ReplayServer;
  let service: TestService;
  const env = (): Record<string, string> =>
    replay.env(
      RECORDINGS.map((r) => r.key),
      { FRED_API_KEY: 'test-key' },
    );
  const ingest = (key: string, options: Partial<IngestOptions> = {}) =>
    ingestSource(service.store, findSource(key)!, {
      env: env(),
      http: { politenessMs: 0, retries: 0, timeoutMs: 5000 },
      ...options,
    });

  before(async () => {
    replay = await ReplayServer.start();
    service = await startService({
      today: () => '2026-11-22',
      ingestEnv: { FRED_API_KEY: 'test-key' },
      ingesting: true,
    });
  });
  after(async () => {
    await service?.close();
    await replay?.close();
  });

  for (const recording of RECORDINGS) {
    test(`${recording.key}: every recorded rate stored, published values come back through the API`, async () => {
      const report = await ingest(recording.key, { from: recording.from, to: recording.to });
      assert.equal(report.error, null);
      assert.equal(report.stored, recording.stored);
      assert.equal(report.dropped, recording.dropped ?? 0, report.dropReasons.join('; '));
      const sources = await service.app.inject(`/v1/exchangerate/sources?sources=${recording.key}`);
      const listed = JSON.parse(sources.body).currencies[recording.key];
      // The symbols a source lists include its own relative currency (CONTRACT §5).
      assert.equal(listed.num_symbols, recording.symbols + 1);
      for (const spot of recording.spots) {
        const url = `/v1/exchangerate/${spot.date}?sources=${recording.key}&base=${spot.base}&symbols=${spot.symbol}`;
        const response = await service.app.inject(url);
        assert.equal(response.statusCode, 200, url);
        const entry = JSON.parse(response.body).rates[spot.symbol];
        assert.ok(entry, `${url}: ${response.body}`);
        assertClose(entry.rate, spot.rate, url);
        assert.equal(entry.observation_time, spot.observationTime, url);
        assert.equal(entry.source, recording.key, url);
      }
      const status = JSON.parse((await service.app.inject('/v1/exchangerate/status')).body);
      const row = status.sources.find((s: any) => s.source === recording.key);
      assert.equal(row.state, 'ok');
      assert.equal(row.last_error, null);
      assert.equal(row.observations, recording.stored);
      assert.equal(row.last_run_stored, recording.stored);
    });
  }

  test("snb: month-end rates (not the averages) on the month's last weekday, per-100 quotes inverted", async () => {
    // EPB@SNB.devkum{M1,JPY100} and {M1,EUR1}: CHF per 100 JPY and per 1 EUR at month end.
    const body = JSON.parse(replay.recorded('/api/cube/devkum/data/json/de').body.toString());
    const series = (key: string) =>
      body.timeseries.find((s: any) => s.metadata.key === `EPB@SNB.devkum{${key}}`).values;
    const jpy = series('M1,JPY100').find((v: any) => v.date === '2026-01');
    const eurAverage = series('M0,EUR1').find((v: any) => v.date === '2026-01');
    const eurEnd = series('M1,EUR1').find((v: any) => v.date === '2026-01');
    assert.notEqual(eurAverage.value, eurEnd.value);
    // January 2026 ends on a Saturday: the last fixing was Friday the 30th, 11:00 Zurich = 10:00Z.
    const response = await service.app.inject(
      '/v1/exchangerate/2026-01-31?sources=snb&base=CHF&symbols=JPY,EUR',
    );
    const rates = JSON.parse(response.body).rates;
    assertClose(rates.JPY.rate, 100 / jpy.value, 'JPY');
    assertClose(rates.EUR.rate, 1 / eurEnd.value, 'EUR');
    assert.equal(rates.JPY.observation_time, '2026-01-30T10:00:00.000Z');
    // July is summer time: 11:00 Zurich is 09:00Z on Friday the 31st.
    const july = await service.app.inject(
      '/v1/exchangerate/2026-07-31?sources=snb&symbols=USD&base=CHF',
    );
    assert.equal(JSON.parse(july.body).rates.USD.observation_time, '2026-07-31T09:00:00.000Z');
  });

  test('ecb: the longer recording, cut short by its recorder, keeps every complete row', async () => {
    const report = await ingest('ecb', { from: '2025-01-01', to: '2026-03-18' });
    assert.equal(report.error, null);
    // 8,067 rate rows; the closing ",,," line is dropped and counted. Rows for dates the first
    // recording also holds are the same figures, so only the rest is new.
    assert.equal(report.dropped, 1);
    const count = await readRows(
      service.store,
      "SELECT count(*) FROM observations WHERE source = 'ecb' AND observation_time < '2026-02-17'",
    );
    assert.equal(Number(count[0]![0]), 8067 - recordedSince('2026-02-17'));
    // D,JPY,2025-07-01,169.71 -- in summer 16:00 Berlin is 14:00Z.
    const summer = await service.app.inject(
      '/v1/exchangerate/2025-07-01?sources=ecb&base=EUR&symbols=JPY',
    );
    const jpy = JSON.parse(summer.body).rates.JPY;
    assert.equal(jpy.observation_time, '2025-07-01T14:00:00.000Z');
    assert.equal(jpy.rate, recordedValue('D,JPY,2025-07-01,'));

    function recorded(): string[] {
      const target = '/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2025-01-01';
      return replay.recorded(target).body.toString().split('\n');
    }
    function recordedSince(date: string): number {
      return recorded().filter((line) => /^D,[A-Z]{3},/.test(line) && line.split(',')[2]! >= date)
        .length;
    }
    function recordedValue(prefix: string): number {
      return Number(
        recorded()
          .find((line) => line.startsWith(prefix))!
          .slice(prefix.length),
      );
    }
  });

  test('the currencies endpoint lists what each publisher published', async () => {
    const response = await service.app.inject('/v1/exchangerate/currencies?symbols=DZD,XDR,PGK');
    const symbols = JSON.parse(response.body).symbols;
    assert.deepEqual(symbols.DZD.sources, ['imf', 'nbu', 'cbr', 'float_rates', 'nbp']);
    assert.ok(symbols.XDR.sources.includes('imf'));
    assert.ok(symbols.XDR.sources.includes('rba'));
    assert.deepEqual(symbols.PGK.sources, ['rba', 'float_rates', 'nbp']);
  });
});
