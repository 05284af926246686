import { buildApp } from './app.js';
import type { ServeConfig } from './config.js';
import { IngestScheduler } from './ingest/scheduler.js';
import { replicaName } from './replica.js';
import { openServiceStore } from './service-store.js';

/**
 * Opens (creating and migrating) the database, listens, and shuts down gracefully on SIGTERM or
 * SIGINT: no new connections, in-flight requests finish, then the database closes cleanly.
 */
export async function serve(config: ServeConfig): Promise<void> {
  // The store is opened before the app exists, but reports through the app's logger.
  const service: { app?: Awaited<ReturnType<typeof buildApp>> } = {};
  const store = await openServiceStore(config.db, {
    memoryLimit: config.memoryLimit,
    sandbox: config.sandbox,
    queryUrl: config.queryDb,
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
  const app = await buildApp({
    store,
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
    query: config.query,
    connections: { maxConnections: config.maxConnections },
    ingestEnv: process.env,
    ingesting: config.ingest,
    runningSources: () => scheduler?.runningSources() ?? new Set(),
  });
  service.app = app;
  const scheduler: IngestScheduler | undefined = config.ingest
    ? new IngestScheduler(store, {
        env: process.env,
        http: config.http,
        logger: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
      })
    : undefined;
  let closing: Promise<void> | undefined;
  const shutdown = (signal: string): void => {
    closing ??= (async () => {
      app.log.info(`${signal} received: finishing in-flight requests`);
      // A keep-alive connection whose response finishes after this point would otherwise hold
      // the close until its keep-alive timeout: close each one as soon as it is idle.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      await Promise.all([app.close(), scheduler?.stop()]);
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
    throw error;
  }
  app.log.info(
    `database ${config.db}${config.ingest ? '; ingesting from the publishers' : '; serving stored data only (--no-ingest)'}`,
  );
  scheduler?.start();
  store.startSandbox().catch((error: unknown) => {
    app.log.warn(`query sandbox not started: ${(error as Error).message}`);
  });
}
