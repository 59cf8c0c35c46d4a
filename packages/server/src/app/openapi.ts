/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests (zod 4's
 * `z.toJSONSchema`, input side, JSON Schema 2020-12 as OpenAPI 3.1 expects).
 */
import { webhookBodySchema } from '@tenure/core';
import { z } from 'zod';
import { configResponseSchema } from '../api/configSchemas.js';
import { dashboardOpenApiPaths } from '../api/dashboardOpenApi.js';
import * as s from '../api/schemas.js';
import { offerBodySchema, offerGrantResponseSchema, offerParamsSchema, offerRevokeResponseSchema } from '../api/offerSchemas.js';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const content = (schema: z.ZodType) => ({ 'application/json': { schema: json(schema) } });
const ok = (description: string, schema: z.ZodType) => ({ description, content: content(schema) });
const err = (description: string) => ({ description, content: content(s.errorBodySchema) });

const queryParams = (schema: z.ZodObject) =>
  Object.entries(schema.shape).map(([name, field]) => ({ name, in: 'query', required: false, schema: json(field as z.ZodType) }));
const customerParam = { name: 'customer_id', in: 'path', required: true, schema: json(s.customerIdParamsSchema.shape.customer_id) };
/** The path's customer and the environment to read (production unless `environment=sandbox`). */
const customerParams = [customerParam, ...queryParams(s.environmentQuerySchema)];

const api = (responses: Record<string, unknown>) => ({ security: [{ bearer: [] }], ...responses });
const common = { '400': err('Invalid request: `error.field` names the parameter'), '401': err('Missing or wrong bearer token') };

/**
 * Given the service name, returns the OpenAPI 3.1 document of every route. Pure.
 *
 * @example
 * app.get('/openapi.json', (_req, res) => res.json(buildOpenApiDocument('tenure')));
 */
