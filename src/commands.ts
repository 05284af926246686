import type { Env } from './env.js';
import {
  UsageError,
  asksForHelp,
  copyConfig,
  engineOptions,
  importConfig,
  ingestConfig,
  serveConfig,
} from './config.js';
import { copyStore } from './copy-store.js';
import { SOURCES, findSource } from './sources/registry.js';
import { ingestSource } from './ingest/ingest-source.js';
import {
  ImportError,
  importFile,
  importableSize,
  type ImportSummary,
} from './import/import-file.js';
import { ProgressLine, megabytes, seconds, type ProgressStream } from './progress.js';
import { serve } from './server.js';
import { openServiceStore } from './service-store.js';
import { openStore } from './store/open.js';
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

function isCommand(command: string | undefined): command is string {
  return command !== undefined && Object.hasOwn(COMMAND_USAGE, command);
}

function commandUsage(command: string): string {
  return `Usage:\n${COMMAND_USAGE[command]}${command === 'copy' ? '' : `\n${DB_NOTE}`}`;
}

/** Where a command writes: the process's streams, or a test's captures. */
export interface CommandOutput {
  stdout: ProgressStream;
  stderr: ProgressStream;
}

const PROCESS_OUTPUT: CommandOutput = { stdout: process.stdout, stderr: process.stderr };

