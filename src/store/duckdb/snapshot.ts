import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { stringLiteral } from '../../resolve/sql-literal.js';

export interface SnapshotOptions {
  /** Folder of the snapshot files; the serving instance may attach files only here. */
  dir: string;
  /** Writes close together are folded into one refresh this long after the first of them. */
  coalesceMs: number;
}

/**
 * The read-only copy of `observations` and `sources` that the query sandbox reads: nothing else
 * of the database (ingest state, settings, the file's path) is in it. A refresh is built aside
 * under a temporary name and renamed into place when complete, so a sandbox never opens a
 * half-written file; files of older snapshots are removed (a sandbox still reading one keeps
 * its open file until it moves to the new one).
 */
export class SnapshotWriter {
  private path: string | undefined;
  private building: Promise<string> | undefined;
  private scheduled: NodeJS.Timeout | undefined;
  private dirty = true;
  private sequence = 0;
  private readonly run = randomBytes(6).toString('hex');
  private closed = false;
  /** How long the last build took: big databases refresh less often during long backfills. */
  private lastBuildMs = 0;

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly options: SnapshotOptions,
  ) {
    mkdirSync(options.dir, { recursive: true });
    // Leftovers of an earlier run: rebuilt from the database on first use.
    for (const name of readdirSync(options.dir)) rmSync(join(options.dir, name), { force: true });
  }

  /** The newest complete snapshot, building the first one when there is none yet. */
  current(): Promise<string> {
    return this.path !== undefined ? Promise.resolve(this.path) : this.refresh();
  }

  /** The data changed: refresh once the writes of the next few seconds are in too. */
  markChanged(): void {
    this.dirty = true;
    if (this.scheduled || this.closed) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      this.refresh().catch(() => {
        // Reported when a sandbox next asks for the snapshot; the old one stays in use.
      });
    }, this.refreshDelay());
    this.scheduled.unref();
  }

  /**
   * The configured delay, or ten times the last build if that is longer (a copy of millions of
   * rows should not run every few seconds through a backfill), but never over 50 s, so that a
   * snapshot is at most about a minute behind the data.
   */
  private refreshDelay(): number {
    return Math.min(Math.max(this.options.coalesceMs, 10 * this.lastBuildMs), 50_000);
  }

  /** Builds a new snapshot now (after the one being built, if any). */
  refresh(): Promise<string> {
    const previous = this.building ?? Promise.resolve('');
    const build = previous
      .catch(() => '')
      .then(() => (this.dirty || !this.path ? this.build() : this.path));
    this.building = build;
    build
      .finally(() => {
        if (this.building === build) this.building = undefined;
      })
      .catch(() => undefined);
    return build;
  }

  private async build(): Promise<string> {
    const started = Date.now();
    this.dirty = false;
    // The name is the query endpoint's ETag: unique across restarts too (a container's process
    // is PID 1 each time), or an answer held from before would match rows it never had.
    const name = `snapshot-${this.run}-${++this.sequence}.duckdb`;
    const partial = join(this.options.dir, `${name}.partial`);
    const connection = await this.instance.connect();
    try {
      await connection.run(`ATTACH ${stringLiteral(partial)} AS snapshot`);
      try {
        // Copied in the table's own order (time order): a copy streams, where a sort would
        // hold every row at once (about 250 MB for 4 M observations) and compress worse.
        await connection.run(
          `CREATE TABLE snapshot.observations AS SELECT * FROM observations;
           CREATE TABLE snapshot.sources AS SELECT * FROM sources ORDER BY default_precedence;`,
        );
        await connection.run('CHECKPOINT snapshot');
      } finally {
        await connection.run('DETACH snapshot');
      }
    } catch (error) {
      this.dirty = true;
      rmSync(partial, { force: true });
      rmSync(`${partial}.wal`, { force: true });
      throw error;
    } finally {
      connection.closeSync();
    }
    const complete = join(this.options.dir, name);
    renameSync(partial, complete);
    this.path = complete;
    this.lastBuildMs = Date.now() - started;
    for (const file of readdirSync(this.options.dir)) {
      if (file !== name) rmSync(join(this.options.dir, file), { force: true });
    }
    return complete;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.scheduled);
    await this.building?.catch(() => undefined);
    rmSync(this.options.dir, { recursive: true, force: true });
  }
}
