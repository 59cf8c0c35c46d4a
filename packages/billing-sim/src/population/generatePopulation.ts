/**
 * A population of subscribers with a known truth, generated customer by customer on a virtual clock:
 * each customer's webhooks (the simulator's own), its app activity and its ground truth, from the
 * behavioural model (`populationModel.ts`). Seeded: the same options give the same customers, byte
 * for byte, and customer `i` does not depend on how many come after it.
 */
import { addDuration } from '../internal/duration.js';
import type { WebhookBody } from '../machine/webhookEvents.js';
import { drawActivity } from './customerActivity.js';
import { customerStream } from './customerStreams.js';
import { walkCustomer, type LifecycleMarks } from './customerLifecycle.js';
import { drawTraits } from './customerTraits.js';
import { truthOf, type CustomerTruth } from './customerTruth.js';
import { createPopulationContext, newCustomer } from './populationContext.js';
import { DEFAULT_POPULATION_MODEL, type PopulationModel } from './populationModel.js';

/** The most months a population spans (transaction ids stay per customer: `TRANSACTIONS_PER_CUSTOMER`). */
export const MAX_POPULATION_MONTHS = 120;
/** The most customers in one population. */
export const MAX_POPULATION_CUSTOMERS = 10_000_000;
/** Where the window starts by default: 2026-01-01T00:00:00Z, as the simulator's clock. */
export const DEFAULT_POPULATION_START = Date.UTC(2026, 0, 1);

export interface PopulationOptions {
  customers: number;
  months: number;
  seed: string;
  /** Start of the window, epoch ms (default 2026-01-01); it ends `months` calendar months later. */
  start?: number;
  model?: PopulationModel;
}

/** One generated customer. */
export interface GeneratedCustomer {
  index: number;
  customer_id: string;
  /** Its webhook bodies, in time order, as the simulator sends them. */
  events: WebhookBody[];
  /** Its app activity instants (epoch ms, whole seconds), ascending. */
  activity: number[];
  truth: CustomerTruth;
}

/**
 * Given the options, returns the window the population spans: `[start, end]` in epoch ms. Pure.
 *
 * @example
 * populationWindow({ customers: 1, months: 12, seed: 'x' }).end === Date.UTC(2027, 0, 1); // true
 */
export function populationWindow(options: PopulationOptions): { start: number; end: number } {
  const start = options.start ?? DEFAULT_POPULATION_START;
  return { start, end: addDuration(start, { years: 0, months: options.months, days: 0, ms: 0 }) };
}

/**
 * The id of the customer at `index` (from 0): `user_` and its number from 1, six digits at least, so
 * ids sort in creation order up to a million. Pure.
 *
 * @example
 * populationCustomerId(0); // 'user_000001'
 */
export const populationCustomerId = (index: number): string => `user_${String(index + 1).padStart(6, '0')}`;

/**
 * Given the options, yields the population's customers in order, one at a time (nothing is kept
 * between them). Deterministic: two streams per customer (`customerStreams.ts`), started from the
 * seed and the customer's index (one for the model's draws, one for ids), so the same seed gives
 * the same bytes and a customer is the same in a population of any size.
 *
 * @example
 * for (const c of generatePopulation({ customers: 1000, months: 12, seed: 'demo' })) console.log(c.truth.churned);
 */
export function* generatePopulation(options: PopulationOptions): Generator<GeneratedCustomer> {
  const model = options.model ?? DEFAULT_POPULATION_MODEL;
  const { start, end } = populationWindow(options);
  const pc = createPopulationContext(model, start);
  for (let index = 0; index < options.customers; index += 1) {
    const u = customerStream(options.seed, index, 'model');
    pc.begin(index, customerStream(options.seed, index, 'ids'));
    const traits = drawTraits(u, model, start, end);
    const customerId = populationCustomerId(index);
    const customer = newCustomer(customerId, index + 1, traits.arrival);
    const marks: LifecycleMarks = { spans: [], pauses: [], declines: [] };
    const outcome = walkCustomer(pc, u, traits, customer, end, marks);
    const activity: number[] = [];
    drawActivity(u, model, traits, marks, end, activity);
    const log = pc.ctx.log;
    const events = Array.from({ length: log.length }, (_, i) => log.body(i));
    let renewals = 0;
    let failures = 0;
    for (const body of events) {
      if (body.event.type === 'RENEWAL') renewals += 1;
      else if (body.event.type === 'BILLING_ISSUE') failures += 1;
    }
    const truth = truthOf(customer, traits, outcome, { renewals, billing_failures: failures });
    yield { index, customer_id: customerId, events, activity, truth };
  }
}
