/**
 * Group commit: the calls that arrive during one turn of the event loop (the webhooks of every
 * connection that had data in that poll) are run together in one transaction, and each caller's
 * promise resolves after that commit. A commit costs WAL writes, file locks and page reads shared
 * by everything in it, so under concurrent load the cost per event drops several-fold; a lone
 * caller waits only for the current turn to end (`setImmediate`).
 */

/**
 * Submits one item; `flush` runs everything submitted so far right away (before closing, an import
 * or a transfer), held or not. `hold` keeps the turn's batch waiting (submissions queue up) until
 * `release`, which runs what queued meanwhile: the WAL checkpointer holds commits for the moment it
 * takes to fold the WAL's last frames into the file, so that the WAL can start over.
 */
export interface GroupCommit<I, O> {
  submit(item: I): Promise<O>;
  flush(): void;
  hold(): void;
  release(): void;
  /** Resolves once commits are not held (at once when they are not): the store's other writers (`applyEvents`, an import's batches) wait on it too. */
  released(): Promise<void>;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Given `run` (one transaction over items sharing a key, returning one result per item), the key
 * and a maximum batch size, returns the group commit. Consecutive items with another key start a
 * new batch. When a batch of several fails, each of its items is run alone, so one bad item fails
 * only its own caller.
 */
export function createGroupCommit<I, O>(run: (items: I[]) => O[], keyOf: (item: I) => string, maxBatch: number): GroupCommit<I, O> {
  let queue: Pending<I, O>[] = [];
  let scheduled = false;
  let held = false;
  let waiting: (() => void)[] = [];

  const settle = (batch: Pending<I, O>[]) => {
    try {
      const results = run(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const p of batch) settle([p]);
    }
  };

  const flush = () => {
    scheduled = false;
    const pending = queue;
    queue = [];
    let start = 0;
    while (start < pending.length) {
      const key = keyOf(pending[start]!.item);
      let end = start + 1;
      while (end < pending.length && end - start < maxBatch && keyOf(pending[end]!.item) === key) end++;
      settle(pending.slice(start, end));
      start = end;
    }
  };

  /** The turn's end: the batch runs, unless commits are held (then `release` runs it). */
  const turnEnded = () => {
    if (held) scheduled = false;
    else flush();
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!scheduled && !held) {
          scheduled = true;
          setImmediate(turnEnded);
        }
      });
    },
    flush,
    hold() {
      held = true;
    },
    release() {
      if (!held) return;
      held = false;
      if (queue.length > 0 && !scheduled) {
        scheduled = true;
        setImmediate(turnEnded);
      }
      const resume = waiting;
      waiting = [];
      for (const resolve of resume) resolve();
    },
    released() {
      return held ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();
    },
  };
}
