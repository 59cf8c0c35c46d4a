// The harness of the export-import model tests (issue #10 §3, issue #12 §3): the same history
// delivered as webhooks to one memory store and imported from its data export (version 5 CSV) into
// another, each read back as the facts both paths must agree on.
import { Readable } from 'node:stream';
import { DEFAULT_CONFIG, monthlyValueCents, parseWebhook, type Subscriber, type SubscriberStore } from '@tenure/core';
import { createMemorySubscriberStore, fixedClock, importExport, openExportReader, type Rejection } from '@tenure/server';

/** What both paths must agree on: everything the export records (not activity, ids or event counts). */
export const facts = (s: Subscriber) => ({
  customer_id: s.customer_id,
  state: s.state,
  product_id: s.product_id,
  period_ends_at: s.period_ends_at,
  renewals: s.renewals,
  billing_failures: s.billing_failures,
  trial_started_at: s.trial_started_at,
  trial_ends_at: s.trial_ends_at,
  trial_converted_at: s.trial_converted_at,
  revenue: s.revenue ?? null,
  monthly_value_cents: monthlyValueCents(s),
  lifecycle_state: s.lifecycle_state ?? null,
  cancel_reason: s.cancel_reason ?? null,
  grace_ends_at: s.grace_ends_at ?? null,
  auto_resume_at: s.auto_resume_at ?? null,
  original_app_user_id: s.original_app_user_id ?? null,
  // Not compared: activity, event counts and ordering keys (the export records no uncancellation
  // or plan-change request time), and the time a pause was asked for (not in the export).
});

export type Facts = ReturnType<typeof facts>;

/** The facts of every subscriber of a store, in its listing order. */
export async function factsOf(store: SubscriberStore): Promise<Facts[]> {
  const out = [];
  for await (const s of store.list()) out.push(facts(s));
  return out;
}

/** Given webhook bodies (as sent) and the instant, applies each (read back from its JSON text) to a fresh memory store; returns its facts. */
export async function factsByWebhooks(bodies: Iterable<unknown>, now: number): Promise<Facts[]> {
  const ctx = { now, config: DEFAULT_CONFIG };
  const store = createMemorySubscriberStore();
  for (const body of bodies) {
    const parsed = parseWebhook(JSON.parse(JSON.stringify(body)));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    if (parsed.value.handled) await store.applyEvent(parsed.value.event, ctx);
  }
  return factsOf(store);
}

/** Given the text of a data export and its instant, imports it into a fresh memory store; returns its facts and the rejected rows. */
export async function factsByImport(csv: string, now: number): Promise<{ facts: Facts[]; rejections: Rejection[] }> {
  const opened = await openExportReader(Readable.from([Buffer.from(csv)]));
  if (!opened.ok) throw new Error(opened.error.message);
  const store = createMemorySubscriberStore();
  const report = await importExport(store, opened.value, { clock: fixedClock(now), config: DEFAULT_CONFIG, asOf: now });
  return { facts: await factsOf(store), rejections: report.rejections };
}
