/** API v2 customers (Customer Information domain): list, create, get, delete, aliases, attributes, active entitlements; actions grant, revoke, transfer. */
import { z } from 'zod';
import { setAttributesBodySchema, toAliasResources, toAttributeResources } from './attributeResource.js';
import { createCustomerBodySchema, toCustomerResource } from './customerResource.js';
import { fail } from '../machine/apiError.js';
import { attributesOf } from '../machine/attributes.js';
import { activeEntitlements } from '../machine/grantedEntitlements.js';
import { customerIn, customersOf } from '../machine/queries.js';
import { errorResponse, json, paginate, parseBody, respond } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import { checkIds, param } from './ids.js';

const CUSTOMERS = '/v2/projects/:project_id/customers';
const CUSTOMER = `${CUSTOMERS}/:customer_id`;

const missing = (id: string) => errorResponse(fail('resource_missing', `Customer ${id} not found`, 'customer_id').error);

/** The body of the transfer action (`app_ids` is accepted; the simulator has one app). */
export const transferBodySchema = z.strictObject({
  target_customer_id: z.string().min(1).max(1500),
  app_ids: z.array(z.string().min(1).max(255)).nullable().optional(),
});

/** The body of the grant action: an entitlement of the project until a future instant (epoch ms). */
export const grantBodySchema = z.strictObject({ entitlement_id: z.string().min(1).max(255), expires_at: z.number().int().nonnegative() });
/** The body of the revoke action. */
export const revokeBodySchema = z.strictObject({ entitlement_id: z.string().min(1).max(255) });

