import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from './support/harness.js';
import type { AppOptions } from '../src/app.js';

/** The status rows of a service built with `options`, by source. */
async function statusRows(
  services: TestService[],
  options: Partial<AppOptions>,
): Promise<Map<string, any>> {
  const service = await startService({ ingestEnv: {}, ...options });
  services.push(service);
  const response = await service.app.inject('/v1/exchangerate/status');
  assert.equal(response.statusCode, 200);
  const body = JSON.parse(response.body);
  return new Map(body.sources.map((row: any) => [row.source, row]));
}

describe('the status of a source nobody has run yet', () => {
  const services: TestService[] = [];
  after(() => Promise.all(services.map((service) => service.close())));

  test('is pending while the ingesting process will run it', async () => {
    const rows = await statusRows(services, { ingesting: true });
    assert.equal(rows.get('ecb').state, 'pending');
    assert.equal(rows.get('ecb').last_error, null);
    // A missing API key still says what to set.
    assert.equal(rows.get('fred').state, 'idle');
    assert.match(rows.get('fred').last_error, /set FRED_API_KEY/);
  });

  test('is idle, and says why, when the ingesting process leaves it out', async () => {
    const rows = await statusRows(services, { ingesting: true, ingestSources: ['ecb'] });
    assert.equal(rows.get('ecb').state, 'pending');
    assert.equal(rows.get('boe').state, 'idle');
    assert.equal(
      rows.get('boe').last_error,
      'idle: not among FXRATES_INGEST_SOURCES of the ingesting process',
    );
  });

  test('is idle, and says why, when nothing ingests the database', async () => {
    const rows = await statusRows(services, { ingesting: false });
    for (const key of ['ecb', 'boe']) {
      assert.equal(rows.get(key).state, 'idle', key);
      assert.equal(
        rows.get(key).last_error,
        'idle: no process ingests this database now (this one runs with --no-ingest)',
      );
      assert.equal(rows.get(key).next_attempt, null);
    }
  });
});
