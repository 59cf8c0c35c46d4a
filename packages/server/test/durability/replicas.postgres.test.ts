// Issue #8's replica test: two real `tenure serve` processes on one PostgreSQL schema receive the same
// webhook stream, interleaved, with duplicates and reordering. Every event is applied exactly once,
// both replicas answer with one in-order fold, and an immediate alert goes out once per channel,
// not once per replica (the cooldown lives in the database).
import { assessSubscriber, DEFAULT_CONFIG, foldEventsByCustomer, type HandledEvent } from '@tenure/core';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatReceiver } from '@tenure/testkit';
import { DAY, T0, type WebhookBody } from '../helpers/fixtures.js';
import { startSmtpReceiver } from '@tenure/testkit';
import { chatKey, countKeys, mailKey } from './alertKeys.js';
import { TEST_DATABASE_URL, testSchema, warnIfNoPostgres } from './postgresSchema.js';
import { expectedAtRisk, readAtRisk, readSubscribers, recordView } from './readBack.js';
import { answered, sendAll, type Delivery } from './sendAll.js';
import { killServes, startServe } from './serveProcess.js';
import { eventId, generateStories, handledEvent, seededRandom, shuffled } from './webhookStream.js';

const NOW = T0 + 400 * DAY; // after every event: billing issues stay above 70, expirations at 100
const CLOCK = new Date(NOW).toISOString();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killServes();
  while (cleanups.length > 0) await cleanups.pop()!();
});

warnIfNoPostgres('the two-replica PostgreSQL durability test');

/** Merges queues into one list in a random interleaving that keeps each queue's own order. */
function interleave<T>(queues: T[][], random: () => number): T[] {
  const live = queues.filter((q) => q.length > 0).map((q) => [...q]);
  const out: T[] = [];
  while (live.length > 0) {
    const i = Math.floor(random() * live.length);
    out.push(live[i]!.shift()!);
    if (live[i]!.length === 0) live.splice(i, 1);
  }
  return out;
}

describe.skipIf(TEST_DATABASE_URL === undefined)('two tenure serve replicas on one PostgreSQL schema', () => {
  it('apply each event once, answer with one fold, and send each immediate alert once per channel', async () => {
    const schema = testSchema('replicas');
    cleanups.push(schema.drop);
    const smtp = await startSmtpReceiver();
    const chat = await startChatReceiver();
    cleanups.push(smtp.close, chat.close);
    const env = { SMTP_URL: smtp.url, ALERT_EMAIL_FROM: 'tenure@acme.test', ALERT_EMAIL_TO: 'ops@acme.test', SLACK_WEBHOOK_URL: chat.url };
    const args = ['--store', schema.spec, '--clock', CLOCK, '--alert-rate', '0'];
    // Both start at once on an empty schema: the migration must be safe for that too.
    const [a, b] = await Promise.all([startServe([...args, '--service-name', 'replica-a'], env), startServe([...args, '--service-name', 'replica-b'], env)]);

    const random = seededRandom(21);
    const stories = generateStories({ customers: 100, seed: 21, asciiIds: true, billingShare: 0.25, churnShare: 0.15 });
    const handled = new Map<string, HandledEvent>();
    for (const body of stories.flatMap((s) => s.bodies)) {
      const event = handledEvent(body);
      if (event !== undefined) handled.set(event.id, event);
    }
    // Per customer: events reordered, the one that raises the alert first (so every later event,
    // applied by either replica, finds the subscriber already alert-worthy); each event goes to both
    // replicas, and one in three a third time to either. Customers interleave at random.
    const queues = stories.map((story) => {
      const order = shuffled(story.bodies, random);
      if (story.immediate !== undefined) order.sort((x, y) => Number(y === story.immediate) - Number(x === story.immediate));
      return order.flatMap((body: WebhookBody): Delivery[] => {
        const copies = shuffled([a.url, b.url], random);
        if (random() < 0.33) copies.push(random() < 0.5 ? a.url : b.url);
        return copies.map((url) => ({ url: `${url}/webhook`, body }));
      });
    });
    const deliveries = interleave(queues, random);
    const outcomes = await sendAll(deliveries, 16);

    // Every copy got a 200, and each event was applied by exactly one replica, exactly once.
    const applied = new Map<string, number>();
    outcomes.forEach((outcome, i) => {
      const body = deliveries[i]!.body as WebhookBody;
      expect(answered(outcome) && outcome.status, `${eventId(body)}: ${JSON.stringify(outcome)}`).toBe(200);
      const result = (outcome as { body: { result: string } }).body.result;
      expect(handled.has(eventId(body)) ? ['applied', 'duplicate'] : ['ignored']).toContain(result);
      if (result === 'applied') applied.set(eventId(body), (applied.get(eventId(body)) ?? 0) + 1);
    });
    expect(applied.size).toBe(handled.size);
    expect([...applied.values()].every((n) => n === 1)).toBe(true);

    // Either replica answers with the in-order fold of the stream, and the same at-risk list.
    const expected = foldEventsByCustomer(stories.flatMap((s) => s.bodies).flatMap((body) => handledEvent(body) ?? []));
    const reference = expectedAtRisk(expected.values(), NOW, DEFAULT_CONFIG, 0);
    for (const replica of [a, b]) {
      const read = await readSubscribers(replica.url, expected.keys());
      for (const [id, subscriber] of expected) expect(read.get(id), `${id} via ${replica.url}`).toEqual(recordView(subscriber));
      expect(await readAtRisk(replica.url, 0)).toEqual(reference);
    }

    // A graceful stop waits for pending alerts, so the receivers now hold everything that was sent.
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    const alertWorthy = [...expected.values()]
      .map((s) => ({ id: s.customer_id, top: assessSubscriber(s, NOW, DEFAULT_CONFIG).recommendations[0] }))
      .filter(({ top }) => top?.urgency === 'immediate');
    expect(alertWorthy.length).toBeGreaterThan(25);
    const once = Object.fromEntries(alertWorthy.map(({ id, top }) => [`${id}|${top!.action}`, 1]));
    expect(Object.fromEntries(countKeys(chat.posts.map(chatKey)))).toEqual(once);
    expect(Object.fromEntries(countKeys(smtp.mails.map(mailKey)))).toEqual(once);
  }, 60_000);
});
