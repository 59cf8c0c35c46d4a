import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
afterEach(() => app.close());

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document covering every route, open without the API key', async () => {
    app = await startTestServer({ apiKey: 'k' });
    const res = await app.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/api/at-risk',
      '/api/config',
      '/api/dashboard/live',
      '/api/dashboard/subscribers/{customer_id}',
      '/api/dashboard/summary',
      '/api/dashboard/trends',
      '/api/dispatch',
      '/api/dispatches',
      '/api/dispatches/{id}/resend',
      '/api/dispatches/{id}/revoke',
      '/api/subscribers/{customer_id}',
      '/api/subscribers/{customer_id}/activity',
      '/api/subscribers/{customer_id}/dispatch',
      '/api/subscribers/{customer_id}/events',
      '/api/subscribers/{customer_id}/offers/{action}',
      '/api/subscribers/{customer_id}/recommend',
      '/health',
      '/metrics',
      '/openapi.json',
      '/ready',
      '/webhook',
    ]);
  });

  it('describes request parameters and bodies from the validating zod schemas', async () => {
    app = await startTestServer();
    const doc = (await app.request('GET', '/openapi.json')).body;
    const atRisk = doc.paths['/api/at-risk'].get.parameters.map((p: { name: string }) => p.name);
    expect(atRisk).toEqual(['min_score', 'state', 'band', 'environment', 'sort', 'limit', 'cursor']);
    const state = doc.paths['/api/at-risk'].get.parameters.find((p: { name: string }) => p.name === 'state');
    expect(state.schema.enum).toEqual(['trialing', 'active', 'pending_cancel', 'churned', 'billing_issue', 'paused', 'refunded']);
    const activity = doc.paths['/api/subscribers/{customer_id}/activity'].post.requestBody.content['application/json'].schema;
    expect(activity.properties.at.type).toBe('integer');
    expect(activity.additionalProperties).toBe(false);
    const webhook = doc.paths['/webhook'].post;
    expect(webhook.requestBody.content['application/json'].schema.properties.event).toBeDefined();
    expect(Object.keys(webhook.responses).sort()).toEqual(['200', '400', '401', '413']);
    expect(doc.paths['/api/subscribers/{customer_id}/recommend'].get.responses['200'].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['customer_id', 'risk_score', 'risk_band', 'breakdown', 'recommendations']),
    );
    const subscriber = doc.paths['/api/subscribers/{customer_id}'].get.responses['200'].content['application/json'].schema;
    const added = ['environment', 'original_app_user_id', 'aliases', 'ids', 'cancel_reason', 'grace_ends_at', 'auto_resume_at', 'temporary_access_until', 'promotional_access_until'];
    expect(subscriber.required).toEqual(expect.arrayContaining(added));
    expect(subscriber.properties.grace_ends_at.anyOf.map((t: { type: string }) => t.type)).toEqual(['integer', 'null']);
  });

  it('documents GET /api/config, and churn_probability as an optional number beside every score', async () => {
    app = await startTestServer();
    const doc = (await app.request('GET', '/openapi.json')).body;
    const config = doc.paths['/api/config'].get;
    expect(config.security).toEqual([{ bearer: [] }]);
    const body = config.responses['200'].content['application/json'].schema;
    expect(body.required).toEqual(['source', 'hash', 'config', 'calibration', 'alert_webhooks']);
    expect(Object.keys(body.properties.config.properties)).toEqual(['version', 'risk', 'bands', 'recommend', 'dispatch', 'alert_webhooks', 'calibration', 'offers', 'tuned']);
    const json = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content['application/json'].schema;
    for (const schema of [json('/api/subscribers/{customer_id}'), json('/api/subscribers/{customer_id}/recommend'), json('/api/at-risk').properties.items.items]) {
      expect(schema.properties.churn_probability).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
      expect(schema.required).not.toContain('churn_probability');
    }
  });
});
