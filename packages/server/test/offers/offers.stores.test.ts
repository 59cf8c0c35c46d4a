// Offers on each store's own dispatch log (memory, a SQLite file, PostgreSQL): a grant's record keeps
// its target, actor and detail, the person's cooldown holds across a restart, and two replicas on
// one database granting at once stay within the daily cap.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URGENCY_BY_ACTION, type Alert, type Offer, type SubscriberStore } from '@tenure/core';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiV2Client } from '../../src/backfill/apiV2Client.js';
import { createOfferGrants } from '../../src/offers/offerGrants.js';
import { fixedClock, openStore, type StoreSpec } from '../../src/index.js';
import { DAY, T0 } from '../helpers/fixtures.js';

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] || undefined;
if (TEST_DATABASE_URL === undefined) console.warn('[offers.stores] TEST_DATABASE_URL is not set: SKIPPING the PostgreSQL offers (CI sets it)');

const dir = mkdtempSync(join(tmpdir(), 'tenure-offer-stores-'));
const schema = `tenure_offers_${randomBytes(5).toString('hex')}`;
/** The PostgreSQL schemas the tests opened, dropped after them. */
const opened = new Set<string>();
const schemaFor = (name: string): string => {
  const full = `${schema}_${name}`;
  opened.add(full);
  return full;
};
let receiver: Server;
let baseUrl: string;
let grantsReceived = 0;
beforeAll(async () => {
  // RevenueCat: a real receiver answering 201 after a short delay (so concurrent grants overlap).
  receiver = createServer((req, res) => {
    grantsReceived += 1;
    req.resume().on('end', () => setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{"object":"customer"}'), 20));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v2`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  if (TEST_DATABASE_URL === undefined) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  // Every schema a test opened (`${schema}_<name>`), not the bare prefix, which no store ever creates.
  for (const name of opened) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  await client.end();
});

const stores: [string, (name: string) => StoreSpec, boolean, boolean][] = [
  ['memory', () => ({ kind: 'memory' }), true, false],
  ['sqlite', (name) => ({ kind: 'sqlite', path: join(dir, `${name}.db`) }), true, true],
  ['postgres', (name) => ({ kind: 'postgres', url: TEST_DATABASE_URL ?? '', schema: schemaFor(name) }), TEST_DATABASE_URL !== undefined, true],
];

const winback: Offer = { action: 'winback', entitlement: 'entl_pro', duration: 'P7D', duration_ms: 7 * DAY, auto: true, daily_cap: 3, cooldown: 'P30D', cooldown_ms: 30 * DAY };
const alertOf = (person: string): Alert => ({
  customer_id: person,
  person_id: person,
  state: 'churned',
  product_id: 'monthly',
  risk: { score: 100, band: 'critical', breakdown: { state: 100, billing_failures: 0, renewals: 0, inactivity: 0, trial_conversion: 0, cancel_reason: 0 } },
  recommendation: { action: 'winback', urgency: URGENCY_BY_ACTION.winback, reason: 'churned', priority: 1 },
});
const grantsOn = (store: SubscriberStore, clock = fixedClock(T0)) =>
  createOfferGrants({ offers: [winback], api: createApiV2Client({ baseUrl, apiKey: 'sk' }), project: 'p', log: store.dispatchLog, clock, logger: pino({ level: 'silent' }) });

describe.each(stores)('offers on the %s store’s dispatch log', (_name, spec, enabled, durable) => {
  it.runIf(enabled)('records the grant with target, actor and detail; the cooldown holds across a restart of a durable store', async () => {
    let store = await openStore(spec('restart'));
    try {
      const grants = grantsOn(store);
      const outcome = await grants.grant({ customer_id: 'ann', person_id: 'ann', risk_score: 100, urgency: 'immediate', action: 'winback', trigger: 'manual', actor: 'dana' });
      expect(outcome.kind).toBe('granted');
      const [record] = (await store.dispatchLog.list({ limit: 10, customer_id: 'ann' })).items;
      expect(record).toMatchObject({ channel: 'offer', action: 'winback', urgency: 'immediate', risk_score: 100, outcome: 'sent', trigger: 'manual', target: 'entl_pro', actor: 'dana' });
      expect(JSON.parse(record!.detail!)).toEqual({ entitlement: 'entl_pro', duration: 'P7D', expires_at: T0 + 7 * DAY, answer: { status: 201, body: { object: 'customer' } } });
      expect((await store.dispatchLog.tally(T0)).find((t) => t.channel === 'offer')).toEqual({ channel: 'offer', outcome: 'sent', count: 1 });
      if (!durable) return;
      await store.close();
      store = await openStore(spec('restart'));
      const again = await grantsOn(store, fixedClock(T0 + 29 * DAY)).grant({ customer_id: 'ann', person_id: 'ann', risk_score: 100, urgency: 'immediate', action: 'winback', trigger: 'manual', actor: 'dana' });
      expect(again.kind).toBe('cooldown');
    } finally {
      await store.close();
    }
  });

  it.runIf(enabled && durable)('two replicas on one database granting at once stay within the daily cap, each person once', async () => {
    const [a, b] = [await openStore(spec('replicas')), await openStore(spec('replicas'))];
    try {
      const people = Array.from({ length: 8 }, (_, i) => `p${i}`);
      // Both replicas see every person (as two auto-dispatches of one batch on two instances would).
      const [ra, rb] = await Promise.all([grantsOn(a!).grantAuto(people.map(alertOf)), grantsOn(b!).grantAuto([...people].reverse().map(alertOf))]);
      const granted = [...ra, ...rb].filter((o) => o.kind === 'granted');
      expect(granted).toHaveLength(winback.daily_cap);
      const sent = (await a!.dispatchLog.list({ limit: 100 })).items.filter((r) => r.channel === 'offer' && r.outcome === 'sent');
      expect(sent).toHaveLength(winback.daily_cap);
      expect(new Set(sent.map((r) => r.customer_id)).size).toBe(winback.daily_cap);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });
});
