import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, test } from 'node:test';
import { shiftDecimal } from '../src/exact-decimal.js';
import { plannedWindow } from '../src/ingest/ingest-source.js';
import { nextPollAfter } from '../src/ingest/schedule.js';
import { bcbUrl } from '../src/sources/bcb.js';
import { decodeBody, SourceHttp } from '../src/sources/http-client.js';
import { ObservationBuilder } from '../src/sources/observation-builder.js';
import { monthEnds, windowChunks, yearChunks } from '../src/sources/publisher-fetch.js';
import {
  midpoint,
  perTroyOunce,
  pricePerUnit,
  readDecimal,
} from '../src/sources/publisher-text.js';
import { findSource, type SourceEntry } from '../src/sources/registry.js';
import { skipWithoutFixtures } from './support/harness.js';
import { RECORDED, ReplayServer, readCassette } from './support/replay-server.js';

const source = (key: string): SourceEntry => findSource(key)!;

describe('publisher numbers, exactly', () => {
  test('readDecimal gives plain decimal text: decimal commas, thousands separators, JSON numbers', () => {
    assert.equal(readDecimal('53,8359', true), '53.8359');
    assert.equal(readDecimal(' 1 234,5 ', true), '1234.5');
    assert.equal(readDecimal('1,300.500000'), '1300.5');
    assert.equal(readDecimal(1e-7), '0.0000001');
    assert.equal(readDecimal(0.00855), '0.00855');
    // Not a number: given back as printed, for the observation builder to report.
    assert.equal(readDecimal('NaN'), 'NaN');
    assert.equal(readDecimal('n/a', true), 'n/a');
    assert.equal(readDecimal(undefined), 'undefined');
  });

  test('per-N prices, midpoints and grams to troy ounces are exact decimal text', () => {
    assert.equal(pricePerUnit('59.2589', '100'), '0.592589');
    assert.equal(pricePerUnit('1.253', '1000'), '0.001253');
    assert.equal(pricePerUnit('3.1415', '1000000'), '0.0000031415');
    assert.equal(pricePerUnit('4.2', '0.1'), '42');
    assert.equal(pricePerUnit('1', '3'), '0.3333333333333333333333333333333333333333');
    assert.equal(midpoint('5.4321', '5.4327'), '5.4324');
    assert.equal(midpoint('5.1', 'n/a'), '5.1/n/a');
    assert.equal(perTroyOunce('12957.47'), '403022.367531696');
  });

  test('the builder stores a direct quote as the double of its text, and inverts a price once', () => {
    const builder = new ObservationBuilder({
      key: 'cbr',
      relativeCurrency: 'RUB',
      timeZone: 'Europe/Moscow',
      fixingTime: '15:30',
    });
    assert.ok(builder.add('2026-03-03', 'DZD', shiftDecimal('59.2589', -2)));
    assert.ok(builder.addPrice('2026-03-03', 'XAF', '59.2589', '100'));
    assert.equal(builder.addPrice('2026-03-03', 'USD', '80', '0'), false);
    assert.equal(builder.add('2026-03-03', 'EUR', '1e-400'), false);
    const [direct, inverted] = builder.result().observations;
    // A per-100 figure made a direct quote by moving the point: its double prints as the figure.
    assert.equal(String(direct!.rate), '0.592589');
    // Nominal 100, Value 59,2589: exactly the double of 1 / 0.592589.
    assert.equal(inverted!.rate, 1 / 0.592589);
    assert.deepEqual(builder.result().dropReasons, [
      'USD on 2026-03-03: price 80 per 0 is not a positive number',
      'EUR on 2026-03-03: 0 is out of range',
    ]);
  });
});

