import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IngestReport } from '../../src/ingest/ingest-source.js';
import { bcchUrl, publisher as bcch, parseBcchJson } from '../../src/sources/bcch.js';
import { idleReason } from '../../src/sources/publisher.js';
import {
  assertIngested,
  assertSpots,
  observationRows,
  replayPublisher,
  skipWithoutRecordings,
  type PublisherReplay,
} from '../support/publisher-replay.js';

const RECORDINGS = ['bcch.yml'];
const WINDOW = { from: '2026-03-01', to: '2026-03-15' };

describe('bcch on its recorded responses', { skip: skipWithoutRecordings(RECORDINGS) }, () => {
  let run: PublisherReplay;
  let first: IngestReport;
  before(async () => {
    // The recording kept the credentials' placeholders as they are, <BCCH_USER> and <BCCH_PASS>;
    // a request sends them percent-encoded, as any user name with such characters would be.
    run = await replayPublisher('bcch', {
      recordings: RECORDINGS,
      ...WINDOW,
      env: { BCCH_USER: '<BCCH_USER>', BCCH_PASS: '<BCCH_PASS>' },
    });
    first = run.report;
    run.replay.intercept = (target) => {
      try {
        return run.replay.recorded(decodeURIComponent(target));
      } catch {
        return undefined;
      }
    };
    run = { ...run, report: await run.ingest(WINDOW) };
  });
  after(() => run?.close());

  test('credentials are sent percent-encoded in the query', () => {
    assert.match(first.error ?? '', /pass=%3CBCCH_PASS%3E.*HTTP 404/);
    assert.ok(run.replay.requests.at(-1)?.includes('user=%3CBCCH_USER%3E'));
  });

  test('every recorded rate stored; published figures come back through the API', async () => {
    // 8 series x 10 business days; weekends are "ND" (no figure), not rates
    await assertIngested(run, { stored: 80, symbols: 8 });
    assert.equal(run.report.requests, 8);
    await assertSpots(run, [
      // F073.TCO.PRE.Z.D 02-03-2026 871.41; 00:00 in Santiago in summer (UTC-3) is 03:00Z
      {
        date: '2026-03-02',
        base: 'USD',
        symbol: 'CLP',
        rate: '871.41',
        decimals: 10,
        observationTime: '2026-03-02T03:00:00.000Z',
      },
      // F072.CLP.JPY.N.O.D 04-03-2026 5.74 CLP per yen
      {
        date: '2026-03-04',
        base: 'JPY',
        symbol: 'CLP',
        rate: '5.74',
        decimals: 12,
        observationTime: '2026-03-04T03:00:00.000Z',
      },
      // 02-03-2026 EUR 1029.91 and USD 871.41: 1029.91 / 871.41 USD per EUR
      {
        date: '2026-03-02',
        base: 'EUR',
        symbol: 'USD',
        rate: '1.1818891222',
        decimals: 10,
        observationTime: '2026-03-02T03:00:00.000Z',
      },
    ]);
  });
});

describe('bcch parser on inline samples', () => {
  const body = (obs: object[], codigo = 0, seriesId = 'F072.CLP.EUR.N.O.D') =>
    JSON.stringify({
      Codigo: codigo,
      Descripcion: codigo === 0 ? 'Success' : 'Invalid username or password',
      Series: { seriesId, Obs: obs },
      SeriesInfos: [],
    });

  test('without both credentials the publisher is idle, and says what to set', () => {
    assert.match(idleReason(bcch, { BCCH_USER: 'me' }) ?? '', /set BCCH_PASS to/);
    assert.equal(idleReason(bcch, { BCCH_USER: 'me', BCCH_PASS: 'secret' }), undefined);
    assert.ok(
      bcchUrl(
        'F073.TCO.PRE.Z.D',
        { from: '2024-01-01', to: '2024-12-31' },
        { user: 'u', pass: 'p' },
      ).endsWith(
        '?firstdate=2024-01-01&function=GetSeries&lastdate=2024-12-31&pass=p&timeseries=F073.TCO.PRE.Z.D&user=u',
      ),
    );
  });

  test('CLP per unit on dd-mm-yyyy dates; ND is no figure; winter time is UTC-4', () => {
    const extraction = parseBcchJson(
      body([
        { indexDateString: '01-07-2024', value: '1012.5', statusCode: 'OK' },
        { indexDateString: '06-07-2024', value: 'NaN', statusCode: 'ND' },
        { indexDateString: '08-07-2024', value: '', statusCode: 'OK' },
      ]),
      'F072.CLP.EUR.N.O.D',
      bcch,
    );
    assert.deepEqual(observationRows(extraction), [
      ['EUR', '2024-07-01T04:00:00.000Z', 1 / 1012.5],
    ]);
    assert.equal(extraction.dropped, 1);
  });

  test('an error code, another series or a cut-short body fails', () => {
    assert.throws(
      () => parseBcchJson(body([], -5), 'F072.CLP.EUR.N.O.D', bcch),
      /-5: Invalid username/,
    );
    assert.throws(() => parseBcchJson(body([]), 'F072.CLP.GBP.N.O.D', bcch), /Obs\[\] of F072/);
    assert.throws(
      () => parseBcchJson(body([]).slice(0, -3), 'F072.CLP.EUR.N.O.D', bcch),
      /cut short/,
    );
  });
});
