import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IngestScheduler } from '../src/ingest/scheduler.js';
import { startService, type TestService } from './support/harness.js';
import { ReplayServer } from './support/replay-server.js';

describe('the ingest scheduler with many publishers', () => {
  let service: TestService;
  let replay: ReplayServer;
  before(async () => {
    service = await startService();
    replay = await ReplayServer.start([]);
    // Every publisher hangs until its request times out: each run takes a while.
    replay.intercept = () => 'hang';
  });
  after(async () => {
    await replay?.close();
    await service?.close();
  });

  test('a first start runs at most N publishers at once, and every one gets its turn', async () => {
    const keys = ['ecb', 'boe', 'cnb', 'nbp', 'bnro', 'boc'];
    const scheduler = new IngestScheduler(service.store, {
      env: replay.env(keys),
      http: { timeoutMs: 300, retries: 0, politenessMs: 0 },
      sources: keys,
      maxConcurrentRuns: 2,
      logger: { info: () => undefined, warn: () => undefined },
    });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, scheduler.runningSources().size)), 10);
    scheduler.start();
    const deadline = Date.now() + 15_000;
    // Until every run has recorded its outcome (a run records its start too).
    const outcomes = async () =>
      [...(await service.store.ingestStates()).values()].filter((state) => state.lastError).length;
    while ((await outcomes()) < keys.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    clearInterval(watch);
    await scheduler.stop();
    assert.equal(most, 2, 'two runs at once, never more');
    const states = await service.store.ingestStates();
    assert.deepEqual([...states.keys()].sort(), [...keys].sort());
    for (const state of states.values())
      assert.match(state.lastError ?? '', /no complete response within the time limit/);
  });
});