/** Runs one command line; returns the process exit code. */
export async function main(
  args: string[],
  env: Env,
  output: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  const [command, ...rest] = args;
  if (isCommand(command) && asksForHelp(command, rest)) {
    output.stdout.write(commandUsage(command));
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
        await serve(serveConfig(rest, env, output.stdout.isTTY === true));
        return 0;
      case 'import':
        return await runImport(rest, env, output);
      case 'ingest':
        return await runIngest(rest, env, output);
      case 'copy':
        return await runCopy(rest, env, output);
      case '--version':
      case '-v':
        output.stdout.write(`${VERSION}\n`);
        return 0;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        output.stdout.write(USAGE);
        return 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const usage = isCommand(command) ? commandUsage(command) : USAGE;
      output.stderr.write(`fxrates: ${error.message}\n\n${usage}`);
      return 2;
    }
    output.stderr.write(`fxrates: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function runImport(args: string[], env: Env, output: CommandOutput): Promise<number> {
  const config = importConfig(args, env);
  // Every file is looked at before the store is opened: input that cannot be read creates no
  // database (and migrates none).
  const files: string[] = [];
  for (const file of config.files) {
    try {
      await importableSize(file);
      files.push(file);
    } catch (error) {
      output.stderr.write(`fxrates: ${(error as Error).message}\n`);
    }
  }
  let failures = config.files.length - files.length;
  if (files.length === 0) return 1;
  const store = await openServiceStore(config.db, engineOptions(config));
  try {
    for (const file of files) {
      const started = Date.now();
      const progress = new ProgressLine(output.stderr);
      try {
        const summary = await importFile(store, file, {
          onProgress: ({ bytesRead, totalBytes, rows }) =>
            progress.update(
              () =>
                `${file}: ${totalBytes > 0 ? Math.floor((100 * bytesRead) / totalBytes) : 100}% (${megabytes(bytesRead)} of ${megabytes(totalBytes)}), ${rows} rows read`,
            ),
        });
        progress.done();
        output.stdout.write(`${importLine(file, summary)} (${Date.now() - started} ms)\n`);
      } catch (error) {
        progress.done();
        failures++;
        const message =
          error instanceof ImportError ? error.message : `${file}: ${(error as Error).message}`;
        output.stderr.write(`fxrates: ${message}\n`);
      }
    }
  } finally {
    await store.close();
  }
  return failures > 0 ? 1 : 0;
}

/** The one line that says what an import did. */
function importLine(file: string, summary: ImportSummary): string {
  const sources = [...summary.perSource.keys()].join(', ') || 'no rows';
  const packed =
    summary.packing === 'zip'
      ? ` in a zip archive (${summary.entryName})`
      : summary.packing === 'gzip'
        ? ', gzip-compressed'
        : '';
  const skipped =
    summary.skipped > 0
      ? `; skipped ${summary.skipped} rows of a source's own relative currency (rate 1)`
      : '';
  const progress =
    summary.completeThrough.size > 0
      ? `; ingest continues after ${[...summary.completeThrough].map(([source, date]) => `${source} ${date}`).join(', ')}`
      : '';
  return `${file}: ${summary.format} file${packed} (${sources}): ${summary.added} rows new, ${summary.changed} changed, ${summary.unchanged} unchanged${skipped}${progress}`;
}

async function runIngest(args: string[], env: Env, output: CommandOutput): Promise<number> {
  const config = ingestConfig(args, env);
  const sources =
    config.sources.length > 0 ? config.sources.map((key) => findSource(key)!) : SOURCES;
  const store = await openServiceStore(config.db, engineOptions(config));
  const started = Date.now();
  // On a terminal one line, redrawn, says how the runs in progress are going; in a log each
  // source gets its one closing line only.
  const progress = output.stderr.isTTY ? new ProgressLine(output.stderr, { delayMs: 1_000 }) : null;
  const running = new Map<string, { requests: number; through: string | null }>();
  const totals = { ok: 0, failed: 0, idle: 0, requests: 0, stored: 0 };
  const showProgress = (): void =>
    progress?.update(() => {
      const done = totals.ok + totals.failed + totals.idle;
      const runs = [...running]
        .map(
          ([key, run]) =>
            `${key} ${run.requests} req${run.through ? ` through ${run.through}` : ''}`,
        )
        .join(', ');
      let requests = totals.requests;
      for (const run of running.values()) requests += run.requests;
      return `ingest: ${done} of ${sources.length} sources done, ${requests} requests; ${runs}`;
    });
  try {
    // Sources are independent: they run side by side, each at its own pace.
    await Promise.all(
      sources.map(async (source) => {
        const sourceStarted = Date.now();
        running.set(source.key, { requests: 0, through: null });
        const report = await ingestSource(store, source, {
          from: config.from,
          to: config.to,
          env,
          http: config.http,
          onProgress: ({ requests, through }) => {
            const run = running.get(source.key);
            if (run) Object.assign(run, { requests, through });
            showProgress();
          },
        });
        running.delete(source.key);
        totals.requests += report.httpRequests;
        totals.stored += report.stored;
        const window = report.window ? ` ${report.window.from}..${report.window.to}` : '';
        const dropped =
          report.dropped > 0
            ? `, ${report.dropped} dropped (${report.dropReasons.slice(0, 2).join('; ')})`
            : '';
        const summary = `${source.key}${window}: ${report.httpRequests} requests, ${report.stored} observations new or changed${dropped} (${Date.now() - sourceStarted} ms)`;
        progress?.done();
        if (report.idle) {
          totals.idle++;
          output.stdout.write(`${source.key}: ${report.idle}\n`);
        } else if (report.nothingToFetch) {
          totals.ok++;
          output.stdout.write(`${source.key}: ${report.nothingToFetch}\n`);
        } else if (report.error) {
          totals.failed++;
          output.stderr.write(`fxrates: ${summary}; failed: ${report.error}\n`);
        } else {
          totals.ok++;
          output.stdout.write(`${summary}\n`);
        }
        showProgress();
      }),
    );
  } finally {
    progress?.done();
    await store.close();
  }
  if (sources.length > 1) {
    output.stdout.write(
      `ingested ${sources.length} sources: ${totals.ok} ok, ${totals.failed} failed, ${totals.idle} idle; ${totals.requests} requests, ${totals.stored} observations new or changed (${seconds(Date.now() - started)})\n`,
    );
  }
  return totals.failed > 0 ? 1 : 0;
}

async function runCopy(args: string[], env: Env, output: CommandOutput): Promise<number> {
  const config = copyConfig(args, env);
  // The source is read as it is: never created, migrated or written (its sources table is not
  // synced either). It must hold an fxrates database already.
  const from = await openStore(config.from, { ...engineOptions(config), readOnly: true });
  try {
    const to = await openServiceStore(config.to, engineOptions(config));
    try {
      const started = Date.now();
      const report = await copyStore(from, to, (copied, stored) =>
        output.stdout.write(`copied ${copied} observations (${stored} new or changed)\n`),
      );
      const counts = [...report.perSource].map(([source, count]) => `${source} ${count}`);
      output.stdout.write(
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
