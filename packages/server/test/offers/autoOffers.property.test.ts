// Automatic offers for any sequence of dispatches, clock moves and RevenueCat refusals: at most
// `daily_cap` grants per offer and UTC day, never two to one person within the cooldown, and (the
// model beside it) every grant the rules allow is made. RevenueCat is a real HTTP receiver on
// 127.0.0.1 answering 201, or 500 for the customers the run makes it refuse.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { URGENCY_BY_ACTION, type Action, type Alert, type Offer } from '@tenure/core';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiV2Client } from '../../src/backfill/apiV2Client.js';
import { fixedClock } from '../../src/clock/clock.js';
import { createMemoryDispatchLog } from '../../src/dispatch/dispatchLog.js';
import { createOfferGrants } from '../../src/offers/offerGrants.js';
import { DAY, T0 } from '../helpers/fixtures.js';

const HOUR = 3_600_000;

let server: Server;
let url: string;
/** Customers the receiver refuses (500) in the current run. */
let refused = new Set<string>();
let received = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    const customer = decodeURIComponent(/\/customers\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '');
    received += 1;
    req.resume().on('end', () => {
      const status = refused.has(customer) ? 500 : 201;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(status === 201 ? { object: 'customer', id: customer } : { type: 'server_error', message: 'down' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const offer = (action: Action, daily_cap: number, cooldownDays: number): Offer => ({
  action, entitlement: 'pro', duration: 'P7D', duration_ms: 7 * DAY, auto: true, daily_cap, cooldown: `P${cooldownDays}D`, cooldown_ms: cooldownDays * DAY,
});

/** An alert recommending `action` to `person` (what a dispatch plans). */
const alertOf = (person: string, action: Action): Alert => ({
  customer_id: person,
  person_id: person,
  state: 'churned',
  product_id: 'monthly',
  risk: { score: 80, band: 'critical', breakdown: { state: 80, billing_failures: 0, renewals: 0, inactivity: 0, trial_conversion: 0, cancel_reason: 0 } },
  recommendation: { action, urgency: URGENCY_BY_ACTION[action], reason: 'test', priority: 1 },
});

const step = fc.oneof(
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2 * DAY }) }),
  fc.record({ kind: fc.constant('dispatch' as const), alerts: fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom<Action>('winback', 'loyalty_discount', 'trial_nudge')), { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('refuse' as const), people: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 3 }) }),
);

describe('automatic offers', () => {
  it('grant at most daily_cap per offer and UTC day, never twice to one person within the cooldown, and (without a failing grant beside them) every grant the rules allow', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 5 }), fc.array(step, { maxLength: 25 }), async (cap, cooldownDays, steps) => {
        refused = new Set();
        const clock = fixedClock(T0 + 13 * HOUR);
        const log = createMemoryDispatchLog();
        const offers = [offer('winback', cap, cooldownDays), offer('loyalty_discount', cap + 1, cooldownDays), { ...offer('trial_nudge', 9, 1), auto: false }];
        const grants = createOfferGrants({ offers, api: createApiV2Client({ baseUrl: url, apiKey: 'sk', maxRetries: 0 }), project: 'p', log, clock, logger: pino({ level: 'silent' }) });
        // The model: granted instants per action and person, and per action and day.
        const lastGrant = new Map<string, number>();
        const perDay = new Map<string, number>();
        for (const s of steps) {
          if (s.kind === 'advance') clock.set(clock.now() + s.ms);
          else if (s.kind === 'refuse') refused = new Set(s.people.map((p) => `c${p}`));
          else {
            const alerts = s.alerts.map(([p, action]) => alertOf(`c${p}`, action));
            const outcomes = await grants.grantAuto(alerts);
            const now = clock.now();
            const day = Math.floor(now / DAY);
            // Expected: distinct (action, person) pairs with an automatic offer, in order.
            const seen = new Set<string>();
            const expected: string[] = [];
            for (const [p, action] of s.alerts) {
              const key = `${action}|c${p}`;
              const o = offers.find((x) => x.action === action)!;
              if (!o.auto || seen.has(key)) continue;
              seen.add(key);
              const last = lastGrant.get(key);
              expected.push(last !== undefined && now < last + o.cooldown_ms ? 'cooldown' : refused.has(`c${p}`) ? 'failed_or_cap' : 'granted_or_cap');
            }
            expect(outcomes).toHaveLength(expected.length);
            // Concurrent grants of one call: which of them the cap lets through is a race, how many is not.
            for (const action of ['winback', 'loyalty_discount'] as const) {
              const o = offers.find((x) => x.action === action)!;
              const mine = [...seen].map((key, i) => ({ key, i })).filter(({ key }) => key.startsWith(`${action}|`));
              const left = o.daily_cap - (perDay.get(`${action}|${day}`) ?? 0);
              const willSucceed = mine.filter(({ i }) => expected[i] === 'granted_or_cap').length;
              const granted = mine.filter(({ i }) => outcomes[i]!.kind === 'granted');
              // A concurrent grant that fails gives its place back only once it has failed: one turned
              // away meanwhile waits for the next dispatch. Without failures, exactly what the cap leaves.
              const failing = mine.some(({ i }) => expected[i] === 'failed_or_cap');
              if (failing) expect(granted.length).toBeLessThanOrEqual(Math.min(left, willSucceed));
              else expect(granted.length).toBe(Math.min(left, willSucceed));
              for (const { key, i } of mine) {
                const kind = outcomes[i]!.kind;
                if (expected[i] === 'cooldown') expect(kind).toBe('cooldown');
                else if (expected[i] === 'failed_or_cap') expect(['failed', 'cap_reached']).toContain(kind);
                else expect(['granted', 'cap_reached']).toContain(kind);
                if (kind === 'granted') lastGrant.set(key, now);
              }
              perDay.set(`${action}|${day}`, (perDay.get(`${action}|${day}`) ?? 0) + granted.length);
            }
          }
        }
        // The log agrees: sent automatic grants per offer and day within the cap, per person apart by the cooldown.
        const { items } = await log.list({ limit: 10_000 });
        const sent = items.filter((r) => r.channel === 'offer' && r.outcome === 'sent').reverse();
        const days = new Map<string, number>();
        const people = new Map<string, number>();
        for (const r of sent) {
          expect(r.trigger).toBe('auto');
          const o = offers.find((x) => x.action === r.action)!;
          const dayKey = `${r.action}|${Math.floor(r.at / DAY)}`;
          days.set(dayKey, (days.get(dayKey) ?? 0) + 1);
          expect(days.get(dayKey)).toBeLessThanOrEqual(o.daily_cap);
          const last = people.get(`${r.action}|${r.customer_id}`);
          if (last !== undefined) expect(r.at - last).toBeGreaterThanOrEqual(o.cooldown_ms);
          people.set(`${r.action}|${r.customer_id}`, r.at);
        }
      }),
      { numRuns: 200 },
    );
    expect(received).toBeGreaterThan(0);
  });
});