export function buildOpenApiDocument(serviceName: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: `${serviceName} retention service`, version: '0.1.0', description: 'tenure: subscription webhooks in, risk scores, recommendations and alerts out.' },
    // `tenure serve`'s default address; an app mounted under a prefix serves its paths below it.
    servers: [{ url: 'http://127.0.0.1:3000', description: '`tenure serve` with its default host and port (add the mount prefix when the app is mounted)' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'TENURE_API_KEY; required on /api/* when set.' },
        webhookAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'BILLING_WEBHOOK_AUTH_KEY, sent verbatim by the billing service.' },
      },
    },
    paths: {
      '/webhook': {
        post: {
          summary: 'Receive one billing webhook (RevenueCat format)',
          security: [{ webhookAuth: [] }],
          requestBody: { required: true, content: content(webhookBodySchema) },
          responses: {
            '200': ok('Applied (a SANDBOX event to the sandbox store, apart from production), duplicate (same event id) or ignored (unhandled type)', s.webhookAckSchema),
            '400': err('Malformed JSON or a missing/invalid field (nothing stored)'),
            '401': err('Wrong or missing Authorization header while BILLING_WEBHOOK_AUTH_KEY is set'),
            '413': err('Body over 1 MB'),
          },
        },
      },
      '/health': { get: { summary: 'Liveness', responses: { '200': ok('Up', s.healthResponseSchema) } } },
      '/ready': { get: { summary: 'Readiness: the stores answer and the service is not shutting down', responses: { '200': ok('Ready', s.readyResponseSchema), '503': ok('Not ready, with the reason', s.notReadyResponseSchema) } } },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1 document' } } } },
      '/metrics': {
        get: {
          summary: 'Prometheus metrics (text format 0.0.4): webhooks, request and store latency, dispatches, subscribers by state and band (docs/operations.md)',
          security: [{ bearer: [] }, {}],
          responses: {
            '200': { description: 'The exposition', content: { 'text/plain': { schema: { type: 'string' } } } },
            '401': err('TENURE_API_KEY is set, METRICS_PUBLIC is not, and the bearer key is missing or wrong'),
          },
        },
      },
      '/api/subscribers/{customer_id}': {
        get: { summary: 'A subscriber: state, counters, timestamps, score and breakdown', parameters: customerParams, ...api({ responses: { '200': ok('The subscriber', s.subscriberResponseSchema), ...common, '404': err('Unknown customer') } }) },
      },
      '/api/subscribers/{customer_id}/recommend': {
        get: { summary: "A subscriber's risk and recommendations", parameters: customerParams, ...api({ responses: { '200': ok('Recommendations, priority 1 first', s.recommendResponseSchema), ...common, '404': err('Unknown customer') } }) },
      },
      '/api/subscribers/{customer_id}/activity': {
        post: {
          summary: 'Report that the subscriber was active (feeds the inactivity signal)',
          parameters: customerParams,
          requestBody: { required: false, content: content(s.activityBodySchema) },
          ...api({ responses: { '200': ok('Recorded', s.activityResponseSchema), ...common, '404': err('Unknown customer') } }),
        },
      },
      '/api/subscribers/{customer_id}/offers/{action}': {
        post: {
          summary: "Grant the action's offer (configuration file `offers`) through RevenueCat's API v2, recorded in the dispatch log",
          parameters: [customerParam, { name: 'action', in: 'path', required: true, schema: json(offerParamsSchema.shape.action), description: 'A recommended action with an offer configured (`winback`, `loyalty_discount`, …).' }],
          requestBody: { required: false, content: content(offerBodySchema) },
          ...api({
            responses: {
              '200': ok('Granted: what was asked and RevenueCat’s answer', offerGrantResponseSchema),
              '400': err('No offer configured for the action (`error.field` is `action`), or an invalid body'),
              '401': err('Missing or wrong bearer token'),
              '404': err('Unknown customer'),
              '409': err('Within the offer’s cooldown for this person'),
              '502': ok('RevenueCat refused or could not be reached: `error` beside `granted` and `revenuecat` (status null when unreachable); recorded as failed', offerGrantResponseSchema.extend({ error: s.errorBodySchema.shape.error })),
            },
          }),
        },
      },
      '/api/at-risk': {
        get: { summary: 'At-risk subscribers, highest score first (or most revenue at risk with sort=revenue), with the total over every page', parameters: queryParams(s.atRiskQuerySchema), ...api({ responses: { '200': ok('One page', s.atRiskResponseSchema), ...common } }) },
      },
      '/api/dispatch': {
        post: {
          summary: 'One dispatch pass over at-risk subscribers (top recommendation each)',
          parameters: queryParams(s.dispatchQuerySchema),
          requestBody: { required: false, content: content(s.dispatchBodySchema) },
          ...api({ responses: { '200': ok('Counts per outcome and channel', s.dispatchSummarySchema), ...common } }),
        },
      },
      '/api/dispatches': {
        get: { summary: 'The dispatch log, newest first', parameters: queryParams(s.dispatchesQuerySchema), ...api({ responses: { '200': ok('One page', s.dispatchesResponseSchema), ...common } }) },
      },
      '/api/dispatches/{id}/resend': {
        post: {
          summary: 'Send a finished webhook delivery again: the same body and webhook-id, trigger `manual`, the actor recorded (docs/dashboard.md, "Resend")',
          parameters: [{ name: 'id', in: 'path', required: true, description: 'Any record of the delivery (GET /api/dispatches)', schema: json(s.dispatchIdParamsSchema.shape.id) }],
          requestBody: { required: false, content: content(s.resendBodySchema) },
          ...api({
            responses: {
              '202': ok('Started: the pending record written; the attempts follow in the dispatch log', s.resendResponseSchema),
              '400': err('Not a webhook delivery, or written before its body was kept: `error.field` is `id`; or a bad body'),
              '401': common['401'],
              '404': err('No dispatch record with this id'),
              '409': err('The delivery is still being sent, or its endpoint is no longer configured'),
            },
          }),
        },
      },
      '/api/dispatches/{id}/revoke': {
        post: {
          summary: "Revoke a granted offer through RevenueCat's API v2 (`revoke_granted_entitlement`), recorded in the dispatch log (channel `offer_revoke`, the actor named)",
          parameters: [{ name: 'id', in: 'path', required: true, description: 'The grant’s record (channel `offer`, outcome `sent`) in GET /api/dispatches', schema: json(s.dispatchIdParamsSchema.shape.id) }],
          requestBody: { required: false, content: content(offerBodySchema) },
          ...api({
            responses: {
              '200': ok('Revoked: what and RevenueCat’s answer', offerRevokeResponseSchema),
              '400': err('Not a granted offer (`error.field` is `id`), or an invalid body'),
              '401': err('Missing or wrong bearer token'),
              '404': err('No dispatch record with this id'),
              '409': err('Revoked already, ended, or no offers configured'),
              '502': ok('RevenueCat refused or could not be reached: `error` beside `revoked` and `revenuecat` (status null when unreachable); recorded as failed', offerRevokeResponseSchema.extend({ error: s.errorBodySchema.shape.error })),
            },
          }),
        },
      },
      '/api/config': {
        get: {
          summary: 'The effective configuration (defaults, then the configuration file), its source, its hash and the calibration\'s provenance',
          ...api({ responses: { '200': ok('The configuration', configResponseSchema), ...common } }),
        },
      },
      ...dashboardOpenApiPaths(),
    },
  };
}