describe('fetching', () => {
  test('the origin override replaces scheme, host and port and keeps path and query byte for byte', () => {
    const http = new SourceHttp('bcb', undefined, 'http://127.0.0.1:9000');
    const url = bcbUrl('EUR', { from: '2024-01-02', to: '2024-01-05' });
    assert.equal(
      http.target(url),
      `http://127.0.0.1:9000${url.slice('https://olinda.bcb.gov.br'.length)}`,
    );
    assert.equal(new SourceHttp('ecb').target(url), url);
  });

  test(
    'a POST sends its body; the replay answers the recorded request with that body',
    {
      skip: skipWithoutFixtures(RECORDED),
    },
    async () => {
      // The Hungarian central bank's SOAP service, as recorded: one envelope, one answer.
      const [recorded] = readCassette('mnb.yml');
      const replay = await ReplayServer.start(['mnb.yml']);
      try {
        const policy = { timeoutMs: 5000, retries: 0, backoffMs: 0, politenessMs: 0 };
        const http = new SourceHttp('mnb', policy, replay.origin);
        const url = 'http://www.mnb.hu/arfolyamok.asmx';
        const headers = { 'content-type': 'text/xml; charset=utf-8' };
        // The envelope as a service would write it: same markup, its own line breaks and indents.
        const envelope = recorded!.requestBody.replace(/>\s+</g, '><');
        const answer = await http.requestText(url, { body: envelope, headers });
        assert.equal(answer.text, recorded!.response.body.toString('utf8'));
        const otherDates = envelope.replace('2025-03-24', '2025-03-17');
        await assert.rejects(http.requestText(url, { body: otherDates, headers }), /HTTP 404/);
        await assert.rejects(http.requestText(url), /HTTP 404/);
      } finally {
        await replay.close();
      }
    },
  );

  test(
    'a publisher that never answers: the request ends at its time limit even while garbage is collected, or at once on shutdown',
    { timeout: 30_000 },
    async () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const replay = await ReplayServer.start([]);
      replay.intercept = () => 'hang';
      const collecting = setInterval(gc, 10);
      try {
        // As in a service: requests follow the signal that shuts the service down.
        const shutdown = new AbortController();
        const policy = { timeoutMs: 300, retries: 0, backoffMs: 0, politenessMs: 0 };
        const started = Date.now();
        await assert.rejects(
          new SourceHttp('ecb', policy, replay.origin, shutdown.signal).requestText(
            'https://example.org/a',
          ),
          /\/a: no complete response within the time limit$/,
        );
        assert.ok(Date.now() - started < 5_000, `ended after ${Date.now() - started} ms`);

        const waiting = new SourceHttp(
          'ecb',
          { ...policy, timeoutMs: 60_000 },
          replay.origin,
          shutdown.signal,
        ).requestText('https://example.org/b');
        setTimeout(() => shutdown.abort(), 50);
        await assert.rejects(waiting, /aborted/);
        assert.ok(Date.now() - started < 10_000);
      } finally {
        clearInterval(collecting);
        await replay.close();
      }
    },
  );

  test('bodies: charset from Content-Type or the source default; wrong or invalid ones refused', () => {
    const utf8 = new TextEncoder().encode('Долар');
    assert.equal(decodeBody('u', utf8, 'application/json; charset=UTF-8'), 'Долар');
    assert.equal(decodeBody('u', utf8, 'application/json'), 'Долар');
    assert.throws(
      () => decodeBody('u', utf8, 'text/csv; charset=iso-8859-1'),
      /charset iso-8859-1, expected utf-8/,
    );
    assert.throws(() => decodeBody('u', new Uint8Array([0xc4, 0xee]), null), /not valid utf-8/);
    assert.throws(() => decodeBody('u', new Uint8Array(0), null), /empty response body/);
    // A UTF-8 byte-order mark (the RBA sends one) is not part of the text.
    assert.equal(decodeBody('u', new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), null), 'A');
  });

  test('windows split into yearly, fixed-size and monthly requests', () => {
    assert.deepEqual(yearChunks({ from: '2023-12-30', to: '2025-01-02' }), [
      { from: '2023-12-30', to: '2023-12-31' },
      { from: '2024-01-01', to: '2024-12-31' },
      { from: '2025-01-01', to: '2025-01-02' },
    ]);
    assert.deepEqual(windowChunks({ from: '2024-01-01', to: '2024-04-05' }, 93), [
      { from: '2024-01-01', to: '2024-04-02' },
      { from: '2024-04-03', to: '2024-04-05' },
    ]);
    assert.deepEqual(monthEnds({ from: '2023-12-15', to: '2024-02-01' }), [
      '2023-12-31',
      '2024-01-31',
      '2024-02-29',
    ]);
  });
});

describe('scheduling', () => {
  const ecb = source('ecb');

  test('polls every half hour across the publication window, weekdays only for a weekday publisher', () => {
    // ECB window 14:00-16:30 UTC on weekdays.
    assert.equal(
      nextPollAfter(new Date('2024-01-02T09:00:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-02T14:00:00.000Z',
    );
    assert.equal(
      nextPollAfter(new Date('2024-01-02T14:00:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-02T14:30:00.000Z',
    );
    assert.equal(
      nextPollAfter(new Date('2024-01-02T16:31:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-03T14:00:00.000Z',
    );
    // Friday evening: next Monday.
    assert.equal(
      nextPollAfter(new Date('2024-01-05T17:00:00Z'), ecb.publishWindowUtc).toISOString(),
      '2024-01-08T14:00:00.000Z',
    );
    // The NBU publishes every day.
    assert.equal(
      nextPollAfter(new Date('2024-01-06T13:00:00Z'), source('nbu').publishWindowUtc).toISOString(),
      '2024-01-07T10:00:00.000Z',
    );
  });

  test('a first run backfills; later runs continue from the last stored date, or from a gap a failure left', () => {
    const today = '2026-03-19';
    assert.deepEqual(plannedWindow(ecb, undefined, null, { today }), {
      window: { from: '1999-01-04', to: today },
      continuous: true,
    });
    const done = {
      source: 'ecb',
      lastAttempt: null,
      lastSuccess: null,
      lastError: null,
      completeThrough: '2026-03-18',
      lastRunStored: 0,
      lastRunDropped: 0,
    };
    assert.deepEqual(plannedWindow(ecb, done, '2026-03-17', { today }).window, {
      from: '2026-03-17',
      to: today,
    });
    // Stored data runs ahead of the last complete run (it failed midway): resume at the gap.
    assert.deepEqual(plannedWindow(ecb, done, '2026-03-19', { today }).window, {
      from: '2026-03-18',
      to: today,
    });
    // Explicit dates win; a window that starts later than the resume point leaves a gap.
    assert.deepEqual(
      plannedWindow(ecb, done, '2026-03-17', { today, from: '2026-03-18', to: '2026-03-18' }),
      {
        window: { from: '2026-03-18', to: '2026-03-18' },
        continuous: false,
      },
    );
    // Nothing is published before the history starts: an earlier --from begins there.
    assert.deepEqual(plannedWindow(ecb, done, null, { today, from: '1990-01-01' }), {
      window: { from: '1999-01-04', to: today },
      continuous: true,
    });
    // Progress recorded before the history starts (an import of older rows): the run from the
    // start leaves no gap, so its progress is recorded and the next run starts later.
    const imported = { ...done, completeThrough: '1990-01-02' };
    assert.deepEqual(plannedWindow(ecb, imported, '1990-01-02', { today }), {
      window: { from: '1999-01-04', to: today },
      continuous: true,
    });
  });
});
