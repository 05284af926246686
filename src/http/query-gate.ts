import { finished, type Writable } from 'node:stream';

/** The queue of the query endpoint is full. */
export class GateFull extends Error {}
/** A task waited in the queue until its deadline passed. */
export class GateTimeout extends Error {}

/**
 * At most `capacity` tasks run at once and at most `maxWaiting` wait, each until its own
 * deadline: a request's time limit counts from its arrival, queue time included.
 */
export class QueryGate {
  private running = 0;
  private readonly waiting: { start: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly capacity: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(deadline: number, task: () => Promise<T>): Promise<T> {
    if (this.running >= this.capacity) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new GateFull(`${this.capacity} queries are running and ${this.maxWaiting} waiting`);
      }
      await new Promise<void>((resolve, reject) => {
        const entry = {
          start: () => {
            clearTimeout(entry.timer);
            resolve();
          },
          timer: setTimeout(
            () => {
              this.waiting.splice(this.waiting.indexOf(entry), 1);
              reject(new GateTimeout('the query waited for a free sandbox past its time limit'));
            },
            Math.max(0, deadline - Date.now()),
          ),
        };
        this.waiting.push(entry);
      });
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next.start();
      else this.running--;
    }
  }
}

/**
 * Answers written but not yet taken by their clients. A client that reads slowly keeps its whole
 * answer in this process after its place in the gate is free for the next query; past `limit`
 * bytes of such answers (counting one more of the largest size), new queries are turned away.
 */
export class UnsentAnswers {
  private bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly largest: number,
  ) {}

  /** One more answer of the largest size would pass the limit. */
  get full(): boolean {
    return this.bytes + this.largest > this.limit;
  }

  /** Counts `bytes` until `response` has been handed to the operating system, or dropped. */
  hold(bytes: number, response: Writable): void {
    this.bytes += bytes;
    // Called at once for a response already closed (its client left while the answer was made).
    finished(response, () => (this.bytes -= bytes));
  }
}
