/** At most a given number of holders at once; the others wait in order of arrival. */
export class Turns {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  /** Whether every turn is taken (someone may wait): a newcomer would not get one at once. */
  get busy(): boolean {
    return this.free === 0;
  }

  /** Waits for a turn; when `signal` aborts first, stops waiting and throws its reason. */
  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const turn = (): void => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = (): void => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(signal!.reason);
      };
      this.waiting.push(turn);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }

  /** Runs `work` in a turn of its own; nothing runs when `signal` aborts while it waits. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.take(signal);
    try {
      return await work();
    } finally {
      this.give();
    }
  }
}
