import { createServer } from 'node:net';
import { mallocReport } from './allocator.js';
import { buildApp } from './app.js';
import { engineOptions, type ServeConfig } from './config.js';
import { IngestScheduler } from './ingest/scheduler.js';
import { serveLoggerOptions } from './logging.js';
import { SOURCES } from './sources/registry.js';
import type { Store } from './store/store.js';
import { replicaName } from './replica.js';
import { openServiceStore } from './service-store.js';

/**
 * Opens (creating and migrating) the database, listens, and shuts down gracefully on SIGTERM or
 * SIGINT: no new connections, in-flight requests finish, then the database closes cleanly.
 */
export async function serve(config: ServeConfig): Promise<void> {
  // A port in use or a host of another machine is said before the database is created.
  await canListen(config);
  // The store is opened before the app exists, but reports through the app's logger.
  const service: { app?: Awaited<ReturnType<typeof buildApp>> } = {};
  const store = await openServiceStore(config.db, {
    ...engineOptions(config),
    sandbox: config.sandbox,
    queryUrl: config.queryDb,
    leaseRetryMs: config.leaseRetryMs,
    replicaName: replicaName(),
    warn: (message) => {
      if (service.app) service.app.log.warn(message);
      else process.stderr.write(`fxrates: ${message}\n`);
    },
    onFatal: (error) => {
      // The engine invalidated the database: answering 500 forever helps nobody. Exit, so
      // that a supervisor starts the service again on the intact file.
      const message = `database unusable, exiting: ${error.message.split('\n')[0]}`;
      if (service.app) service.app.log.fatal(message);
      else process.stderr.write(`fxrates: ${message}\n`);
      process.exit(70);
    },
  });
  let scheduler: IngestScheduler | undefined;
  const app = await buildApp({
    store,
    logger: serveLoggerOptions(config.logLevel, config.logFormat),
    query: config.query,
    connections: { maxConnections: config.maxConnections },
    ingestEnv: process.env,
    ingesting: config.ingest,
    ingestSources: config.ingestSources,
    runningSources: () => scheduler?.runningSources() ?? new Set(),
    ingestRole: () => (scheduler ? 'ingesting' : 'serving'),
    nextAttempt: (source) => scheduler?.nextAttempt(source) ?? null,
  });
  service.app = app;
  const stopIngesting = new AbortController();
  // Exactly one process ingests a database: this one once it holds the lease (always, on an
  // embedded file). When the lease is lost (the database connection went), it stops and waits
  // to take it again; meanwhile another replica may hold it.
  const ingestLoop = async (): Promise<void> => {
    const lease = store.ingestLease;
    while (!stopIngesting.signal.aborted) {
      await lease.acquire(stopIngesting.signal);
      if (stopIngesting.signal.aborted) return;
      const count = config.ingestSources?.length ?? SOURCES.length;
      app.log.info(
        `ingestion started: ${count} sources, ${config.ingestConcurrency} at a time (this process holds the ingest lease); /v1/exchangerate/status shows each source`,
      );
      const running = new IngestScheduler(store, {
        env: process.env,
        http: config.http,
        sources: config.ingestSources,
        maxConcurrentRuns: config.ingestConcurrency,
        logger: {
          info: (m) => app.log.info(m),
          warn: (m) => app.log.warn(m),
          debug: (m) => app.log.debug(m),
        },
      });
      scheduler = running;
      running.start();
      while (lease.held() && !stopIngesting.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      scheduler = undefined;
      await running.stop();
      if (!stopIngesting.signal.aborted) app.log.warn('ingest lease lost: ingestion paused');
    }
  };
  let ingesting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const shutdown = (signal: string): void => {
    closing ??= (async () => {
      app.log.info(`${signal} received: finishing in-flight requests`);
      // A keep-alive connection whose response finishes after this point would otherwise hold
      // the close until its keep-alive timeout: close each one as soon as it is idle.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      stopIngesting.abort();
      await Promise.all([app.close(), scheduler?.stop(), ingesting]);
      clearInterval(closeIdle);
      await store.close();
      app.log.info('database closed; bye');
    })().catch((error: unknown) => {
      app.log.error(error);
      process.exitCode = 1;
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await store.close();
    throw listenProblem(error, config);
  }
  app.log.info(
    `database ${store.description}: ${await holdings(store)}${config.ingest ? '' : '; serving stored data only (--no-ingest)'}`,
  );
  const malloc = mallocReport(config.systemMalloc);
  if (malloc) app.log.info(malloc);
  if (config.ingest) {
    ingesting = ingestLoop().catch((error: unknown) => {
      if (!stopIngesting.signal.aborted) app.log.error(`ingestion stopped: ${String(error)}`);
    });
  }
  store.startSandbox().catch((error: unknown) => {
    app.log.warn(`query sandbox not started: ${(error as Error).message}`);
  });
}

/** What the database holds, in a few words, for the log at start. */
async function holdings(store: Store): Promise<string> {
  const catalog = await store.catalog();
  let observations = 0;
  let first: string | null = null;
  let last: string | null = null;
  let sources = 0;
  for (const held of catalog.values()) {
    if (held.observations === 0) continue;
    sources++;
    observations += held.observations;
    if (held.firstDate && (first === null || held.firstDate < first)) first = held.firstDate;
    if (held.lastDate && (last === null || held.lastDate > last)) last = held.lastDate;
  }
  if (observations === 0) return 'empty (the first ingestion backfills each source)';
  return `${observations} observations from ${sources} ${sources === 1 ? 'source' : 'sources'}, ${first} to ${last}`;
}

/** Binds the address and lets it go at once, so that a bad one fails before anything is done. */
async function canListen(config: ServeConfig): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port: config.port, host: config.host, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenProblem(error, config);
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

/** The usual reasons a port cannot be listened on, said plainly. */
function listenProblem(error: unknown, config: ServeConfig): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `port ${config.port} on ${config.host}`;
  if (code === 'EADDRINUSE') {
    return new Error(
      `${where} is already in use (another fxrates serve?): stop it, or choose another port with --port or PORT`,
    );
  }
  if (code === 'EACCES') {
    return new Error(`${where} needs privileges this user lacks: choose a port above 1023`);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new Error(`host ${config.host} is no address of this machine: check --host or HOST`);
  }
  return error;
}
