import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ingestSource } from '../src/ingest/ingest-source.js';
import { findSource } from '../src/sources/registry.js';
import { skipWithoutFixtures, startService, type TestService } from './support/harness.js';
import { RECORDED, ReplayServer } from './support/replay-server.js';

// Each publisher's own recording is tested in test/sources/<key>.test.ts; this file holds what
// only shows with several publishers in one database.
const skip = skipWithoutFixtures(RECORDED);

/** Publishers and the dates their recordings cover. */
const RUNS: [string, string, string][] = [
  ['imf', '2026-03-01', '2026-03-31'],
  ['rba', '2023-01-03', '2026-03-20'],
  ['nbu', '2026-03-01', '2026-03-16'],
  ['cbr', '2026-03-01', '2026-03-05'],
  ['float_rates', '2024-05-31', '2024-05-31'],
  ['nbp', '2026-03-01', '2026-03-05'],
];

describe('several publishers ingested side by side', { skip }, () => {
  let replay: ReplayServer;
  let service: TestService;

  before(async () => {
    replay = await ReplayServer.start();
    service = await startService({ today: () => '2026-11-22' });
    const env = replay.env(RUNS.map(([key]) => key));
    for (const [key, from, to] of RUNS) {
      const report = await ingestSource(service.store, findSource(key)!, {
        env,
        http: { politenessMs: 0, retries: 0, timeoutMs: 5000 },
        from,
        to,
      });
      assert.equal(report.error, null, key);
    }
  });
  after(async () => {
    await service?.close();
    await replay?.close();
  });

  test('the currencies endpoint lists what each publisher published, in priority order', async () => {
    const response = await service.app.inject(
      '/v1/exchangerate/currencies?symbols=DZD,XDR,PGK&sources=*',
    );
    const symbols = JSON.parse(response.body).symbols;
    // boa quotes against DZD, so it provides DZD although it was not ingested here.
    assert.deepEqual(symbols.DZD.sources, ['imf', 'nbu', 'cbr', 'float_rates', 'boa', 'nbp']);
    assert.ok(symbols.XDR.sources.includes('imf'));
    assert.ok(symbols.XDR.sources.includes('rba'));
    assert.deepEqual(symbols.PGK.sources, ['rba', 'float_rates', 'nbp']);
  });
});
