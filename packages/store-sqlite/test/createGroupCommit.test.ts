// The group commit's batching and its hold: what the WAL checkpointer asks for while it folds the
// WAL's last frames into the file.
import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../src/internal/createGroupCommit.js';

/** A group commit that records each batch it runs and answers each item doubled. */
function recording() {
  const batches: number[][] = [];
  const commits = createGroupCommit<number, number>((items) => (batches.push(items), items.map((i) => i * 2)), () => 'k', 500);
  return { batches, commits };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createGroupCommit', () => {
  it('runs what one turn submitted as one batch', async () => {
    const { batches, commits } = recording();
    const results = await Promise.all([commits.submit(1), commits.submit(2), commits.submit(3)]);
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('keeps submissions waiting while held, and runs them as one batch on release', async () => {
    const { batches, commits } = recording();
    commits.hold();
    const settled: number[] = [];
    const first = commits.submit(1).then((r) => settled.push(r));
    await turn();
    const second = commits.submit(2).then((r) => settled.push(r));
    await turn();
    await turn();
    expect(batches).toEqual([]);
    expect(settled).toEqual([]);
    commits.release();
    await Promise.all([first, second]);
    expect(batches).toEqual([[1, 2]]);
    expect(settled).toEqual([2, 4]);
  });

  it('holds a batch whose turn had already been scheduled when the hold came', async () => {
    const { batches, commits } = recording();
    const result = commits.submit(1);
    commits.hold();
    await turn();
    await turn();
    expect(batches).toEqual([]);
    commits.release();
    expect(await result).toBe(2);
    expect(batches).toEqual([[1]]);
  });

  it('runs everything on flush, held or not (before closing, an import or a transfer)', async () => {
    const { batches, commits } = recording();
    commits.hold();
    const result = commits.submit(1);
    commits.flush();
    expect(await result).toBe(2);
    expect(batches).toEqual([[1]]);
    commits.release(); // nothing left: no empty batch
    await turn();
    expect(batches).toEqual([[1]]);
  });

  it('tells the store\'s other writers when commits are no longer held', async () => {
    const { commits } = recording();
    let resumed = false;
    await commits.released(); // not held: at once
    commits.hold();
    const waiting = commits.released().then(() => (resumed = true));
    await turn();
    await turn();
    expect(resumed).toBe(false);
    commits.release();
    await waiting;
    expect(resumed).toBe(true);
  });

  it('fails only the item that fails when a batch of several fails', async () => {
    const commits = createGroupCommit<number, number>(
      (items) => items.map((i) => {
        if (i === 2) throw new Error('bad item');
        return i;
      }),
      () => 'k',
      500,
    );
    const outcomes = await Promise.allSettled([commits.submit(1), commits.submit(2), commits.submit(3)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
