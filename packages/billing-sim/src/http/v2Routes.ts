/** The billing service's API v2 routes: virtual currencies, customer balances, transactions. */
import { currencyAmountsSchema, currencyCodeSchema, virtualCurrencyCreateSchema, virtualCurrencyUpdateSchema } from '@tenure/core';
import { z } from 'zod';
import { fail } from '../sim/apiError.js';
import { customerView, listBalances, type BalanceChange } from '../sim/balanceOps.js';
import { getCurrency, listCurrencies } from '../sim/currencyOps.js';
import { customerIn, readView } from '../sim/queries.js';
import { errorResponse, json, paginate, parseBody, queryBool, respond, type RouteInput, type SimResponse } from './httpTypes.js';
import type { Route } from './route.js';
import type { BillingSimulator } from '../sim/createSimulator.js';

const projectIdSchema = z.string().min(1).max(255);
const customerIdSchema = z.string().min(1).max(1500);

/** The body of a transaction or balance update. */
export const adjustmentsBodySchema = z.strictObject({
  adjustments: currencyAmountsSchema(z.number().int()).refine(
    (a) => Object.keys(a).length > 0,
    'adjustments must name at least one currency',
  ),
  reference: z.string().max(1500).nullable().optional(),
});

const checkIds = (input: RouteInput): SimResponse | null => {
  if (!projectIdSchema.safeParse(input.params['project_id']).success) return errorResponse(fail('parameter_error', 'project_id is 1–255 characters', 'project_id').error);
  const c = input.params['customer_id'];
  if (c !== undefined && !customerIdSchema.safeParse(c).success) return errorResponse(fail('parameter_error', 'customer_id is 1–1500 characters', 'customer_id').error);
  const code = input.params['code'];
  if (code !== undefined && !currencyCodeSchema.safeParse(code).success) {
    return errorResponse(fail('parameter_error', 'virtual_currency_code must be 1–10 characters of A-Z, a-z, 0-9 or _', 'virtual_currency_code').error);
  }
  return null;
};
const p = (input: RouteInput, name: string) => input.params[name] ?? '';

/**
 * Runs a write at most once per Idempotency-Key (same key, different request → 409). Keys are kept
 * per project for 24 hours of virtual time, then forgotten (the key can be used again).
 */
function idempotent(sim: BillingSimulator, input: RouteInput, run: () => SimResponse): SimResponse {
  const key = input.headers['idempotency-key'];
  if (key === undefined || key === '') return run();
  const projectId = p(input, 'project_id');
  const fingerprint = `${input.method} ${input.path} ${JSON.stringify(input.query)} ${input.rawBody}`;
  const seen = sim.idempotencyRecord(projectId, key);
  if (seen !== undefined) {
    if (seen.fingerprint !== fingerprint) {
      return errorResponse(fail('idempotency_error', 'Idempotency key already used for a different request', 'Idempotency-Key').error);
    }
    return { status: seen.status, headers: { 'Idempotency-Replayed': 'true' }, body: seen.body };
  }
  const res = run();
  sim.dispatch({ type: 'remember_idempotency', project_id: projectId, key, record: { fingerprint, status: res.status, body: res.body } });
  return res;
}

