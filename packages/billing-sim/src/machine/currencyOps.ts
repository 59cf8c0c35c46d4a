/** API v2 virtual currency operations of a project: create, update, list, get, delete. */
import {
  MAX_CURRENCIES_PER_PROJECT,
  createVirtualCurrency,
  updateVirtualCurrency,
  virtualCurrencyCreateSchema,
  virtualCurrencyUpdateSchema,
  type VirtualCurrency,
} from '@tenure/core';
import { removeCurrency } from '@tenure/core';
import type { z } from 'zod';
import { fail, ok, type Result } from './apiError.js';
import { customerOf, peekCustomer, readProject, writableCurrencies, type SimContext } from './context.js';
import { forEachCustomer } from './worldCustomers.js';
import type { CurrencyRecord } from './world.js';

/** A currency as the API returns it. */
export interface VirtualCurrencyResource {
  object: 'virtual_currency';
  project_id: string;
  code: string;
  name: string;
  description: string | null;
  created_at: number;
  state: VirtualCurrency['state'];
  product_grants: {
    object: 'virtual_currency.product_grant';
    product_ids: string[];
    amount: number;
    expire_at_cycle_end: boolean;
    trial_amount: number;
  }[];
}

/** Renders a stored currency as the API returns it. */
export function toResource(projectId: string, record: CurrencyRecord): VirtualCurrencyResource {
  const c = record.currency;
  return {
    object: 'virtual_currency',
    project_id: projectId,
    code: c.code,
    name: c.name,
    description: c.description,
    created_at: record.created_at,
    state: c.state,
    product_grants: c.product_grants.map((g) => ({
      object: 'virtual_currency.product_grant',
      product_ids: [...g.product_ids],
      amount: g.amount,
      expire_at_cycle_end: g.expire_at_cycle_end,
      trial_amount: g.trial_amount,
    })),
  };
}

/** Creates a currency: 409 on a duplicate code, 422 past 100 currencies. */
export function createCurrency(
  ctx: SimContext,
  projectId: string,
  body: z.output<typeof virtualCurrencyCreateSchema>,
): Result<VirtualCurrencyResource> {
  const currencies = readProject(ctx, projectId).currencies;
  if (currencies.has(body.code)) {
    return fail('resource_already_exists', `A virtual currency with code ${body.code} already exists`, 'code');
  }
  if (currencies.size >= MAX_CURRENCIES_PER_PROJECT) {
    return fail('unprocessable_entity_error', `A project can have at most ${MAX_CURRENCIES_PER_PROJECT} virtual currencies`, 'code');
  }
  const record: CurrencyRecord = { currency: createVirtualCurrency(body), created_at: ctx.now };
  writableCurrencies(ctx, projectId).set(body.code, record);
  return ok(toResource(projectId, record));
}

/** Updates name, description and product grants; a given `product_grants` replaces the whole list. */
export function updateCurrency(
  ctx: SimContext,
  projectId: string,
  code: string,
  body: z.output<typeof virtualCurrencyUpdateSchema>,
): Result<VirtualCurrencyResource> {
  const record = readProject(ctx, projectId).currencies.get(code);
  if (record === undefined) return fail('resource_missing', `Virtual currency ${code} not found`, 'virtual_currency_code');
  const next: CurrencyRecord = { ...record, currency: updateVirtualCurrency(record.currency, body) };
  writableCurrencies(ctx, projectId).set(code, next);
  return ok(toResource(projectId, next));
}

/** Returns one currency, or 404. */
export function getCurrency(ctx: SimContext, projectId: string, code: string): Result<VirtualCurrencyResource> {
  const record = readProject(ctx, projectId).currencies.get(code);
  return record === undefined
    ? fail('resource_missing', `Virtual currency ${code} not found`, 'virtual_currency_code')
    : ok(toResource(projectId, record));
}

/** Deletes a currency and every customer's balance of it (core `removeCurrency`). */
export function deleteCurrency(
  ctx: SimContext,
  projectId: string,
  code: string,
): Result<{ object: 'virtual_currency'; id: string; deleted_at: number }> {
  const project = readProject(ctx, projectId);
  if (!project.currencies.has(code)) return fail('resource_missing', `Virtual currency ${code} not found`, 'virtual_currency_code');
  writableCurrencies(ctx, projectId).delete(code);
  forEachCustomer(ctx.base, projectId, (stored) => {
    const current = peekCustomer(ctx, projectId, stored.id) ?? stored;
    if (!current.ledger.lots.some((l) => l.currency === code)) return;
    const customer = customerOf(ctx, projectId, stored.id, false);
    if (customer !== undefined) customer.ledger = removeCurrency(customer.ledger, code).ledger;
  });
  return ok({ object: 'virtual_currency', id: code, deleted_at: ctx.now });
}

/** All currencies of a project, in creation order. */
export function listCurrencies(ctx: SimContext, projectId: string): VirtualCurrencyResource[] {
  return [...readProject(ctx, projectId).currencies.values()].map((r) => toResource(projectId, r));
}
