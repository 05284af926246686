/**
 * Import benchmark: a generated observations CSV of about 100 MB imported by `fxrates import`
 * as it is, gzip-compressed and in a zip archive, each into a fresh DuckDB file, with the peak
 * resident memory of the importing process (flat: the file is streamed, whatever its size).
 * Run: npm run bench:import [-- MEGABYTES]. Figures vary with the machine.
 */
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { generateObservations } from '../scripts/generate-observations.js';
import { runCliMeasured } from '../test/support/cli.js';
import { zipOf } from '../test/support/zip.js';

const megabytes = Number(process.argv[2] ?? 100);
/** A generated row is 36 bytes. */
const rows = Math.ceil((megabytes * 1e6) / 36);
const dir = mkdtempSync(join(tmpdir(), 'fxrates-import-bench-'));
try {
  const csv = join(dir, 'observations.csv');
  await generateObservations(csv, rows);
  const gz = `${csv}.gz`;
  await pipeline(createReadStream(csv), createGzip(), createWriteStream(gz));
  const zip = join(dir, 'observations.zip');
  writeFileSync(zip, zipOf({ 'observations.csv': await readFile(csv) }));
  const mb = (path: string): string => `${(statSync(path).size / 1e6).toFixed(1)} MB`;
  console.log(`${rows} rows: csv ${mb(csv)}, gzip ${mb(gz)}, zip ${mb(zip)}`);
  for (const [name, file] of [
    ['csv', csv],
    ['gzip', gz],
    ['zip', zip],
  ] as const) {
    const db = join(dir, `${name}.duckdb`);
    const result = await runCliMeasured(['import', '--db', db, file]);
    if (result.code !== 0) throw new Error(`${name}: exit ${result.code}: ${result.stderr}`);
    const progressLines = result.stderr.split('\n').filter((line) => /% \(/.test(line)).length;
    console.log(
      `${name.padEnd(4)}: peak RSS ${Math.round(result.peakRssBytes / 1024 ** 2)} MiB, ${(result.ms / 1000).toFixed(1)} s, ${progressLines} progress lines; ${result.stdout.trim().replace(/^.*?: /, '')}`,
    );
    rmSync(db, { force: true });
    rmSync(`${db}.wal`, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
