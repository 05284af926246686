import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  SandboxRejection,
  SandboxTimeout,
  SandboxUnavailable,
  type QueryResultSet,
  type SandboxLimits,
  type SqlValue,
} from '../store.js';
import type { ChildSettings, SandboxReply, SandboxRequest } from './sandbox-child.js';

export interface DuckDBSandboxOptions {
  /** Sandbox processes, each running one statement at a time. */
  workers: number;
  /** Memory a sandbox process may allocate (RLIMIT_DATA), in bytes. */
  memoryBytes: number;
  /** CPU seconds a sandbox process may use in its life before it is replaced. */
  cpuSeconds: number;
  /** The newest snapshot file to read. */
  snapshot: () => Promise<string>;
  /** Told when the operating system cannot isolate the sandbox as intended, and when a process stops on its own. */
  warn?: (message: string) => void;
}

const CHILD = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? './sandbox-child.ts' : './sandbox-child.js',
    import.meta.url,
  ),
);
/** Longest text of one value the sandbox returns. */
const MAX_VALUE_BYTES = 1024 * 1024;
/** Crashes within this window count towards the backoff before a restart. */
const CRASH_WINDOW_MS = 60_000;

/**
 * Untrusted SQL runs here, never in the serving process: each statement goes to a separate
 * Node process (sandbox-child.ts) started with operating-system limits (no network namespace,
 * RLIMIT_DATA, RLIMIT_CPU, no file writes, no core dumps, an empty environment) that reads a
 * read-only snapshot. The time limit is enforced from outside: a process that has not
 * answered by the deadline is killed with SIGKILL and replaced. A process that dies on its own
 * fails its statement with 503 and is replaced after a pause that grows with repeated crashes.
 */
export class DuckDBSandbox {
  private readonly slots: Slot[];
  private readonly launcher: string[];
  private nextId = 1;
  private closed = false;
  private lastStartFailure = '';

  constructor(private readonly options: DuckDBSandboxOptions) {
    this.launcher = launcherPrefix(options);
    this.slots = Array.from({ length: options.workers }, () => new Slot(this));
  }

  /** Runs one statement in a free sandbox process (callers keep to `workers` at once). */
  async run(sql: string, limits: SandboxLimits): Promise<QueryResultSet> {
    if (this.closed) throw new SandboxUnavailable('the service is shutting down');
    const slot = this.slots.find((candidate) => !candidate.busy);
    if (!slot) throw new SandboxUnavailable('every query sandbox is busy; try again shortly');
    slot.busy = true;
    try {
      const request: SandboxRequest = {
        id: this.nextId++,
        sql,
        snapshot: await this.options.snapshot(),
        maxRows: limits.maxRows,
        maxBytes: limits.maxBytes,
        maxValueBytes: Math.min(MAX_VALUE_BYTES, limits.maxBytes),
      };
      return await slot.run(request, limits.deadline);
    } finally {
      slot.busy = false;
    }
  }

  /** Spawns one sandbox process with its limits. */
  spawnChild(): ChildProcess {
    const settings: ChildSettings = {
      memoryLimit: `${Math.floor(this.options.memoryBytes / 2 / 1024 / 1024)}MB`,
      threads: 1,
    };
    const node = [
      process.execPath,
      '--max-old-space-size=256',
      // The child collects after each statement: a result it stopped reading early holds
      // engine memory until its JavaScript object is collected.
      '--expose-gc',
      ...(CHILD.endsWith('.ts') ? ['--import', 'tsx'] : []),
      CHILD,
      JSON.stringify(settings),
    ];
    const [command, ...args] = [...this.launcher, ...node];
    return spawn(command!, args, {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      // Nothing of the service's environment (database location, API keys) reaches the sandbox.
      env: {},
    });
  }

  /**
   * Said once per reason until a process starts again: a sandbox that cannot start is retried
   * with a growing pause.
   */
  startFailed(message: string): void {
    if (message === this.lastStartFailure) return;
    this.lastStartFailure = message;
    this.options.warn?.(message);
  }

  /** A process ended without being asked to: said every time, at warn. */
  stopped(message: string): void {
    this.options.warn?.(message);
  }

  started(): void {
    this.lastStartFailure = '';
  }

