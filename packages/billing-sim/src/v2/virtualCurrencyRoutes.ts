/** API v2 virtual currencies of a project: create, list, get, update, delete (Project Configuration domain). */
import { virtualCurrencyCreateSchema, virtualCurrencyUpdateSchema } from '@tenure/core';
import { getCurrency, listCurrencies } from '../machine/currencyOps.js';
import { readView } from '../machine/queries.js';
import { errorResponse, paginate, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';

const VC = '/v2/projects/:project_id/virtual_currencies';

/** The virtual currency routes. */
export const virtualCurrencyRoutes: Route[] = [
  {
    method: 'POST', pattern: VC, domain: 'project_configuration', summary: 'Create a virtual currency',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(virtualCurrencyCreateSchema, input.body);
      return body.ok ? respond(sim.dispatch({ type: 'create_currency', project_id: param(input, 'project_id'), body: body.value }), 201) : errorResponse(body.error);
    },
  },
  {
    method: 'GET', pattern: VC, domain: 'project_configuration', summary: 'List virtual currencies',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      return respond(paginate(listCurrencies(readView(sim.world()), param(input, 'project_id')), (c) => c.code, input.query, input.path));
    },
  },
  {
    method: 'GET', pattern: `${VC}/:code`, domain: 'project_configuration', summary: 'Get a virtual currency',
    handler: (sim, input) => checkIds(sim, input) ?? respond(getCurrency(readView(sim.world()), param(input, 'project_id'), param(input, 'code'))),
  },
  {
    method: 'POST', pattern: `${VC}/:code`, domain: 'project_configuration',
    summary: 'Update a virtual currency (a given product_grants replaces the whole list)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(virtualCurrencyUpdateSchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      return respond(sim.dispatch({ type: 'update_currency', project_id: param(input, 'project_id'), code: param(input, 'code'), body: body.value }));
    },
  },
  {
    method: 'DELETE', pattern: `${VC}/:code`, domain: 'project_configuration', summary: 'Delete a virtual currency',
    handler: (sim, input) =>
      checkIds(sim, input) ?? respond(sim.dispatch({ type: 'delete_currency', project_id: param(input, 'project_id'), code: param(input, 'code') })),
  },
];
