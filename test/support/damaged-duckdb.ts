import { readFileSync, writeFileSync } from 'node:fs';
import { openServiceStore } from '../../src/service-store.js';
import { observation } from './harness.js';

const SYMBOLS = ['USD', 'JPY', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF'];
/** DuckDB's file header, then its blocks of 256 KiB. */
const HEADER_BYTES = 12_288;
const BLOCK_BYTES = 262_144;

/**
 * A DuckDB file of 20,000 days (2000-01-03 to 2054-10-05) of ten ECB rates against the euro,
 * with an ingest state, written in `writes` equal sessions, whose data block `block` is then
 * overwritten: its checksum no longer matches, and the engine fails on reaching it.
 *
 * Written at once with block 1 damaged, a full read returns the rows before that block, then
 * fails (the service's catalog statement fails too). Written in two sessions with block 4
 * damaged, the catalog and the dates from 2030 on read cleanly, and a range over 2000–2020 fails.
 */
export async function damagedDuckDB(
  path: string,
  { writes, block }: { writes: number; block: number },
): Promise<void> {
  const rows = Array.from({ length: 200_000 }, (_, index) =>
    observation(
      'ecb',
      SYMBOLS[index % 10]!,
      new Date(Date.UTC(2000, 0, 3, 15) + Math.floor(index / 10) * 86_400_000).toISOString(),
      1 + index / 1e6,
    ),
  );
  const each = Math.ceil(rows.length / writes);
  for (let start = 0; start < rows.length; start += each) {
    const store = await openServiceStore(path);
    try {
      await store.writeObservations(rows.slice(start, start + each));
      if (start + each >= rows.length) {
        await store.saveIngestState({
          source: 'ecb',
          lastAttempt: new Date('2024-06-01T16:00:00Z'),
          lastSuccess: new Date('2024-06-01T16:00:00Z'),
          lastError: null,
          completeThrough: '2024-06-01',
          lastRunStored: rows.length,
          lastRunDropped: 0,
        });
      }
    } finally {
      await store.close();
    }
  }
  const bytes = readFileSync(path);
  const at = HEADER_BYTES + block * BLOCK_BYTES;
  bytes.fill(0xab, at, at + 512);
  writeFileSync(path, bytes);
}
