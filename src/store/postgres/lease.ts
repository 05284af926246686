import pg from 'pg';
import type { IngestLease } from '../store.js';
import { clientConfig } from './connection.js';
import { INGEST_LOCK, advisoryLock, type AdvisoryLock } from './migrations.js';

/** How often the holder checks that its lease's connection still answers, and how long it waits. */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;

/**
 * The ingest lease of a shared database: a session advisory lock held on a connection of its
 * own. PostgreSQL frees it when that session ends (the process dies, the network goes: the
 * server's keepalives find a vanished peer within about 25 s, see connection.ts), and another
 * replica's next attempt takes it. The holder asks its connection every HEARTBEAT_MS and stops
 * holding when no answer comes within HEARTBEAT_TIMEOUT_MS: cut off from the database, it stops
 * ingesting before the server frees the lock for another replica.
 */
export class PostgresLease implements IngestLease {
  private client: pg.Client | undefined;
  private isHeld = false;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Its deployment's own (see advisoryLock). */
  private readonly lock: AdvisoryLock;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    schema: string,
    private readonly retryMs: number,
    private readonly onLost: () => void,
  ) {
    this.lock = advisoryLock(INGEST_LOCK, schema);
  }

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
      `SELECT pg_try_advisory_lock(${this.lock.args}) AS locked`,
      this.lock.params,
    );
    this.isHeld = result.rows[0]?.locked === true;
    if (this.isHeld) this.startHeartbeat(this.client);
  }

  private startHeartbeat(client: pg.Client): void {
    clearInterval(this.heartbeat);
    let waiting = false;
    this.heartbeat = setInterval(() => {
      if (waiting || client !== this.client) return;
      waiting = true;
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), HEARTBEAT_TIMEOUT_MS);
      });
      Promise.race([client.query('SELECT 1'), silent])
        .then(
          () => undefined,
          () => {
            if (client !== this.client) return;
            this.lost();
            // Its session may still hold the lock on the server: ending it frees it as soon as
            // the network lets the end through (or the server's keepalives give up).
            client.removeAllListeners('end');
            void client.end().catch(() => undefined);
          },
        )
        .finally(() => {
          clearTimeout(timer);
          waiting = false;
        });
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private lost(): void {
    clearInterval(this.heartbeat);
    const was = this.isHeld;
    this.isHeld = false;
    this.client = undefined;
    if (was) this.onLost();
  }

  async holder(): Promise<string | null> {
    const result = await this.pool.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks AS l
       JOIN pg_stat_activity AS a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND ${this.lock.held}
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      this.lock.params,
    );
    const name = result.rows[0]?.name;
    return name ? name.replace(/^fxrates ingest /, '') : null;
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
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
