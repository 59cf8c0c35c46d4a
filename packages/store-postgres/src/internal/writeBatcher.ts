/**
 * Group commit for webhooks: concurrent `applyEvent` calls of one process are written together, one
 * transaction (and one WAL flush) per batch instead of per event. Each call still resolves only
 * after the commit that holds its event, so "200 only after commit" stands; under light load a
 * batch is a single event and starts at once, so latency does not wait for a timer.
 */

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export interface WriteBatcherOptions<I, O> {
  /** Writes a batch; resolves with one result per item, in order. */
  run: (items: I[]) => Promise<O[]>;
  /** Items that may share a batch have the same key (the configuration they are assessed with). */
  key: (item: I) => unknown;
  maxBatch: number;
  /** Batches in flight at once (each holds one connection while it runs). */
  maxInFlight: number;
}

/** A queue that runs submitted items in batches; `submit` resolves with the item's own result. */
export class WriteBatcher<I, O> {
  readonly #queue: Pending<I, O>[] = [];
  #head = 0;
  #inFlight = 0;
  #idle: (() => void)[] = [];

  constructor(private readonly options: WriteBatcherOptions<I, O>) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#pump();
    });
  }

  /** Resolves once every submitted item has been written (or has failed). */
  drained(): Promise<void> {
    if (this.#inFlight === 0 && this.#head === this.#queue.length) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    const { maxBatch, maxInFlight, key, run } = this.options;
    while (this.#inFlight < maxInFlight && this.#head < this.#queue.length) {
      const batchKey = key(this.#queue[this.#head]!.item);
      const batch: Pending<I, O>[] = [];
      while (batch.length < maxBatch && this.#head < this.#queue.length && key(this.#queue[this.#head]!.item) === batchKey) {
        batch.push(this.#queue[this.#head++]!);
      }
      if (this.#head === this.#queue.length || this.#head > 4096) {
        this.#queue.splice(0, this.#head); // drop what was taken, so the queue stays as long as the backlog
        this.#head = 0;
      }
      this.#inFlight += 1;
      run(batch.map((p) => p.item))
        .then(
          (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
          (error: unknown) => batch.forEach((p) => p.reject(error)),
        )
        .finally(() => {
          this.#inFlight -= 1;
          this.#pump();
          if (this.#inFlight === 0 && this.#head === this.#queue.length) for (const resolve of this.#idle.splice(0)) resolve();
        });
    }
  }
}