  get cpuSeconds(): number {
    return this.options.cpuSeconds;
  }

  /** Starts every sandbox process now, so that the first statements do not wait for one. */
  async warmUp(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.warmUp()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.close()));
  }
}

interface Pending {
  /** Rows sent ahead of the reply. */
  rows: SqlValue[][];
  resolve: (result: QueryResultSet) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One sandbox process at a time: started on demand, replaced after a kill or a crash. */
class Slot {
  busy = false;
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private pending: Pending | undefined;
  private crashes: number[] = [];
  private stderr = '';
  private closed = false;

  constructor(private readonly sandbox: DuckDBSandbox) {}

  async run(request: SandboxRequest, deadline: number): Promise<QueryResultSet> {
    try {
      const child = await this.started(deadline);
      return await new Promise<QueryResultSet>((resolve, reject) => {
        const timer = setTimeout(
          () => {
            this.pending = undefined;
            this.kill();
            reject(new SandboxTimeout('the query ran past the time limit and was stopped'));
          },
          Math.max(0, deadline - Date.now()),
        );
        this.pending = { rows: [], resolve, reject, timer };
        child.send(request);
      });
    } finally {
      this.retireIfWorn();
    }
  }

  async warmUp(): Promise<void> {
    this.ready ??= this.start();
    await this.ready.catch(() => undefined);
  }

