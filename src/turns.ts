/** At most a given number of holders at once; the others wait in order of arrival. */
export class Turns {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async take(): Promise<void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }

  /** Runs `work` in a turn of its own. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.take();
    try {
      return await work();
    } finally {
      this.give();
    }
  }
}
