// Issue #8's crash test: a real `tenure serve` on a SQLite file, killed with SIGKILL in the middle of a
// stream of webhooks, loses no acknowledged event, and once the sender has retried what it could not
// confirm (and redelivered some of what it could), nothing is missing and nothing is counted twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, foldEventsByCustomer, recordActivity, type HandledEvent, type Subscriber } from '@tenure/core';
import { openSqliteStore } from '@tenure/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, T0, type WebhookBody } from '../helpers/fixtures.js';
import { expectedAtRisk, readAtRisk, readSubscribers, recordView } from './readBack.js';
import { answered, sendAll, startSlowPost, type Delivery, type Outcome } from './sendAll.js';
import { killServes, startServe } from './serveProcess.js';
import { eventId, generateStories, handledEvent, seededRandom, shuffled } from './webhookStream.js';

const NOW = T0 + 400 * DAY; // after every generated event: scores are fixed, not moving with the wall clock
const CLOCK = new Date(NOW).toISOString();

const dirs: string[] = [];
afterEach(async () => {
  await killServes();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An app-reported activity: POST /api/subscribers/:id/activity (idempotent: the store keeps the latest). */
interface Activity {
  customer_id: string;
  at: number;
}

type Item = { kind: 'event'; body: WebhookBody } | { kind: 'activity'; activity: Activity };

const toDelivery = (url: string) => (item: Item): Delivery =>
  item.kind === 'event'
    ? { url: `${url}/webhook`, body: item.body }
    : { url: `${url}/api/subscribers/${encodeURIComponent(item.activity.customer_id)}/activity`, body: { at: item.activity.at } };

/** The subscribers the service must hold after these events and activity reports. */
function expectedSubscribers(events: readonly HandledEvent[], activity: readonly Activity[]): Map<string, Subscriber> {
  const subscribers = foldEventsByCustomer(events);
  for (const { customer_id, at } of activity) {
    const s = subscribers.get(customer_id);
    if (s !== undefined) subscribers.set(customer_id, recordActivity(s, at));
  }
  return subscribers;
}

describe('tenure serve on SQLite, killed with SIGKILL mid-stream', () => {
  it('keeps every acknowledged event; after retries the subscribers equal the fold of all events, none counted twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-crash-'));
    dirs.push(dir);
    const path = join(dir, 'tenure.db');
    const random = seededRandom(8);
    const stories = generateStories({ customers: 320, seed: 8 });
    const bodies = stories.flatMap((s) => s.bodies);
    const handled = new Map<string, HandledEvent>();
    for (const body of bodies) {
      const event = handledEvent(body);
      if (event !== undefined) handled.set(event.id, event);
    }
    // Some customers' apps report activity too. A report that arrives before the customer's first
    // event is a 404 (nothing is created); the sender sends every report again at the end.
    const activity: Activity[] = stories.filter(() => random() < 0.3).map((s) => ({ customer_id: s.customer_id, at: T0 + Math.floor(random() * 360 * DAY) }));
    // One event is kept aside to be half-sent at the moment of the crash.
    const slowBody = bodies.find((b) => handled.has(eventId(b)))!;
    const items: Item[] = shuffled(
      [...bodies.filter((b) => b !== slowBody).map((body) => ({ kind: 'event' as const, body })), ...activity.map((a) => ({ kind: 'activity' as const, activity: a }))],
      random,
    );
    expect(handled.size).toBeGreaterThan(2000);

    // 1. Stream at 32 requests in flight. Once a third of the stream is acknowledged, a slow client
    //    starts a request and sends half its body, and the service is killed with SIGKILL: that request,
    //    and whichever of the stream's were in flight, get no answer.
    const first = await startServe(['--store', `sqlite:${path}`, '--clock', CLOCK]);
    let acknowledged = 0;
    let killed = false;
    let slow: ReturnType<typeof startSlowPost> | undefined;
    let crashing: Promise<void> | undefined;
    const crash = async () => {
      slow = startSlowPost(`${first.url}/webhook`, slowBody);
      await slow.written;
      await new Promise((resolve) => setTimeout(resolve, 20));
      killed = true;
      process.kill(first.pid, 'SIGKILL');
    };
    const outcomes = await sendAll(items.map(toDelivery(first.url)), 32, {
      after: (_i, outcome) => {
        if (answered(outcome) && outcome.status === 200 && ++acknowledged >= items.length / 3) crashing ??= crash();
      },
      stop: () => killed,
    });
    await crashing;
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(answered(await slow!.outcome)).toBe(false);

    const acked = new Set<string>(); // events that got a 200 (applied, duplicate or ignored)
    const unconfirmed = new Set<string>([eventId(slowBody)]); // sent, but the answer was lost to the crash
    const ackedActivity: Activity[] = [];
    outcomes.forEach((outcome: Outcome | undefined, i) => {
      const item = items[i]!;
      if (outcome === undefined) return; // never sent
      if (item.kind === 'activity') {
        if (answered(outcome) && outcome.status === 200) ackedActivity.push(item.activity);
        return;
      }
      const id = eventId(item.body);
      if (answered(outcome)) {
        expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
        acked.add(id);
      } else unconfirmed.add(id);
    });
    const neverSent = outcomes.filter((o) => o === undefined).length;
    // The kill really was mid-stream: most of the stream was still to be sent.
    expect(neverSent).toBeGreaterThan(items.length / 3);

    // 2. The file, read directly while no process holds it: every acknowledged event is stored, once;
    //    the only others are events whose answer was lost in flight; each stored subscriber is the
    //    fold of its stored events (event and projection were committed together).
    const stored = new Set<string>();
    const storedActivity: Activity[] = [];
    const storedSubscribers = new Map<string, Subscriber>();
    const direct = await openSqliteStore({ path });
    try {
      let storedEvents = 0;
      for await (const record of direct.records()) {
        if (record.kind === 'event') {
          storedEvents++;
          stored.add(record.event.id);
        } else storedActivity.push({ customer_id: record.customer_id, at: record.at });
      }
      expect(storedEvents).toBe(stored.size);
      for await (const subscriber of direct.list()) storedSubscribers.set(subscriber.customer_id, subscriber);
    } finally {
      await direct.close();
    }
    const ackedHandled = [...acked].filter((id) => handled.has(id));
    expect(ackedHandled.filter((id) => !stored.has(id))).toEqual([]);
    expect([...stored].filter((id) => !acked.has(id) && !unconfirmed.has(id))).toEqual([]);
    for (const a of ackedActivity) {
      expect(storedActivity.find((s) => s.customer_id === a.customer_id)?.at ?? -1).toBeGreaterThanOrEqual(a.at);
    }
    const afterCrash = expectedSubscribers(
      [...stored].map((id) => handled.get(id)!),
      storedActivity,
    );
    expect(storedSubscribers).toEqual(afterCrash);

    // 3. Restarted on the same file, the service's at-risk index holds exactly those subscribers.
    const second = await startServe(['--store', `sqlite:${path}`, '--clock', CLOCK]);
    expect(await readAtRisk(second.url, 0)).toEqual(expectedAtRisk(afterCrash.values(), NOW, DEFAULT_CONFIG, 0));

    // 4. The sender retries everything unconfirmed or never sent, and the billing service redelivers
    //    a tenth of what was acknowledged; activity reports are all sent again (they are idempotent).
    const redelivered = bodies.filter((b) => acked.has(eventId(b)) && random() < 0.1);
    const retry = shuffled([...bodies.filter((b) => !acked.has(eventId(b))), ...redelivered], random);
    const retried = await sendAll(
      retry.map((body) => ({ url: `${second.url}/webhook`, body })),
      16,
    );
    const results = retried.map((o, i) => {
      expect(answered(o) && o.status, `${eventId(retry[i]!)}: ${JSON.stringify(o)}`).toBe(200);
      return (o as { body: { result: string } }).body.result;
    });
    const count = (r: string) => results.filter((x) => x === r).length;
    // Applied exactly once each: what the crash left unstored; everything already stored is a duplicate.
    expect(count('applied')).toBe([...handled.keys()].filter((id) => !stored.has(id)).length);
    expect(count('duplicate')).toBe(retry.filter((b) => stored.has(eventId(b))).length);
    const activityResults = await sendAll(activity.map((a) => toDelivery(second.url)({ kind: 'activity', activity: a })), 8);
    expect(activityResults.map((o) => answered(o) && o.status)).toEqual(activity.map(() => 200));

    // 5. Nothing lost, nothing double-counted: every subscriber equals the fold of all events.
    const expected = expectedSubscribers([...handled.values()], activity);
    const final = await readSubscribers(second.url, expected.keys());
    for (const [id, subscriber] of expected) expect(final.get(id), id).toEqual(recordView(subscriber));
    // And the at-risk index over everyone (min_score 0) is the reference order, with the reference scores.
    expect(await readAtRisk(second.url, 0)).toEqual(expectedAtRisk(expected.values(), NOW, DEFAULT_CONFIG, 0));
    expect(await second.stop()).toBe(0);
  }, 60_000);
});