  /** The running process, starting one (after the crash backoff) when there is none. */
  private started(deadline: number): Promise<ChildProcess> {
    this.ready ??= this.start();
    const ready = this.ready;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new SandboxTimeout('the query sandbox did not start within the time limit')),
        Math.max(0, deadline - Date.now()),
      );
      ready.then(
        (child) => {
          clearTimeout(timer);
          resolve(child);
        },
        (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  private async start(): Promise<ChildProcess> {
    const now = Date.now();
    this.crashes = this.crashes.filter((time) => now - time < CRASH_WINDOW_MS);
    if (this.crashes.length > 0) {
      const pause = Math.min(30_000, 250 * 2 ** (this.crashes.length - 1));
      await new Promise((resolve) => setTimeout(resolve, pause).unref());
    }
    if (this.closed) throw new SandboxUnavailable('the service is shutting down');
    const child = this.sandbox.spawnChild();
    this.child = child;
    this.stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2000);
    });
    child.on('message', (reply: SandboxReply | { ready: true }) => this.onReply(child, reply));
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    child.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      const onReady = (message: unknown): void => {
        if ((message as { ready?: boolean }).ready) {
          this.sandbox.started();
          child.off('message', onReady);
          child.off('exit', onEarlyExit);
          resolve(child);
        }
      };
      const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        const detail = firstProblemLine(this.stderr);
        const message = `the query sandbox could not start (${how}${detail ? `: ${detail}` : ''})`;
        const memory = signal === 'SIGKILL' || ranOutOfMemory(this.stderr);
        this.sandbox.startFailed(
          memory ? `${message}; is FXRATES_QUERY_MEMORY large enough?` : message,
        );
        reject(new SandboxUnavailable(message));
      };
      child.on('message', onReady);
      child.once('exit', onEarlyExit);
    });
  }

  private onReply(child: ChildProcess, reply: SandboxReply | { ready: true }): void {
    if (child !== this.child || 'ready' in reply) return;
    const pending = this.pending;
    if (!pending) return;
    if ('batch' in reply) {
      for (const row of reply.batch) pending.rows.push(row);
      return;
    }
    this.pending = undefined;
    clearTimeout(pending.timer);
    // A statement cut at the caps leaves its engine result unread, holding engine memory the
    // process may not get back soon: a fresh process takes the next statement.
    if (reply.ok && reply.cut) this.kill();
    if (reply.ok) {
      for (const row of reply.rows) pending.rows.push(row);
      pending.resolve({ columns: reply.columns, rows: pending.rows, cut: reply.cut });
    } else pending.reject(new SandboxRejection(limitsRefusal(reply.message) ?? reply.message));
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child) return;
    this.child = undefined;
    this.ready = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (this.closed) return;
    this.crashes.push(Date.now());
    // A replacement starts now (after the crash backoff), not when the next statement comes.
    this.ready = this.start();
    this.ready.catch(() => (this.ready = undefined));
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    // The process's own error output (native frames, paths, versions) goes to the log only.
    const detail = firstProblemLine(this.stderr);
    const memory = ranOutOfMemory(this.stderr);
    this.sandbox.stopped(
      `query sandbox: a process stopped ${pending ? 'while running a query' : 'while idle'} (${how}${detail ? `: ${detail}` : ''}); it is being restarted`,
    );
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(
        new SandboxUnavailable(
          `the query sandbox stopped while running this query (${how}${memory ? ', out of memory' : ''}); it is being restarted`,
        ),
      );
    }
  }

  /** Kills the process now (time limit, or a result cut short) and starts its replacement at once. */
  private kill(): void {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    child?.kill('SIGKILL');
    if (!this.closed) {
      this.ready = this.start();
      this.ready.catch(() => (this.ready = undefined));
    }
  }

  /** A process that has used half its CPU allowance is replaced before the limit can hit a query. */
  private retireIfWorn(): void {
    const pid = this.child?.pid;
    if (pid === undefined || this.pending) return;
    if (cpuSecondsOf(pid) > this.sandbox.cpuSeconds / 2) this.kill();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.ready?.catch(() => undefined);
    const child = this.child;
    this.kill();
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

/** CPU time a process has used (user + system), in seconds; 0 where /proc is absent. */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of the file (11 and 12 after the command name).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

interface Isolation {
  /** `unshare` arguments for a network namespace with no interfaces, when the system allows one. */
  network: string[] | undefined;
  prlimit: boolean;
}

let isolation: Isolation | undefined;

/** What this system offers to isolate a process, probed once. */
function probeIsolation(warn?: (message: string) => void): Isolation {
  if (isolation) return isolation;
  const works = (command: string, args: string[]): boolean =>
    spawnSync(command, args, { stdio: 'ignore', timeout: 5000 }).status === 0;
  const network = [['-n'], ['-r', '-n']].find((args) => works('unshare', [...args, 'true']));
  const prlimit = works('prlimit', ['--version']);
  if (!network) {
    warn?.(
      'query sandbox: no network namespace available (unshare -n failed); sandbox processes rely on DuckDB having no network access',
    );
  }
  if (!prlimit) {
    warn?.('query sandbox: prlimit not found; sandbox processes run without memory and CPU limits');
  }
  isolation = { network, prlimit };
  return isolation;
}

/**
 * The commands a sandbox process is started through: `unshare -n` (no network) and `prlimit`
 * (memory, CPU, no file writes, no core dumps, few open files).
 */
function launcherPrefix(options: DuckDBSandboxOptions): string[] {
  const { network, prlimit } = probeIsolation(options.warn);
  const prefix = network ? ['unshare', ...network, '--'] : [];
  if (!prlimit) return prefix;
  const cpu = Math.ceil(options.cpuSeconds);
  return [
    ...prefix,
    'prlimit',
    `--data=${options.memoryBytes}`,
    `--cpu=${cpu}:${cpu + 5}`,
    '--fsize=0',
    '--core=0',
    '--nofile=256',
    '--',
  ];
}

/**
 * The line of a process's error output that says what went wrong (an out-of-memory report, an
 * error), rather than the native stack printed after it; else its last line.
 */
function firstProblemLine(text: string): string {
  const problem = text
    .split('\n')
    .find((line) => /error|fatal|out of memory|bad_alloc|cannot|failed/i.test(line));
  return problem?.trim().slice(0, 300) ?? lastLine(text);
}

/** A process's error output says it ran out of memory (the engine's, or Node's heap). */
function ranOutOfMemory(stderr: string): boolean {
  return /memory|bad_alloc|allocat|heap limit/i.test(stderr);
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
}

/**
 * A statement stopped by the sandbox's memory or temporary-file limits, said as such: the
 * engine's own text names its internals and the sandbox's temporary paths.
 */
export function limitsRefusal(message: string): string | undefined {
  if (/^Out of Memory Error/i.test(message)) {
    return 'the statement needs more memory than the query sandbox allows (FXRATES_QUERY_MEMORY)';
  }
  if (/^IO Error: .*(duckdb_temp_storage|File too large|No space left)/i.test(message)) {
    return 'the statement needs more temporary storage than the query sandbox allows';
  }
  return undefined;
}
