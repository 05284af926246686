import type { Env } from './env.js';
import { UsageError, copyConfig, importConfig, ingestConfig, serveConfig } from './config.js';
import { copyStore } from './copy-store.js';
import { SOURCES, findSource } from './sources/registry.js';
import { ingestSource } from './ingest/ingest-source.js';
import { ImportError, importFile } from './import/import-file.js';
import { serve } from './server.js';
import { openServiceStore } from './service-store.js';
import { VERSION } from './version.js';

/** Each command's usage: printed by `fxrates COMMAND --help` and after a mistake in its arguments. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `  fxrates serve [--db PATH] [--port N] [--host H] [--no-ingest]
      Serve the HTTP API (env FXRATES_DB, PORT, HOST; defaults ./data/fxrates.duckdb,
      8080, 127.0.0.1). The database file is created and migrated on first start.
      The log is readable lines on a terminal and JSON lines otherwise (LOG_FORMAT=json or
      pretty to choose; LOG_LEVEL one of fatal, error, warn, info, debug, trace, silent).
`,
  ingest: `  fxrates ingest [SOURCE...] [--from DATE] [--to DATE] [--db PATH]
      Fetch from the publishers once and exit: all sources, or those named. Without --from a
      source continues from its last stored observation (the first run backfills its history).
      Origins can be overridden per source: FXRATES_ORIGIN_<KEY>=http://host:port.
`,
  import: `  fxrates import [--db PATH] FILE...
      Import observations CSV files (source,symbol,observation_time,rate) or the ECB's
      eurofxref-hist.csv, each file in one transaction; .gz and .zip files (one CSV inside,
      like the ECB's eurofxref-hist.zip) are read as they are.
`,
  copy: `  fxrates copy --from LOCATION --to LOCATION
      Copy every observation and the ingest state from one store to another (a DuckDB file
      or a postgres:// URL each), in batches, then check the counts per source. Running it
      again resumes an interrupted copy and changes nothing once it is complete.
`,
};

const DB_NOTE = `--db and FXRATES_DB take a DuckDB file path or a postgres://user@host:port/database URL.
`;

const USAGE = `fxrates ${VERSION}: currency exchange rates from official publishers

Usage:
${Object.values(COMMAND_USAGE).join('')}  fxrates --help | --version
  fxrates COMMAND --help

${DB_NOTE}`;

function commandUsage(command: string): string {
  return `Usage:\n${COMMAND_USAGE[command]}${command === 'copy' ? '' : `\n${DB_NOTE}`}`;
}

/** True when the arguments ask for help (before a `--` that ends the options). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** Runs one command line; returns the process exit code. */
export async function main(args: string[], env: Env): Promise<number> {
  const [command, ...rest] = args;
  if (command !== undefined && COMMAND_USAGE[command] && asksForHelp(rest)) {
    process.stdout.write(commandUsage(command));
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        await serve(serveConfig(rest, env, process.stdout.isTTY === true));
        return 0;
      case 'import':
        return await runImport(rest, env);
      case 'ingest':
        return await runIngest(rest, env);
      case 'copy':
        return await runCopy(rest, env);
      case '--version':
      case '-v':
        process.stdout.write(`${VERSION}\n`);
        return 0;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const usage = command !== undefined && COMMAND_USAGE[command] ? commandUsage(command) : USAGE;
      process.stderr.write(`fxrates: ${error.message}\n\n${usage}`);
      return 2;
    }
    process.stderr.write(`fxrates: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function runImport(args: string[], env: Env): Promise<number> {
  const config = importConfig(args, env);
  const store = await openServiceStore(config.db, { memoryLimit: config.memoryLimit });
  let failures = 0;
  try {
    for (const file of config.files) {
      const started = Date.now();
      try {
        const summary = await importFile(store, file);
        const sources = [...summary.perSource.keys()].join(', ') || 'no rows';
        const skipped =
          summary.skipped > 0
            ? `; skipped ${summary.skipped} rows of a source's own relative currency (rate 1)`
            : '';
        process.stdout.write(
          `${file}: ${summary.format} file (${sources}): ${summary.stored} rows stored (new or changed), ${summary.unchanged} unchanged${skipped} (${Date.now() - started} ms)\n`,
        );
      } catch (error) {
        failures++;
        const message =
          error instanceof ImportError ? error.message : `${file}: ${(error as Error).message}`;
        process.stderr.write(`fxrates: ${message}\n`);
      }
    }
  } finally {
    await store.close();
  }
  return failures > 0 ? 1 : 0;
}

async function runIngest(args: string[], env: Env): Promise<number> {
  const config = ingestConfig(args, env);
  const sources =
    config.sources.length > 0 ? config.sources.map((key) => findSource(key)!) : SOURCES;
  const store = await openServiceStore(config.db, { memoryLimit: config.memoryLimit });
  let failures = 0;
  try {
    // Sources are independent: they run side by side, each at its own pace.
    await Promise.all(
      sources.map(async (source) => {
        const started = Date.now();
        const report = await ingestSource(store, source, {
          from: config.from,
          to: config.to,
          env,
          http: config.http,
        });
        const window = report.window ? ` ${report.window.from}..${report.window.to}` : '';
        const dropped =
          report.dropped > 0
            ? `, ${report.dropped} dropped (${report.dropReasons.slice(0, 2).join('; ')})`
            : '';
        const summary = `${source.key}${window}: ${report.requests} requests, ${report.stored} observations new or changed${dropped} (${Date.now() - started} ms)`;
        if (report.idle) {
          process.stdout.write(`${source.key}: ${report.idle}\n`);
        } else if (report.error) {
          failures++;
          process.stderr.write(`fxrates: ${summary}; failed: ${report.error}\n`);
        } else {
          process.stdout.write(`${summary}\n`);
        }
      }),
    );
  } finally {
    await store.close();
  }
  return failures > 0 ? 1 : 0;
}

async function runCopy(args: string[], env: Env): Promise<number> {
  const config = copyConfig(args, env);
  const from = await openServiceStore(config.from, { memoryLimit: config.memoryLimit });
  try {
    const to = await openServiceStore(config.to, { memoryLimit: config.memoryLimit });
    try {
      const started = Date.now();
      const report = await copyStore(from, to, (copied, stored) =>
        process.stdout.write(`copied ${copied} observations (${stored} new or changed)\n`),
      );
      const counts = [...report.perSource].map(([source, count]) => `${source} ${count}`);
      process.stdout.write(
        `copy verified: ${counts.join(', ') || 'no observations'}; ${report.stored} new or changed in ${to.description} (${Date.now() - started} ms)\n`,
      );
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
  return 0;
}
