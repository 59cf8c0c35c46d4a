/** The OpenAPI path items of the dashboard's routes, from the same zod schemas that validate them. */
import { z } from 'zod';
import * as d from './dashboardSchemas.js';
import * as s from './schemas.js';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const content = (schema: z.ZodType) => ({ 'application/json': { schema: json(schema) } });
const ok = (description: string, schema: z.ZodType) => ({ description, content: content(schema) });
const err = (description: string) => ({ description, content: content(s.errorBodySchema) });
const customer = { name: 'customer_id', in: 'path', required: true, schema: json(s.customerIdParamsSchema.shape.customer_id) };
const common = { '400': err('Invalid request: `error.field` names the parameter'), '401': err('Missing or wrong bearer token') };
const secured = { security: [{ bearer: [] }] };

/**
 * Returns the OpenAPI 3.1 path items of `/api/dashboard/*` and `POST /api/subscribers/{customer_id}/dispatch`,
 * to merge into the service's document. Pure.
 *
 * @example
 * const paths = { ...otherPaths, ...dashboardOpenApiPaths() };
 */
export function dashboardOpenApiPaths(): Record<string, unknown> {
  return {
    '/api/dashboard/summary': {
      get: {
        summary: "The dashboard's tiles: subscribers per state and band, revenue at risk, today's alerts, the last hour's webhooks",
        parameters: [{ name: 'environment', in: 'query', required: false, schema: json(d.summaryQuerySchema.shape.environment) }],
        ...secured,
        responses: { '200': ok('The tiles', d.summaryResponseSchema), ...common },
      },
    },
    '/api/dashboard/live': {
      get: {
        summary: 'Server-sent events: `hello`, then `change` with `{ customer_ids, truncated }` after applied webhooks; a comment heartbeat every 15 s',
        ...secured,
        responses: { '200': { description: 'An event stream', content: { 'text/event-stream': {} } }, ...common, '503': err('Too many open streams (32): poll instead') },
      },
    },
    '/api/dashboard/subscribers/{customer_id}': {
      get: {
        summary: "One subscriber's next change and dispatch history",
        parameters: [customer, { name: 'environment', in: 'query', required: false, schema: json(d.subscriberDashboardQuerySchema.shape.environment) }],
        ...secured,
        responses: { '200': ok('The extras', d.subscriberDashboardResponseSchema), ...common, '404': err('Unknown customer') },
      },
    },
    '/api/dashboard/trends': {
      get: {
        summary: 'Subscribers per band and revenue at risk, per UTC day, for the last `days` days (today live)',
        parameters: [
          { name: 'days', in: 'query', required: false, schema: json(d.trendsQuerySchema.shape.days) },
          { name: 'environment', in: 'query', required: false, schema: json(d.trendsQuerySchema.shape.environment) },
        ],
        ...secured,
        responses: { '200': ok('One entry per day, oldest first', d.trendsResponseSchema), ...common },
      },
    },
    '/api/subscribers/{customer_id}/events': {
      get: {
        summary: "A page of one subscriber's stored events, newest first",
        parameters: [
          customer,
          { name: 'limit', in: 'query', required: false, schema: json(d.subscriberEventsQuerySchema.shape.limit) },
          { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'environment', in: 'query', required: false, schema: json(d.subscriberEventsQuerySchema.shape.environment) },
        ],
        ...secured,
        responses: { '200': ok('The page and the next cursor', d.subscriberEventsResponseSchema), ...common, '404': err('Unknown customer') },
      },
    },
    '/api/subscribers/{customer_id}/dispatch': {
      post: {
        summary: "Dispatch this subscriber's top recommendation now (cooldown, rate limit and retries apply)",
        parameters: [customer],
        requestBody: { required: false, content: content(d.subscriberDispatchBodySchema) },
        ...secured,
        responses: { '200': ok('Counts per outcome and channel, and the plan', s.dispatchSummarySchema), ...common, '404': err('Unknown customer') },
      },
    },
  };
}
