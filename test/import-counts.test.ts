import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { importFile } from '../src/import/import-file.js';
import { openServiceStore } from '../src/service-store.js';
import type { Store } from '../src/store/store.js';
import { forEachEngine, freshDatabase } from './support/harness.js';

const HEADER = 'source,symbol,observation_time,rate\n';

/** Both engines count an import's rows alike, and record what it carried forward the same way. */
forEachEngine((engine) => {
  let store: Store;
  let dispose: () => Promise<void>;
  let dir: string;
  before(async () => {
    const database = await freshDatabase(engine);
    dispose = database.dispose;
    store = await openServiceStore(database.location);
    dir = mkdtempSync(join(tmpdir(), 'fxrates-counts-'));
  });
  after(async () => {
    await store?.close();
    await dispose?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  test('new, changed and unchanged rows; the progress of a history from its first date', async () => {
    const first = await importFile(
      store,
      file(
        'first.csv',
        `${HEADER}ecb,USD,1999-01-04,1.1789\necb,JPY,1999-01-04,133.73\necb,USD,1999-01-05,1.179\n`,
      ),
    );
    assert.deepEqual([first.added, first.changed, first.unchanged, first.stored], [3, 0, 0, 3]);
    assert.deepEqual([...first.completeThrough], [['ecb', '1999-01-05']]);
    const second = await importFile(
      store,
      file(
        'second.csv',
        // One the same, one corrected, one new; the later of two rows for one key wins.
        `${HEADER}ecb,USD,1999-01-04,1.1789\necb,JPY,1999-01-04,133.7\necb,JPY,1999-01-04,133.74\necb,USD,1999-01-06,1.1743\n`,
      ),
    );
    assert.deepEqual([second.added, second.changed, second.unchanged, second.stored], [1, 1, 1, 2]);
    assert.equal((await store.ingestStates()).get('ecb')?.completeThrough, '1999-01-06');
    // A later file with a hole before it moves nothing.
    const later = await importFile(store, file('later.csv', `${HEADER}ecb,USD,2024-01-15,1.09\n`));
    assert.equal(later.added, 1);
    assert.equal(later.completeThrough.size, 0);
    assert.equal((await store.ingestStates()).get('ecb')?.completeThrough, '1999-01-06');
    // A file going on from the progress with a hole inside it moves it up to the hole only:
    // the next run fetches the missing dates.
    const holed = await importFile(
      store,
      file(
        'holed.csv',
        `${HEADER}ecb,USD,2024-01-16,1.09\necb,USD,1999-01-07,1.1632\necb,USD,1999-01-08,1.1659\necb,USD,2024-01-17,1.0882\n`,
      ),
    );
    assert.deepEqual([...holed.completeThrough], [['ecb', '1999-01-08']]);
    assert.equal((await store.ingestStates()).get('ecb')?.completeThrough, '1999-01-08');
  });

  test('month-end rates carry the progress through their months, up to a missing quarter', async () => {
    const monthEnds = [
      '2000-01-31',
      '2000-02-29',
      '2000-03-31',
      '2000-04-28',
      '2000-05-31',
      '2000-06-30',
      // July to September missing.
      '2000-10-31',
      '2000-11-30',
    ];
    const rows = monthEnds.map((date) => `snb,USD,${date}T09:00:00Z,0.6\n`).join('');
    const imported = await importFile(store, file('snb.csv', `${HEADER}${rows}`));
    assert.deepEqual([...imported.completeThrough], [['snb', '2000-06-30']]);
    // Two rows, far apart: the gap between them is a hole whatever the spacing.
    const sparse = await importFile(
      store,
      file('cnb.csv', `${HEADER}cnb,EUR,1991-01-02,35\ncnb,EUR,2025-06-02,24.7\n`),
    );
    assert.deepEqual([...sparse.completeThrough], [['cnb', '1991-01-02']]);
  });
});