function balanceWrite(kind: 'transaction' | 'update') {
  return (sim: BillingSimulator, input: RouteInput): SimResponse => {
    const bad = checkIds(input);
    if (bad !== null) return bad;
    return idempotent(sim, input, () => {
      const body = parseBody(adjustmentsBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const includeEmpty = queryBool(input.query, 'include_empty_balances');
      if (!includeEmpty.ok) return errorResponse(includeEmpty.error);
      const change: BalanceChange = { kind, adjustments: body.value.adjustments };
      const result = sim.dispatch({
        type: 'change_balances', project_id: p(input, 'project_id'), customer_id: p(input, 'customer_id'),
        change, reference: body.value.reference ?? null, include_empty: includeEmpty.value,
      });
      return respond(result, 200, (items) => ({ object: 'list', items, next_page: null, url: input.path }));
    });
  };
}

const VC = '/v2/projects/:project_id/virtual_currencies';
const CUSTOMER = '/v2/projects/:project_id/customers/:customer_id';

export const v2Routes: Route[] = [
  {
    method: 'POST', pattern: VC, domain: 'project_configuration', summary: 'Create a virtual currency',
    handler(sim, input) {
      const bad = checkIds(input);
      if (bad !== null) return bad;
      const body = parseBody(virtualCurrencyCreateSchema, input.body);
      return body.ok ? respond(sim.dispatch({ type: 'create_currency', project_id: p(input, 'project_id'), body: body.value }), 201) : errorResponse(body.error);
    },
  },
  {
    method: 'GET', pattern: VC, domain: 'project_configuration', summary: 'List virtual currencies',
    handler(sim, input) {
      const bad = checkIds(input);
      if (bad !== null) return bad;
      return respond(paginate(listCurrencies(readView(sim.world()), p(input, 'project_id')), (c) => c.code, input.query, input.path));
    },
  },
  {
    method: 'GET', pattern: `${VC}/:code`, domain: 'project_configuration', summary: 'Get a virtual currency',
    handler: (sim, input) => checkIds(input) ?? respond(getCurrency(readView(sim.world()), p(input, 'project_id'), p(input, 'code'))),
  },
  {
    method: 'POST', pattern: `${VC}/:code`, domain: 'project_configuration',
    summary: 'Update a virtual currency (a given product_grants replaces the whole list)',
    handler(sim, input) {
      const bad = checkIds(input);
      if (bad !== null) return bad;
      const body = parseBody(virtualCurrencyUpdateSchema, input.body);
      return body.ok ? respond(sim.dispatch({ type: 'update_currency', project_id: p(input, 'project_id'), code: p(input, 'code'), body: body.value })) : errorResponse(body.error);
    },
  },
  {
    method: 'DELETE', pattern: `${VC}/:code`, domain: 'project_configuration', summary: 'Delete a virtual currency',
    handler: (sim, input) => checkIds(input) ?? respond(sim.dispatch({ type: 'delete_currency', project_id: p(input, 'project_id'), code: p(input, 'code') })),
  },
  {
    method: 'GET', pattern: CUSTOMER, domain: 'customer_information', summary: 'Customer info: subscriptions and balances (simulator view)',
    handler(sim, input) {
      const bad = checkIds(input);
      if (bad !== null) return bad;
      const customer = customerIn(sim.world(), p(input, 'project_id'), p(input, 'customer_id'));
      return customer === undefined
        ? errorResponse(fail('resource_missing', `Customer ${p(input, 'customer_id')} not found`, 'customer_id').error)
        : json(200, customerView(readView(sim.world()), customer));
    },
  },
  {
    method: 'GET', pattern: `${CUSTOMER}/virtual_currencies`, domain: 'customer_information', summary: "List a customer's balances",
    handler(sim, input) {
      const bad = checkIds(input);
      if (bad !== null) return bad;
      const includeEmpty = queryBool(input.query, 'include_empty_balances');
      if (!includeEmpty.ok) return errorResponse(includeEmpty.error);
      const balances = listBalances(readView(sim.world()), p(input, 'project_id'), p(input, 'customer_id'), includeEmpty.value);
      if (!balances.ok) return errorResponse(balances.error);
      return respond(paginate(balances.value, (b) => b.currency_code, input.query, input.path));
    },
  },
  {
    method: 'POST', pattern: `${CUSTOMER}/virtual_currencies/transactions`, domain: 'virtual_currencies_transactions',
    summary: 'Spend and deposit atomically across currencies', handler: balanceWrite('transaction'),
  },
  {
    method: 'POST', pattern: `${CUSTOMER}/virtual_currencies/update_balance`, domain: 'virtual_currencies_transactions',
    summary: 'Apply the same adjustments without creating a transaction', handler: balanceWrite('update'),
  },
];
