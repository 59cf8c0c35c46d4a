import { describe, expect, it } from 'vitest';
import { createMemoryDispatchLog, type DispatchEntry, type DispatchRecord } from './dispatchLog.js';

const entry = (customer_id: string): DispatchEntry => ({
  at: 0,
  customer_id,
  action: 'winback',
  urgency: 'immediate',
  risk_score: 100,
  channel: 'email',
  outcome: 'sent',
  attempt: 1,
  error: null,
  trigger: 'batch',
});

describe('createMemoryDispatchLog', () => {
  it('pages newest first with a cursor', async () => {
    const log = createMemoryDispatchLog();
    for (const c of ['a', 'b', 'c', 'd', 'e']) await log.append(entry(c));
    const first = await log.list({ limit: 2 });
    expect(first.items.map((r) => r.customer_id)).toEqual(['e', 'd']);
    const second = await log.list({ limit: 2, before: first.next_cursor! });
    expect(second.items.map((r) => r.customer_id)).toEqual(['c', 'b']);
    const third = await log.list({ limit: 2, before: second.next_cursor! });
    expect(third).toEqual({ items: [expect.objectContaining({ customer_id: 'a' })], next_cursor: null });
  });

  it('keeps only the latest `capacity` records, still newest first', async () => {
    const log = createMemoryDispatchLog(3);
    for (const c of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await log.append(entry(c));
    expect((await log.list({ limit: 10 })).items.map((r) => `${r.id}${r.customer_id}`)).toEqual(['7g', '6f', '5e']);
    expect((await log.list({ limit: 10, before: 6 })).items.map((r) => r.customer_id)).toEqual(['e']);
  });

  it('claims a cooldown once until it expires, and releases it on demand', async () => {
    const log = createMemoryDispatchLog();
    expect(await log.claimCooldown('k', 0, 100)).toBe(true);
    expect(await log.claimCooldown('k', 99, 100)).toBe(false);
    expect(await log.claimCooldown('k', 100, 100)).toBe(true);
    await log.releaseCooldown('k');
    expect(await log.claimCooldown('k', 101, 100)).toBe(true);
  });
});
