/** The OpenAPI 3.1 document of the simulator, generated from the routes and their zod schemas. */
import { virtualCurrencyCreateSchema, virtualCurrencyTransactionEventSchema, virtualCurrencyUpdateSchema, webhookBodySchema } from '@tenure/core';
import { z } from 'zod';
import { webhookConfigSchema } from '../delivery/deliveryConfig.js';
import { productInputSchema } from '../machine/products.js';
import type { Route } from './route.js';
import {
  advanceBodySchema,
  billingIssueBodySchema,
  cancelBodySchema,
  expireBodySchema,
  productChangeBodySchema,
  purchaseBodySchema,
  resetBodySchema,
  setBalancesBodySchema,
} from '../control/simSchemas.js';
import { createIntegrationBodySchema, updateIntegrationBodySchema } from '../v2/integrationResource.js';
import { createEntitlementBodySchema, entitlementProductsBodySchema, updateEntitlementBodySchema } from '../v2/entitlementResource.js';
import { setAttributesBodySchema } from '../v2/attributeResource.js';
import { createCustomerBodySchema } from '../v2/customerResource.js';
import { createProductBodySchema } from '../v2/productResource.js';
import { createProjectV2BodySchema } from '../v2/projectResource.js';
import {
  attachPackageProductsBodySchema,
  createOfferingBodySchema,
  createPackageBodySchema,
  detachPackageProductsBodySchema,
  updateOfferingBodySchema,
  updatePackageBodySchema,
} from '../v2/offeringResource.js';
import { assignOfferingBodySchema } from '../v2/offeringRoutes.js';
import { placementsBodySchema } from '../control/placementRoutes.js';
import { grantBodySchema, revokeBodySchema, transferBodySchema } from '../v2/customerRoutes.js';
import { adjustmentsBodySchema, createProjectBodySchema } from './v2Routes.js';

const VC = '/v2/projects/:project_id/virtual_currencies';
const CUSTOMER = '/v2/projects/:project_id/customers/:customer_id';

/** Routes that answer 201: creations (a POST on a collection, but API v2's `POST /projects` answers 200) and the grant action. */
const CREATED = /^POST (?!\/v2\/projects$).*\/(virtual_currencies|products|purchases|projects|webhooks|entitlements|customers|offerings|packages|grant_entitlement)$/;

/** Routes that answer a redirect: an invoice's file (to where it is downloaded). */
const REDIRECTS = /\/invoices\/:invoice_id\/file$/;

/** Routes whose body may be left out. */
const OPTIONAL_BODIES = new Set(['POST /sim/reset']);

/** Request body schema of each route that takes one, by `METHOD pattern`. */
const BODIES: Record<string, z.ZodType> = {
  [`POST ${VC}`]: virtualCurrencyCreateSchema,
  [`POST ${VC}/:code`]: virtualCurrencyUpdateSchema,
  [`POST ${CUSTOMER}/virtual_currencies/transactions`]: adjustmentsBodySchema,
  [`POST ${CUSTOMER}/virtual_currencies/update_balance`]: adjustmentsBodySchema,
  'POST /sim/clock/advance': advanceBodySchema,
  'POST /sim/reset': resetBodySchema,
  'POST /sim/products': productInputSchema,
  'POST /sim/purchases': purchaseBodySchema,
  'POST /sim/subscriptions/:id/cancel': cancelBodySchema,
  'POST /sim/subscriptions/:id/billing_issue': billingIssueBodySchema,
  'POST /sim/subscriptions/:id/product_change': productChangeBodySchema,
  'POST /sim/subscriptions/:id/expire': expireBodySchema,
  'POST /sim/customers/:customer_id/balances': setBalancesBodySchema,
  'POST /sim/webhook': webhookConfigSchema,
  'POST /sim/projects': createProjectBodySchema,
  'POST /sim/projects/:project_id/placements': placementsBodySchema,
  'POST /v2/projects/:project_id/integrations/webhooks': createIntegrationBodySchema,
  'POST /v2/projects/:project_id/integrations/webhooks/:webhook_integration_id': updateIntegrationBodySchema,
  [`POST ${CUSTOMER}/attributes`]: setAttributesBodySchema,
  [`POST ${CUSTOMER}/actions/transfer`]: transferBodySchema,
  [`POST ${CUSTOMER}/actions/grant_entitlement`]: grantBodySchema,
  [`POST ${CUSTOMER}/actions/revoke_granted_entitlement`]: revokeBodySchema,
  'POST /v2/projects/:project_id/products': createProductBodySchema,
  'POST /v2/projects': createProjectV2BodySchema,
  'POST /v2/projects/:project_id/customers': createCustomerBodySchema,
  'POST /v2/projects/:project_id/offerings': createOfferingBodySchema,
  'POST /v2/projects/:project_id/offerings/:offering_id': updateOfferingBodySchema,
  'POST /v2/projects/:project_id/offerings/:offering_id/packages': createPackageBodySchema,
  'POST /v2/projects/:project_id/packages/:package_id': updatePackageBodySchema,
  'POST /v2/projects/:project_id/packages/:package_id/actions/attach_products': attachPackageProductsBodySchema,
  'POST /v2/projects/:project_id/packages/:package_id/actions/detach_products': detachPackageProductsBodySchema,
  [`POST ${CUSTOMER}/actions/assign_offering`]: assignOfferingBodySchema,
  'POST /v2/projects/:project_id/entitlements': createEntitlementBodySchema,
  'POST /v2/projects/:project_id/entitlements/:entitlement_id': updateEntitlementBodySchema,
  'POST /v2/projects/:project_id/entitlements/:entitlement_id/actions/attach_products': entitlementProductsBodySchema,
  'POST /v2/projects/:project_id/entitlements/:entitlement_id/actions/detach_products': entitlementProductsBodySchema,
};

