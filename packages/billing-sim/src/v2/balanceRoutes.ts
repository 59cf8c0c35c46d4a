/** API v2 balances of a customer: list, transactions and balance updates (all or nothing). */
import { currencyAmountsSchema } from '@tenure/core';
import { z } from 'zod';
import { listBalances, type BalanceChange } from '../machine/balanceOps.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { readView } from '../machine/queries.js';
import { errorResponse, paginate, parseBody, queryBool, respond, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';
import { idempotent } from './idempotent.js';

/** The body of a transaction or balance update. */
export const adjustmentsBodySchema = z.strictObject({
  adjustments: currencyAmountsSchema(z.number().int()).refine(
    (a) => Object.keys(a).length > 0,
    'adjustments must name at least one currency',
  ),
  reference: z.string().max(1500).nullable().optional(),
});

function balanceWrite(kind: 'transaction' | 'update') {
  return (sim: BillingSimulator, input: RouteInput): SimResponse => {
    const bad = checkIds(sim, input);
    if (bad !== null) return bad;
    return idempotent(sim, input, () => {
      const body = parseBody(adjustmentsBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const includeEmpty = queryBool(input.query, 'include_empty_balances');
      if (!includeEmpty.ok) return errorResponse(includeEmpty.error);
      const change: BalanceChange = { kind, adjustments: body.value.adjustments };
      const result = sim.dispatch({
        type: 'change_balances', project_id: param(input, 'project_id'), customer_id: param(input, 'customer_id'),
        change, reference: body.value.reference ?? null, include_empty: includeEmpty.value,
      });
      return respond(result, 200, (items) => ({ object: 'list', items, next_page: null, url: input.path }));
    });
  };
}

const BALANCES = '/v2/projects/:project_id/customers/:customer_id/virtual_currencies';

/** The balance routes. */
export const balanceRoutes: Route[] = [
  {
    method: 'GET', pattern: BALANCES, domain: 'customer_information', summary: "List a customer's balances",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const includeEmpty = queryBool(input.query, 'include_empty_balances');
      if (!includeEmpty.ok) return errorResponse(includeEmpty.error);
      const balances = listBalances(readView(sim.world()), param(input, 'project_id'), param(input, 'customer_id'), includeEmpty.value);
      if (!balances.ok) return errorResponse(balances.error);
      return respond(paginate(balances.value, (b) => b.currency_code, input.query, input.path, ['include_empty_balances']));
    },
  },
  {
    method: 'POST', pattern: `${BALANCES}/transactions`, domain: 'virtual_currencies_create_transaction',
    summary: 'Spend and deposit atomically across currencies', handler: balanceWrite('transaction'),
  },
  {
    method: 'POST', pattern: `${BALANCES}/update_balance`, domain: 'virtual_currencies_create_transaction',
    summary: 'Apply the same adjustments without creating a transaction', handler: balanceWrite('update'),
  },
];