/** The customer routes. */
export const customerRoutes: Route[] = [
  {
    method: 'GET', pattern: CUSTOMERS, domain: 'customer_information', summary: 'List customers in creation order (search: exact $email)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const search = input.query['search'];
      if (search !== undefined && (search.length === 0 || search.length > 255)) return errorResponse(fail('parameter_error', 'search is 1–255 characters', 'search').error);
      const world = sim.world();
      const projectId = param(input, 'project_id');
      const customers = customersOf(world, projectId).filter((c) => search === undefined || attributesOf(world, projectId, c.id).get('$email')?.value === search);
      return respond(paginate(customers.map(toCustomerResource), (c) => c.id, input.query, input.path, ['search']));
    },
  },
  {
    method: 'POST', pattern: CUSTOMERS, domain: 'customer_information', summary: 'Create a customer with attributes (409 when the id exists)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(createCustomerBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'create_customer', project_id: param(input, 'project_id'), customer_id: body.value.id, attributes: body.value.attributes ?? [] } as const;
      return respond(sim.dispatch(command), 201, toCustomerResource);
    },
  },
  {
    method: 'GET', pattern: CUSTOMER, domain: 'customer_information', summary: 'Get a customer (the Customer object with its active entitlements; expand=attributes adds its attributes)',
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const expand = input.query['expand'];
      if (expand !== undefined && expand !== 'attributes') return errorResponse(fail('parameter_error', 'expand accepts attributes', 'expand').error);
      const world = sim.world();
      const projectId = param(input, 'project_id');
      const customer = customerIn(world, projectId, param(input, 'customer_id'));
      if (customer === undefined) return missing(param(input, 'customer_id'));
      const url = input.path.replace(/\/$/, '');
      const active = activeEntitlements(world, customer).map((e) => ({ object: 'customer.active_entitlement' as const, ...e }));
      return json(200, {
        ...toCustomerResource(customer),
        active_entitlements: { object: 'list', items: active, next_page: null, url: `${url}/active_entitlements` },
        ...(expand === 'attributes'
          ? { attributes: { object: 'list', items: toAttributeResources(attributesOf(world, projectId, customer.id)), next_page: null, url: `${url}/attributes` } }
          : {}),
      });
    },
  },
  {
    method: 'DELETE', pattern: CUSTOMER, domain: 'customer_information', summary: 'Delete a customer with its subscriptions, purchases, balances and attributes',
    handler: (sim, input) =>
      checkIds(sim, input) ?? respond(sim.dispatch({ type: 'delete_customer', project_id: param(input, 'project_id'), customer_id: param(input, 'customer_id') })),
  },
  {
    method: 'GET', pattern: `${CUSTOMER}/aliases`, domain: 'customer_information', summary: "List a customer's aliases",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const customer = customerIn(sim.world(), param(input, 'project_id'), param(input, 'customer_id'));
      return customer === undefined ? missing(param(input, 'customer_id')) : respond(paginate(toAliasResources(customer), (a) => a.id, input.query, input.path));
    },
  },
  {
    method: 'GET', pattern: `${CUSTOMER}/attributes`, domain: 'customer_information', summary: "List a customer's attributes",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const world = sim.world();
      const projectId = param(input, 'project_id');
      const id = param(input, 'customer_id');
      if (customerIn(world, projectId, id) === undefined) return missing(id);
      return respond(paginate(toAttributeResources(attributesOf(world, projectId, id)), (a) => a.name, input.query, input.path));
    },
  },
  {
    method: 'POST', pattern: `${CUSTOMER}/attributes`, domain: 'customer_information', summary: "Set a customer's attributes (null deletes one)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(setAttributesBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const set = sim.dispatch({ type: 'set_attributes', project_id: param(input, 'project_id'), customer_id: param(input, 'customer_id'), attributes: body.value.attributes });
      return respond(set, 200, (attrs) => ({ object: 'list', items: toAttributeResources(attrs), next_page: null, url: input.path }));
    },
  },
  {
    method: 'GET', pattern: `${CUSTOMER}/active_entitlements`, domain: 'customer_information',
    summary: "List a customer's active entitlements (granted, from live subscriptions, from owned one-time purchases)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const world = sim.world();
      const customer = customerIn(world, param(input, 'project_id'), param(input, 'customer_id'));
      if (customer === undefined) return missing(param(input, 'customer_id'));
      const items = activeEntitlements(world, customer).map((e) => ({ object: 'customer.active_entitlement' as const, ...e }));
      return respond(paginate(items, (e) => e.entitlement_id, input.query, input.path));
    },
  },
  {
    method: 'POST', pattern: `${CUSTOMER}/actions/grant_entitlement`, domain: 'customer_information',
    summary: "Grant an entitlement until expires_at, outside any purchase (the promotional NON_RENEWING_PURCHASE webhook)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(grantBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'grant_entitlement', project_id: param(input, 'project_id'), customer_id: param(input, 'customer_id'), ...body.value } as const;
      return respond(sim.dispatch(command), 201, toCustomerResource);
    },
  },
  {
    method: 'POST', pattern: `${CUSTOMER}/actions/revoke_granted_entitlement`, domain: 'customer_information',
    summary: "Revoke an entitlement granted with grant_entitlement (the grant's CANCELLATION webhook, CUSTOMER_SUPPORT)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(revokeBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const command = { type: 'revoke_granted_entitlement', project_id: param(input, 'project_id'), customer_id: param(input, 'customer_id'), ...body.value } as const;
      return respond(sim.dispatch(command), 200, toCustomerResource);
    },
  },
  {
    method: 'POST', pattern: `${CUSTOMER}/actions/transfer`, domain: 'customer_information',
    summary: "Move a customer's subscriptions and one-time purchases to another customer (TRANSFER webhook)",
    handler(sim, input) {
      const bad = checkIds(sim, input);
      if (bad !== null) return bad;
      const body = parseBody(transferBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const projectId = param(input, 'project_id');
      const done = sim.dispatch({ type: 'transfer', project_id: projectId, customer_id: param(input, 'customer_id'), target_customer_id: body.value.target_customer_id });
      if (!done.ok) return errorResponse(done.error);
      const world = sim.world();
      const source = customerIn(world, projectId, done.value.customer_id);
      const target = customerIn(world, projectId, done.value.target_customer_id);
      if (source === undefined || target === undefined) return errorResponse(fail('server_error', 'transfer lost a customer').error);
      return json(200, { source_customer: toCustomerResource(source), target_customer: toCustomerResource(target) });
    },
  },
];
