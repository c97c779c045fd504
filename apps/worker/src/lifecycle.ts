/**
 * What a process has opened, closed in reverse order on shutdown. A shutdown that arrives while
 * the process is still starting closes what exists so far; `closing` tells the start-up code to
 * stand down instead of reporting the interruption as a start-up failure.
 */
export class Resources {
  #closers: Array<() => Promise<void>> = [];
  #closing = false;

  get closing(): boolean {
    return this.#closing;
  }

  add(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  async closeAll(): Promise<void> {
    this.#closing = true;
    for (const close of this.#closers.reverse()) await close();
    this.#closers = [];
  }
}