const toSchema = (schema: z.ZodType): unknown => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });

const errorEnvelope = {
  type: 'object',
  required: ['object', 'type', 'message', 'retryable'],
  properties: {
    object: { const: 'error' },
    type: { type: 'string' },
    param: { type: ['string', 'null'] },
    message: { type: 'string' },
    retryable: { type: 'boolean' },
    doc_url: { type: 'string' },
    backoff_ms: { type: ['integer', 'null'] },
  },
};

/** The part of the simulator a route belongs to. */
const tagOf = (pattern: string) =>
  pattern.startsWith('/v2') ? 'API v2' : pattern.startsWith('/v1') ? 'API v1' : pattern.startsWith('/rcbilling') ? 'Web SDK' : 'Simulation control';

let cached: unknown = null;

/**
 * Given the routes, returns the OpenAPI document (computed once).
 *
 * @example
 * buildOpenApi(ROUTES).paths['/sim/clock'];
 */
export function buildOpenApi(routes: readonly Pick<Route, 'method' | 'pattern' | 'summary'>[]): unknown {
  if (cached !== null) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.pattern.replace(/:([a-z_]+)/g, '{$1}');
    const params = [...route.pattern.matchAll(/:([a-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const body = BODIES[`${route.method} ${route.pattern}`];
    const op: Record<string, unknown> = {
      summary: route.summary,
      tags: [tagOf(route.pattern)],
      parameters: params,
      responses: {
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        [REDIRECTS.test(route.pattern) ? '302' : CREATED.test(`${route.method} ${route.pattern}`) ? '201' : '200']: { description: 'Success' },
      },
    };
    const key = `${route.method} ${route.pattern}`;
    if (body !== undefined) op['requestBody'] = { required: !OPTIONAL_BODIES.has(key), content: { 'application/json': { schema: toSchema(body) } } };
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: op };
  }
  paths['/v2/coffee'] = { post: { summary: 'Brew coffee (always 418)', responses: { '418': { description: "I'm a teapot" } } } };
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'tenure billing simulator',
      version: '0.1.0',
      description: 'A local stand-in for the billing service (RevenueCat API v1, as the SDKs and backends call it, with the web SDK\'s own routes; API v2: projects, customers, subscriptions, purchases, invoices, products, entitlements, offerings and packages, webhook integrations, virtual currencies, overview metrics) plus a /sim control API. See docs/billing-sim.md.',
    },
    servers: [{ url: 'http://127.0.0.1:4000' }],
    components: {
      securitySchemes: { BearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: errorEnvelope, WebhookBody: toSchema(webhookBodySchema), VirtualCurrencyTransactionEvent: toSchema(virtualCurrencyTransactionEventSchema) },
    },
    security: [{ BearerAuth: [] }],
    paths,
  };
  return cached;
}
