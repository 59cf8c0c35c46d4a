/**
 * The contract of `ensureConfig`: the store knows which configuration its at-risk rows were built
 * with, rescores every row once when asked for another, with progress, and does nothing when asked
 * for the same one again (however the rows got there).
 */
import { DEFAULT_CONFIG, foldEventsByCustomer, resolveConfig, type StoreContext } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPages } from './atRiskReference.js';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, T0, byCustomerId, eventFactory } from './storeFixtures.js';

const a: StoreContext = { now: T0 + 10 * DAY_MS, config: DEFAULT_CONFIG };
/** Other rules: every state's base moved and the bands too, so every row changes. */
const b: StoreContext = {
  now: T0 + 11 * DAY_MS,
  config: resolveConfig({ bands: { critical: 90, high: 45, medium: 20 }, risk: { state_base: { active: 30, trialing: 55, billing_issue: 95 } } }),
};

/** Registers the configuration tests. */
export function describeConfigContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;
  const history = () => {
    const ev = eventFactory('cfg');
    return CUSTOMER_IDS.flatMap((id, i) => [
      ev('INITIAL_PURCHASE', id, T0 + i, i % 3 === 0 ? { period_type: 'TRIAL' } : {}),
      ...(i % 3 === 1 ? [ev('BILLING_ISSUE', id, T0 + DAY_MS + i)] : []),
    ]);
  };

  describe('configuration changes (ensureConfig)', () => {
    it('rescores every row once for another configuration, with progress, and then finds nothing to do', { timeout }, () =>
      withStore(factory, async (store) => {
        const events = history();
        await store.applyEvents(events, a);
        expect(await store.ensureConfig(a)).toEqual({ changed: false });

        const progress: [number, number][] = [];
        const check = await store.ensureConfig(b, (done, total) => progress.push([done, total]));
        expect(check).toEqual({ changed: true, rescored: CUSTOMER_IDS.length });
        expect(progress.at(-1)).toEqual([CUSTOMER_IDS.length, CUSTOMER_IDS.length]);
        for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
        expect(await store.ensureConfig(b)).toEqual({ changed: false });
        // An equal configuration in another object is the same configuration.
        expect(await store.ensureConfig({ ...b, config: JSON.parse(JSON.stringify(b.config)) })).toEqual({ changed: false });

        await expectAtRiskPages(store, byCustomerId(foldEventsByCustomer(events).values()), b, { limit: 4, min_score: 0 });
        expect(await store.ensureConfig(a)).toEqual({ changed: true, rescored: CUSTOMER_IDS.length });
      }),
    );

    it('finds nothing to do after another call already moved the rows to the configuration', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.applyEvents(history(), a);
        await store.atRisk({ limit: 1 }, b); // rescored implicitly
        expect(await store.ensureConfig(b)).toEqual({ changed: false });
      }),
    );

    it('rescores nothing in an empty store', { timeout }, () =>
      withStore(factory, async (store) => {
        const check = await store.ensureConfig(b);
        expect(check.changed ? check.rescored : 0).toBe(0);
        expect(await store.ensureConfig(b)).toEqual({ changed: false });
      }),
    );
  });
}
