// A backfill and the webhooks of the same periods, into one store, in either order: the store
// counts purchases, renewals and billing failures per transaction (both carry the store's
// transaction id), so the second copy of a period is a duplicate and the subscribers are exactly
// the webhooks' (docs/import.md, "Backfill over API v2").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningBillingSim } from '@tenure/billing-sim';
import { DEFAULT_CONFIG, parseWebhook, transferEventSchema, type SubscriberStore } from '@tenure/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiV2Client } from '../../src/backfill/apiV2Client.js';
import { backfill } from '../../src/backfill/backfill.js';
import { fixedClock } from '../../src/clock/clock.js';
import { openStore } from '../../src/store/openStore.js';
import { byWebhooks, factsOf, populate, startSim } from './simPopulation.js';

let running: RunningBillingSim;
const dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-overlap-'));
beforeAll(async () => {
  running = await startSim(100_000, 60_000);
  populate(running, 24);
});
afterAll(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

const deliver = async (store: SubscriberStore) => {
  const ctx = { now: running.sim.now(), config: DEFAULT_CONFIG };
  for (const body of running.sim.events()) {
    const parsed = parseWebhook(JSON.parse(JSON.stringify(body)));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    if (parsed.value.handled) await store.applyEvent(parsed.value.event, ctx);
    else if (parsed.value.event.type === 'TRANSFER') await store.applyTransfer(transferEventSchema.parse(parsed.value.event), ctx);
  }
};
/** The sums the store counts per transaction: both copies of a period must count once. */
const sums = async (store: SubscriberStore) => {
  const out: { customer_id: string; renewals: number; billing_failures: number }[] = [];
  for await (const s of store.list()) out.push({ customer_id: s.customer_id, renewals: s.renewals, billing_failures: s.billing_failures });
  return out.sort((a, b) => (a.customer_id < b.customer_id ? -1 : 1));
};
const backfillInto = (store: SubscriberStore) =>
  backfill(store, createApiV2Client({ baseUrl: `${running.url}/v2`, apiKey: 'sk_test' }), { project: 'proj_sim', clock: fixedClock(running.sim.now()), config: DEFAULT_CONFIG });

describe('a backfill and the webhooks of the same periods', () => {
  it('webhooks first, then the backfill: the periods it reads again are duplicates', async () => {
    const store = await openStore({ kind: 'sqlite', path: join(dir, 'webhooks-first.db') });
    try {
      await deliver(store);
      const report = await backfillInto(store);
      expect(report.duplicate).toBeGreaterThan(0);
      const webhooks = await byWebhooks(running);
      expect(await factsOf(store)).toEqual(await factsOf(webhooks));
      expect(await sums(store)).toEqual(await sums(webhooks));
    } finally {
      await store.close();
    }
  });

  it('the backfill first, then the webhooks: the same subscribers', async () => {
    const store = await openStore({ kind: 'sqlite', path: join(dir, 'backfill-first.db') });
    try {
      await backfillInto(store);
      await deliver(store);
      const webhooks = await byWebhooks(running);
      expect(await factsOf(store)).toEqual(await factsOf(webhooks));
      expect(await sums(store)).toEqual(await sums(webhooks));
    } finally {
      await store.close();
    }
  });
});
