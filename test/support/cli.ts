import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPO_ROOT } from './harness.js';

/** How a test starts fxrates: a command, and its arguments before fxrates' own. */
export interface Launch {
  command: string;
  args: readonly string[];
}

/** From the sources, through the TypeScript loader: what every test runs unless it says. */
const FROM_SOURCES: Launch = {
  command: process.execPath,
  args: ['--import', 'tsx', join(REPO_ROOT, 'src', 'cli.ts')],
};

/** The installed command, bin/fxrates, which runs the built dist/cli.js. */
export const INSTALLED: Launch = { command: join(REPO_ROOT, 'bin', 'fxrates'), args: [] };

/** Environment variables over the test's own; one set to undefined is left out. */
export type CliEnv = Record<string, string | undefined>;

function spawnCli(
  args: readonly string[],
  env: CliEnv,
  launch: Launch,
): ChildProcessWithoutNullStreams {
  return spawn(launch.command, [...launch.args, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `fxrates ARGS...` (from the sources unless `launch` says), as a user would. */
export async function runCli(
  args: string[],
  env: CliEnv = {},
  launch: Launch = FROM_SOURCES,
): Promise<CliResult> {
  const child = spawnCli(args, env, launch);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * Runs `fxrates ARGS...` and watches its peak resident memory (VmHWM) while it runs: the high-water
 * mark only grows, so the last reading before the process exits is its peak.
 */
export async function runCliMeasured(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult & { peakRssBytes: number; ms: number }> {
  const started = Date.now();
  const child = spawnCli(args, env, FROM_SOURCES);
  let stdout = '';
  let stderr = '';
  let peak = 0;
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const watch = setInterval(() => {
    peakRssBytes(child.pid!).then(
      (bytes) => (peak = Math.max(peak, bytes)),
      () => undefined,
    );
  }, 100);
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(watch);
  return { code, stdout, stderr, peakRssBytes: peak, ms: Date.now() - started };
}

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

/** Starts `fxrates serve` (from the sources unless `launch` says) on a free port and waits until it listens. */
export async function startServer(
  args: string[],
  env: CliEnv = {},
  launch: Launch = FROM_SOURCES,
): Promise<RunningServer> {
  const child = spawnCli(['serve', '--port', '0', ...args], env, launch);
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening at (http:\/\/[\d.]+:\d+)/i.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`fxrates serve exited with ${code}: ${output}`)));
    setTimeout(() => reject(new Error(`fxrates serve did not start: ${output}`)), 30_000).unref();
  });
  return { child, baseUrl, output: () => output };
}

/** Stops a server as an operator does (SIGTERM, a graceful shutdown) and waits for its exit. */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}

/** The peak resident set size of a running process, in bytes (Linux). */
export async function peakRssBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (!kilobytes) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kilobytes) * 1024;
}
