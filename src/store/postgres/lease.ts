import pg from 'pg';
import type { IngestLease } from '../store.js';
import { clientConfig } from './connection.js';
import { INGEST_LOCK } from './migrations.js';

/**
 * The ingest lease of a shared database: a session advisory lock held on a connection of its
 * own. PostgreSQL frees it when that session ends (the process dies, the network goes), and
 * another replica's next attempt takes it.
 */
export class PostgresLease implements IngestLease {
  private client: pg.Client | undefined;
  private isHeld = false;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly retryMs: number,
    private readonly onLost: () => void,
  ) {}

  held(): boolean {
    return this.isHeld;
  }

  async acquire(signal: AbortSignal): Promise<void> {
    while (!this.isHeld) {
      signal.throwIfAborted();
      try {
        await this.tryOnce();
      } catch {
        // The database is unreachable: try again later, like a busy lock.
        await this.dropClient();
      }
      if (this.isHeld) return;
      // The wait's abort listener goes with the wait: a standby retries for as long as it runs.
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', stop);
          resolve();
        }, this.retryMs);
        signal.addEventListener('abort', stop, { once: true });
      });
    }
  }

  private async tryOnce(): Promise<void> {
    if (!this.client) {
      const client = new pg.Client(clientConfig(this.url, 'ingest'));
      client.on('error', () => this.lost());
      client.on('end', () => this.lost());
      await client.connect();
      this.client = client;
    }
    const result = await this.client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [INGEST_LOCK],
    );
    this.isHeld = result.rows[0]?.locked === true;
  }

  private lost(): void {
    const was = this.isHeld;
    this.isHeld = false;
    this.client = undefined;
    if (was) this.onLost();
  }

  async holder(): Promise<string | null> {
    const result = await this.pool.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks AS l
       JOIN pg_stat_activity AS a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [INGEST_LOCK],
    );
    const name = result.rows[0]?.name;
    return name ? name.replace(/^fxrates ingest /, '') : null;
  }

  async release(): Promise<void> {
    this.isHeld = false;
    await this.dropClient();
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
  }
}
