import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { IngestOptions } from '../src/ingest/ingest-source.js';
import { ingestSource } from '../src/ingest/ingest-source.js';
import { findSource } from '../src/sources/registry.js';
import {
  observation,
  skipWithoutFixtures,
  startService,
  type TestService,
} from './support/harness.js';
import { RECORDED, ReplayServer, type RecordedResponse } from './support/replay-server.js';

const skip = skipWithoutFixtures(RECORDED);

const ECB_TARGET = '/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2026-02-17';
const ECB_WINDOW = { from: '2026-02-17', to: '2026-03-18' };
const BOE_WINDOW = { from: '2026-03-17', to: '2026-03-20' };

describe('a failing publisher', { skip }, () => {
  let replay: ReplayServer;
  let service: TestService;
  const ingest = (key: string, options: Partial<IngestOptions>) =>
    ingestSource(service.store, findSource(key)!, {
      env: replay.env(['ecb', 'boe', 'nbu', 'bnro']),
      http: { politenessMs: 0, retries: 1, backoffMs: 10, timeoutMs: 400 },
      ...options,
    });
  const status = async (key: string) =>
    JSON.parse((await service.app.inject('/v1/exchangerate/status')).body).sources.find(
      (row: any) => row.source === key,
    );

  before(async () => {
    replay = await ReplayServer.start();
  });
  beforeEach(async () => {
    await service?.close();
    service = await startService({ today: () => '2026-11-22', ingesting: true });
    replay.intercept = undefined;
  });
  after(async () => {
    await service?.close();
    await replay?.close();
  });

  const recordedEcb = (): RecordedResponse => replay.recorded(ECB_TARGET);
  const faults: [string, () => RecordedResponse | 'hang', RegExp][] = [
    [
      'HTTP 500',
      () => ({ status: 500, headers: {}, body: Buffer.from('oops') }),
      /HTTP 500 Internal Server Error \(after 2 attempts\)/,
    ],
    ['a timeout', () => 'hang', /no complete response within the time limit/],
    [
      'an empty body',
      () => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: Buffer.alloc(0) }),
      /empty response body/,
    ],
    [
      'a truncated body',
      () => ({ ...recordedEcb(), body: recordedEcb().body.subarray(0, 5000) }),
      /cut short/,
    ],
    [
      'HTML instead of data',
      () => ({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: Buffer.from('<!DOCTYPE html>\n<html><body>Maintenance</body></html>'),
      }),
      /HTML page instead of data/,
    ],
    [
      'a body in an unexpected charset',
      () => ({
        status: 200,
        headers: { 'content-type': 'text/csv; charset=utf-16le' },
        body: Buffer.from(recordedEcb().body.toString('utf8'), 'utf16le'),
      }),
      /charset utf-16le, expected utf-8/,
    ],
  ];

  for (const [fault, response, message] of faults) {
    test(`${fault}: the status shows the error, nothing is stored, others ingest, a later good answer is picked up`, async () => {
      replay.intercept = (target) => (target === ECB_TARGET ? response() : undefined);
      const [ecb, boe] = await Promise.all([ingest('ecb', ECB_WINDOW), ingest('boe', BOE_WINDOW)]);
      assert.match(ecb.error ?? '', message);
      assert.equal(ecb.stored, 0);
      assert.equal(boe.error, null);
      assert.equal(boe.stored, 104);
      const failing = await status('ecb');
      assert.equal(failing.state, 'failing');
      assert.match(failing.last_error, message);
      assert.match(failing.last_error, /startPeriod=2026-02-17/);
      assert.equal(failing.observations, 0);
      assert.equal(failing.last_success, null);
      assert.equal((await status('boe')).state, 'ok');
      assert.equal((await service.store.catalog()).get('ecb')!.observations, 0);

      replay.intercept = undefined;
      const recovered = await ingest('ecb', ECB_WINDOW);
      assert.equal(recovered.error, null);
      assert.equal(recovered.stored, 638);
      const ok = await status('ecb');
      assert.equal(ok.state, 'ok');
      assert.equal(ok.last_error, null);
      assert.equal(ok.observations, 638);
      assert.ok(ok.last_success >= ok.last_attempt);
    });
  }

  test('a run under way in another replica: status says running, answers are cached a minute', async () => {
    // Rates held from before (an import), and a first run of the ECB that this service does not
    // run itself: as a replica waiting for the ingest lease sees one.
    await service.store.writeObservations([
      observation('ecb', 'USD', '2026-02-18T15:00:00Z', 1.1826),
    ]);
    const url = '/v1/exchangerate/2026-02-18?sources=ecb&base=EUR';
    replay.delayMs = 300;
    try {
      const run = ingest('ecb', ECB_WINDOW);
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal((await status('ecb')).state, 'running');
      const during = await service.app.inject(url);
      assert.equal(during.headers['cache-control'], 'public, max-age=60');
      assert.equal((await run).error, null);
    } finally {
      replay.delayMs = 0;
    }
    assert.equal((await status('ecb')).state, 'ok');
  });

  test('a run stopped by a shutdown leaves the status as it was', async () => {
    replay.intercept = (target) =>
      target === ECB_TARGET ? { status: 500, headers: {}, body: Buffer.from('oops') } : undefined;
    await ingest('ecb', ECB_WINDOW);
    replay.intercept = undefined;
    const failed = await status('ecb');
    assert.equal(failed.state, 'failing');
    replay.delayMs = 300;
    try {
      const stop = new AbortController();
      const run = ingest('ecb', { ...ECB_WINDOW, signal: stop.signal });
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal((await status('ecb')).last_attempt > failed.last_attempt, true);
      stop.abort();
      await run;
    } finally {
      replay.delayMs = 0;
    }
    const after = await status('ecb');
    assert.equal(after.state, 'failing');
    assert.equal(after.last_error, failed.last_error);
    assert.equal(after.last_attempt, failed.last_attempt);
  });

  test('429 and 503 are retried with backoff, then the answer is used', async () => {
    let calls = 0;
    replay.intercept = (target): RecordedResponse | undefined => {
      if (target !== ECB_TARGET) return undefined;
      calls++;
      if (calls === 1)
        return { status: 429, headers: { 'retry-after': '0' }, body: Buffer.alloc(0) };
      if (calls === 2) return { status: 503, headers: {}, body: Buffer.alloc(0) };
      return undefined;
    };
    const report = await ingest('ecb', {
      ...ECB_WINDOW,
      http: { politenessMs: 0, retries: 3, backoffMs: 10, timeoutMs: 2000 },
    });
    assert.equal(report.error, null);
    assert.equal(calls, 3);
    assert.equal(report.stored, 638);
  });

  test('404 is not retried', async () => {
    let calls = 0;
    replay.intercept = (target) => {
      calls++;
      return target === ECB_TARGET
        ? { status: 404, headers: {}, body: Buffer.from('gone') }
        : undefined;
    };
    const report = await ingest('ecb', ECB_WINDOW);
    assert.match(report.error ?? '', /HTTP 404/);
    assert.equal(calls, 1);
  });

  test('garbled JSON and XML bodies store nothing of the response', async () => {
    const nbuTarget = replay.requests.length; // requests made from here on
    replay.intercept = (target) => {
      if (target.startsWith('/NBU_Exchange/')) {
        const recorded = replay.recorded(target);
        return { ...recorded, body: recorded.body.subarray(0, recorded.body.length - 40) };
      }
      if (target.includes('nbrfxrates2026')) {
        const recorded = replay.recorded(target);
        return { ...recorded, body: recorded.body.subarray(0, 100_000) };
      }
      return undefined;
    };
    const nbu = await ingest('nbu', { from: '2026-03-01', to: '2026-03-16' });
    const bnro = await ingest('bnro', { from: '2026-01-01', to: '2026-08-19' });
    assert.match(nbu.error ?? '', /not valid JSON \(cut short\?\)/);
    assert.match(bnro.error ?? '', /ends before <\/DataSet> \(cut short\?\)/);
    assert.equal(nbu.stored + bnro.stored, 0);
    assert.ok(replay.requests.length > nbuTarget);
    const catalog = await service.store.catalog();
    assert.equal(catalog.get('nbu')!.observations + catalog.get('bnro')!.observations, 0);
  });

  test('re-ingesting the same response changes nothing; an incremental run asks only for what is new', async () => {
    // Any start date gets the recorded answer, as if the publisher had nothing older.
    replay.intercept = (target) =>
      target.startsWith('/service/data/EXR/') ? recordedEcb() : undefined;
    const first = await ingest('ecb', { now: () => new Date('2026-03-18T20:00:00Z') });
    assert.equal(first.error, null);
    assert.deepEqual(first.window, { from: '1999-01-04', to: '2026-03-18' });
    assert.equal(first.stored, 638);
    const version = service.store.dataVersion();
    const etag = (await service.app.inject('/v1/exchangerate/2026-03-18?sources=ecb')).headers.etag;

    const requestsBefore = replay.requests.length;
    const second = await ingest('ecb', { now: () => new Date('2026-03-19T20:00:00Z') });
    assert.equal(second.error, null);
    assert.equal(second.stored, 0);
    // It starts from the last stored observation, not from 1999.
    assert.deepEqual(second.window, { from: '2026-03-18', to: '2026-03-19' });
    assert.deepEqual(replay.requests.slice(requestsBefore), [
      '/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2026-03-18',
    ]);
    assert.equal(service.store.dataVersion(), version);
    const again = await service.app.inject('/v1/exchangerate/2026-03-18?sources=ecb');
    assert.equal(again.headers.etag, etag);
    assert.equal((await service.store.catalog()).get('ecb')!.observations, 638);
  });

  test('a run that fails midway is resumed from where the last complete run ended', async () => {
    const now = () => new Date('2026-03-05T20:00:00Z');
    // A first complete run up to 2026-03-04 ...
    replay.intercept = (target) =>
      target.startsWith('/scripts/XML_dynamic.asp') || target.startsWith('/scripts/xml_metall.asp')
        ? replay.recorded(
            target.replace(
              /date_req1=[^&]*&date_req2=[^&]*/,
              'date_req1=01/03/2026&date_req2=05/03/2026',
            ),
          )
        : undefined;
    await service.store.saveIngestState({
      source: 'cbr',
      lastAttempt: null,
      lastSuccess: null,
      lastError: null,
      completeThrough: '2026-03-01',
      lastRunStored: 0,
      lastRunDropped: 0,
    });
    // ... then a run that fails after some currencies were stored.
    let dynamicCalls = 0;
    const base = replay.intercept;
    replay.intercept = (target, request) => {
      if (target.startsWith('/scripts/XML_dynamic.asp') && ++dynamicCalls > 10) {
        return { status: 400, headers: {}, body: Buffer.from('bad request') };
      }
      return base(target, request);
    };
    const failed = await ingestSource(service.store, findSource('cbr')!, {
      env: replay.env(['cbr']),
      http: { politenessMs: 0, retries: 0 },
      now,
    });
    assert.match(failed.error ?? '', /HTTP 400/);
    assert.ok(failed.stored > 0);
    const state = (await service.store.ingestStates()).get('cbr')!;
    assert.equal(state.completeThrough, '2026-03-01');
    // The stored currencies reach 2026-04-25 (the daily file), yet the next run starts where
    // the last complete one ended, so the currencies that failed are fetched again.
    replay.intercept = base;
    const requestsBefore = replay.requests.length;
    const resumed = await ingestSource(service.store, findSource('cbr')!, {
      env: replay.env(['cbr']),
      http: { politenessMs: 0, retries: 0 },
      now,
    });
    assert.equal(resumed.error, null);
    assert.deepEqual(resumed.window, { from: '2026-03-01', to: '2026-03-05' });
    assert.equal(replay.requests.length - requestsBefore, 56);
    assert.equal((await service.store.catalog()).get('cbr')!.observations, 228);
  });

  test('a backfill walking month by month keeps the months it finished when a later one fails', async () => {
    const march = '/external/np/fin/data/rms_mth.aspx?SelectDate=2026-03-31&reportType=';
    // January and February answer with the March report (any report parses); March fails.
    replay.intercept = (target) => {
      if (!target.startsWith('/external/np/fin/data/rms_mth.aspx')) return undefined;
      if (target.startsWith(march)) return { status: 400, headers: {}, body: Buffer.from('bad') };
      return replay.recorded(`${march}${target.includes('REP') ? 'REP' : 'SDRCV'}&tsvflag=Y`);
    };
    await service.store.saveIngestState({
      source: 'imf',
      lastAttempt: null,
      lastSuccess: null,
      lastError: null,
      completeThrough: '2026-01-15',
      lastRunStored: 0,
      lastRunDropped: 0,
    });
    const report = await ingestSource(service.store, findSource('imf')!, {
      env: replay.env(['imf']),
      http: { politenessMs: 0, retries: 0 },
      now: () => new Date('2026-03-31T22:00:00Z'),
    });
    assert.deepEqual(report.window, { from: '2026-01-15', to: '2026-03-31' });
    assert.match(report.error ?? '', /SelectDate=2026-03-31&reportType=REP.*HTTP 400/);
    assert.equal(report.requests, 4);
    const state = (await service.store.ingestStates()).get('imf')!;
    assert.equal(state.completeThrough, '2026-02-28');
    assert.equal((await status('imf')).complete_through, '2026-02-28');
  });

  test('a window that ends before the history starts requests nothing and records nothing', async () => {
    const requested = replay.requests.length;
    const report = await ingest('ecb', { from: '1990-01-01', to: '1998-12-31' });
    assert.equal(report.error, null);
    assert.equal(report.requests, 0);
    assert.equal(report.window, null);
    assert.equal(
      report.nothingToFetch,
      'nothing to fetch: ecb publishes from 1999-01-04, and the dates asked end 1998-12-31',
    );
    assert.equal(replay.requests.length, requested);
    // Not a success: no attempt, no progress through 1998, the source still waits for its first run.
    const row = await status('ecb');
    assert.equal(row.state, 'pending');
    assert.equal(row.last_success, null);
    assert.equal(row.complete_through, null);
  });
});
