/**
 * The simulator's working copy the population generator runs its operations in: one catalog (the
 * model's plans), production events of the app `app_sim`, and event ids drawn from the stream of the
 * customer being generated. Customers are built here and never stored: the generator keeps one at a
 * time, so a population of any size holds one customer's state.
 */
import { emptyLedger } from '@tenure/core';
import { beginDraft, type SimContext } from '../machine/context.js';
import { createEventLog, type EventLogWriter } from '../machine/eventLog.js';
import { pmapSet } from '../machine/persistentMap.js';
import { toProduct } from '../machine/products.js';
import type { Product, CustomerState, EventSettings, World } from '../machine/world.js';
import { createWorld, emptyProject } from '../machine/createWorld.js';
import type { Uniform } from './draws.js';
import { populationProducts, type PopulationModel } from './populationModel.js';

/** The settings of every generated event (each subscription carries its own store). */
export const POPULATION_SETTINGS: EventSettings = Object.freeze({
  app_id: 'app_sim',
  store: 'APP_STORE',
  environment: 'PRODUCTION',
  default_project_id: 'proj_sim',
  country_code: 'US',
});

/** Transaction ids of customer `i` start at `i × this`: each customer's ids are its own, whatever came before. */
export const TRANSACTIONS_PER_CUSTOMER = 10_000;

export interface PopulationContext {
  readonly ctx: SimContext;
  readonly model: PopulationModel;
  readonly products: ReadonlyMap<string, Product>;
  /** Starts a customer: its id stream, its transaction counter, an empty event list. */
  begin(index: number, ids: Uniform): void;
}

/**
 * Given the model and the start of the window, returns the working copy to run a population's
 * operations in. Not pure: it is the generator's scratch space.
 *
 * @example
 * const pc = createPopulationContext(DEFAULT_POPULATION_MODEL, Date.UTC(2026, 0, 1));
 */
export function createPopulationContext(model: PopulationModel, start: number): PopulationContext {
  const products = populationProducts(model).map((input) => {
    const r = toProduct(input);
    if (!r.ok) throw new Error(`population plan ${input.id}: ${r.message}`);
    return r.product;
  });
  const empty = createWorld(POPULATION_SETTINGS, 'population', start, products);
  // The default project exists (with no currency), so each renewal's grant finds it instead of making an empty one.
  const project = POPULATION_SETTINGS.default_project_id;
  const world: World = { ...empty, projects: pmapSet(empty.projects, project, emptyProject(project)) };
  let ids: Uniform = () => 0;
  // The simulator draws event ids (and subscription ids) from `random`: here, the current customer's id stream.
  const ctx: SimContext = { ...beginDraft(world, false), random: () => ids() };
  return {
    ctx,
    model,
    products: world.products,
    begin(index, stream) {
      ids = stream;
      ctx.seq = index * TRANSACTIONS_PER_CUSTOMER;
      // A fresh event log per customer (the simulator's logs only grow): its events are this customer's.
      (ctx as { log: EventLogWriter }).log = createEventLog(world.settings.app_id, ctx.random);
      ctx.subscriptions.clear();
    },
  };
}

/**
 * Given an id and its first purchase instant, returns a new customer of the default project, as the
 * simulator creates one on a first purchase.
 *
 * @example
 * newCustomer('user_000001', 1, Date.UTC(2026, 0, 3));
 */
export function newCustomer(id: string, seq: number, at: number): CustomerState {
  return {
    id,
    project_id: POPULATION_SETTINGS.default_project_id,
    seq,
    first_seen_at: at,
    last_seen_at: at,
    ledger: emptyLedger(),
    subscriptions: [],
    purchases: [],
    aliases: Object.freeze([id]),
  };
}
