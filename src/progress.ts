/** Where progress goes: stderr, or a test's capture. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Nothing is shown for work that ends sooner. */
  delayMs?: number;
  /** Not on a terminal: one line this often at most. */
  lineEveryMs?: number;
  now?: () => number;
}

/**
 * Progress of a long piece of work on one line: redrawn in place on a terminal, otherwise an
 * occasional line (a log file gets a few lines, not thousands). Work that ends within the delay
 * shows nothing.
 */
export class ProgressLine {
  private readonly started: number;
  private lastShown = 0;
  private drawn = false;
  private readonly delayMs: number;
  private readonly lineEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly stream: ProgressStream,
    options: ProgressOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.delayMs = options.delayMs ?? 3_000;
    this.lineEveryMs = options.lineEveryMs ?? 10_000;
  }

  /** Offers the current state; `text` is only called when a line is due. */
  update(text: () => string): void {
    const now = this.now();
    if (now - this.started < this.delayMs) return;
    const every = this.stream.isTTY ? 200 : this.lineEveryMs;
    if (this.lastShown !== 0 && now - this.lastShown < every) return;
    this.lastShown = now;
    const line = text();
    if (this.stream.isTTY) {
      const width = Math.max(20, (this.stream.columns ?? 80) - 1);
      const shown = line.length > width ? `${line.slice(0, width - 3)}...` : line;
      this.stream.write(`\r\x1b[2K${shown}`);
      this.drawn = true;
    } else {
      this.stream.write(`${line}\n`);
    }
  }

  /** Clears the line on a terminal, so that the closing report starts on a clean line. */
  done(): void {
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}

/** 104857600 → "100.0 MB". */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Seconds with one decimal for the closing lines: 1234 → "1.2 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
