// The population generator (issue #12 §3): seeded and reproducible, every webhook in the billing
// service's real shape (the retention service's parseWebhook accepts each one), each customer's
// webhooks folding with the core to the state its truth says, activity and records in the lines
// `tenure import` reads, and every lifecycle of the model present in a population.
import { foldEvents, parseExportLine, parseWebhook, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { generatePopulation, populationWindow, type GeneratedCustomer } from '../../src/population/generatePopulation.js';
import { activityText, recordText, truthLine, webhookLines } from '../../src/population/populationLines.js';

const text = (customers: Iterable<GeneratedCustomer>) => {
  let out = '';
  for (const c of customers) out += recordText(c, webhookLines(c)) + truthLine(c);
  return out;
};

/** One population of 2,000 customers over a year, shared by the tests that read it. */
const population = [...generatePopulation({ customers: 2000, months: 12, seed: 'population-test' })];

/** The handled events of a customer, each as parseWebhook returns it from the JSON text. */
function parsedEvents(c: GeneratedCustomer): HandledEvent[] {
  return c.events.flatMap((body) => {
    const parsed = parseWebhook(JSON.parse(JSON.stringify(body)));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return parsed.value.handled ? [parsed.value.event] : [];
  });
}

describe('generatePopulation', () => {
  it('gives the same bytes for the same seed, and other bytes for another seed', () => {
    const options = { customers: 150, months: 6, seed: 'same' };
    const a = text(generatePopulation(options));
    expect(text(generatePopulation(options))).toBe(a);
    expect(text(generatePopulation({ ...options, seed: 'other' }))).not.toBe(a);
  });

  it('generates each customer the same whatever the population size (per-customer streams)', () => {
    const small = [...generatePopulation({ customers: 40, months: 12, seed: 'prefix' })];
    const large = [...generatePopulation({ customers: 90, months: 12, seed: 'prefix' })];
    expect(text(large.slice(0, 40))).toBe(text(small));
  });

  it('gives every event its own id and every transaction its own id, across customers', () => {
    const eventOwner = new Map<string, string>();
    const transactionOwner = new Map<string, string>();
    const repeats: string[] = [];
    for (const c of population) {
      for (const { event } of c.events) {
        const before = eventOwner.get(event.id);
        if (before !== undefined) repeats.push(`event ${event.id} of ${before} and ${c.customer_id}`);
        eventOwner.set(event.id, c.customer_id);
        const transaction = 'transaction_id' in event ? event.transaction_id : null;
        if (typeof transaction !== 'string') continue;
        const owner = transactionOwner.get(transaction);
        if (owner !== undefined && owner !== c.customer_id) repeats.push(`transaction ${transaction} of ${owner} and ${c.customer_id}`);
        transactionOwner.set(transaction, c.customer_id);
      }
    }
    expect(eventOwner.size).toBeGreaterThan(8000);
    expect(repeats).toEqual([]);
  });

  it('sends only bodies the retention service accepts: parseWebhook takes every one, and handles every type', () => {
    let count = 0;
    for (const c of population) {
      for (const body of c.events) {
        const parsed = parseWebhook(JSON.parse(JSON.stringify(body)));
        expect(parsed.ok, JSON.stringify(body)).toBe(true);
        if (parsed.ok) expect(parsed.value.handled).toBe(true);
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(8000);
  });

  it("folds each customer's webhooks with the core to the state, product and counts its truth says", () => {
    for (const c of population) {
      const subscriber = foldEvents(parsedEvents(c));
      expect(subscriber, c.customer_id).toBeDefined();
      const folded = { state: subscriber!.state, product_id: subscriber!.product_id, renewals: subscriber!.renewals, billing_failures: subscriber!.billing_failures };
      const truth = { state: c.truth.state, product_id: c.truth.product_id, renewals: c.truth.renewals, billing_failures: c.truth.billing_failures };
      expect(folded, c.customer_id).toEqual(truth);
    }
  });

  it("writes activity and records as tenure export's lines (parseExportLine reads every one, activity of its customer)", () => {
    for (const c of population.slice(0, 300)) {
      const lines = (text: string) => text.split('\n').filter((line) => line !== '');
      const activity = lines(activityText(c)).map((line) => parseExportLine(JSON.parse(line)));
      expect(activity.map((r) => (r.ok && r.value.record?.kind === 'activity' ? r.value.record : null))).toEqual(c.activity.map((at) => ({ kind: 'activity', customer_id: c.customer_id, at })));
      const records = lines(recordText(c, webhookLines(c))).map((line) => parseExportLine(JSON.parse(line)));
      expect(records.every((r) => r.ok && r.value.record !== null)).toBe(true);
      const times = records.map((r) => (r.ok && r.value.record !== null ? (r.value.record.kind === 'event' ? r.value.record.event.event_timestamp_ms : r.value.record.at) : NaN));
      expect(times).toEqual([...times].sort((x, y) => x - y));
    }
  });

  it('holds every lifecycle of the model: trials converted or not, renewals, failures with and without recovery, cancellations undone or not, pauses and resumes, refunds, plan changes, win-backs', () => {
    const count = (pred: (c: GeneratedCustomer) => boolean) => population.filter(pred).length;
    const has = (c: GeneratedCustomer, type: string, field?: string, value?: unknown) =>
      c.events.some((b) => b.event.type === type && (field === undefined || (b.event as Record<string, unknown>)[field] === value));
    const seen = {
      trial_converted: count((c) => has(c, 'RENEWAL', 'is_trial_conversion', true)),
      trial_not_converted: count((c) => c.truth.endings.some((e) => e.reason === 'trial_not_converted')),
      renewed: count((c) => has(c, 'RENEWAL', 'is_trial_conversion', false)),
      billing_issue_with_grace: count((c) => c.events.some((b) => b.event.type === 'BILLING_ISSUE' && b.event.grace_period_expiration_at_ms !== null)),
      billing_issue_without_grace: count((c) => c.events.some((b) => b.event.type === 'BILLING_ISSUE' && b.event.grace_period_expiration_at_ms === null)),
      expired_by_billing: count((c) => has(c, 'EXPIRATION', 'expiration_reason', 'BILLING_ERROR')),
      recovered: count((c) => c.events.some((b, i) => b.event.type === 'RENEWAL' && c.events.slice(0, i).some((p) => p.event.type === 'BILLING_ISSUE'))),
      cancelled: count((c) => has(c, 'CANCELLATION', 'cancel_reason', 'UNSUBSCRIBE')),
      uncancelled: count((c) => has(c, 'UNCANCELLATION')),
      paused: count((c) => has(c, 'EXPIRATION', 'expiration_reason', 'SUBSCRIPTION_PAUSED')),
      resumed: count((c) => c.events.some((b, i) => b.event.type === 'RENEWAL' && c.events[i - 1]?.event.type === 'EXPIRATION')),
      refunded: count((c) => has(c, 'CANCELLATION', 'cancel_reason', 'CUSTOMER_SUPPORT')),
      changed_plan: count((c) => has(c, 'PRODUCT_CHANGE')),
      won_back: count((c) => c.truth.win_backs > 0),
      declining: count((c) => c.truth.declines_before_cancel),
      silent: count((c) => !c.truth.declines_before_cancel),
    };
    for (const [kind, n] of Object.entries(seen)) expect(n, kind).toBeGreaterThan(3);
  });

  it('spans the window it names: every instant inside it', () => {
    const { start, end } = populationWindow({ customers: 1, months: 12, seed: 'x' });
    expect(end).toBe(Date.UTC(2027, 0, 1));
    for (const c of population) {
      for (const b of c.events) expect(b.event.event_timestamp_ms >= start && b.event.event_timestamp_ms <= end).toBe(true);
      for (const at of c.activity) expect(at > start && at < end).toBe(true);
    }
  });
});
