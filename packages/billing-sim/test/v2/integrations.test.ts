import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integrationTargets, webhookIntegrationsOf } from '../../src/machine/integrations.js';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
const HOOKS = '/v2/projects/proj1/integrations/webhooks';
beforeEach(async () => {
  app = await startApp({ projects: ['proj1', 'other'] });
});
afterEach(async () => {
  await app.close();
});

describe('API v2 webhook integrations', () => {
  it('creates an integration (201), never showing its Authorization value, and stores it in the world with the filters', async () => {
    const res = await app.call('POST', HOOKS, { name: 'backend', url: 'http://127.0.0.1:3000/webhook', authorization_header: 'Bearer s3cret', environment: 'production', event_types: ['renewal'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'webhook_integration', id: expect.stringMatching(/^wh[0-9a-f]{16}$/), project_id: 'proj1', name: 'backend',
      url: 'http://127.0.0.1:3000/webhook', environment: 'production', event_types: ['renewal'], app_id: null, created_at: app.sim.now(),
    });
    expect(webhookIntegrationsOf(app.sim.world(), 'proj1')).toMatchObject([{ id: res.body.id, authorization_header: 'Bearer s3cret', environment: 'production', event_types: ['renewal'] }]);
  });

  it('gives delivery its targets per project: URL, the Authorization value verbatim, the filters', async () => {
    const id = (await app.call('POST', HOOKS, { name: 'a', url: 'https://a.test/h', authorization_header: 'Bearer k', environment: 'sandbox', event_types: ['renewal'] })).body.id;
    await app.call('POST', '/v2/projects/other/integrations/webhooks', { name: 'b', url: 'https://b.test' });
    expect(integrationTargets(app.sim.world(), 'proj1')).toEqual([{ id, url: 'https://a.test/h', authorization: 'Bearer k', environment: 'sandbox', event_types: ['renewal'] }]);
    expect(integrationTargets(app.sim.world(), null)).toHaveLength(2);
  });

  it('lists in creation order, per project', async () => {
    const a = (await app.call('POST', HOOKS, { name: 'a', url: 'https://a.test' })).body.id;
    const b = (await app.call('POST', HOOKS, { name: 'b', url: 'https://b.test' })).body.id;
    await app.call('POST', '/v2/projects/other/integrations/webhooks', { name: 'c', url: 'https://c.test' });
    expect((await app.call('GET', HOOKS)).body.items.map((i: { id: string }) => i.id)).toEqual([a, b]);
    expect((await app.call('GET', `/v2/projects/other/integrations/webhooks/${a}`)).status).toBe(404);
  });

  it('updates the given fields only; null clears a filter', async () => {
    const id = (await app.call('POST', HOOKS, { name: 'a', url: 'https://a.test', authorization_header: 'k', environment: 'sandbox', event_types: ['renewal'] })).body.id;
    const res = await app.call('POST', `${HOOKS}/${id}`, { event_types: null, name: 'b' });
    expect(res.body).toMatchObject({ name: 'b', url: 'https://a.test', environment: 'sandbox', event_types: null });
    expect(webhookIntegrationsOf(app.sim.world(), 'proj1')[0]?.authorization_header).toBe('k');
  });

  it('deletes: 200 DeletedObject, then 404', async () => {
    const id = (await app.call('POST', HOOKS, { name: 'a', url: 'https://a.test' })).body.id;
    expect((await app.call('DELETE', `${HOOKS}/${id}`)).body).toEqual({ object: 'webhook_integration', id, deleted_at: app.sim.now() });
    expect((await app.call('GET', `${HOOKS}/${id}`)).body).toMatchObject({ type: 'resource_missing', param: 'webhook_integration_id' });
    expect(webhookIntegrationsOf(app.sim.world(), null)).toEqual([]);
  });

  it.each([
    [{ url: 'https://a.test' }, 'name'],
    [{ name: 'a', url: 'mailto:x@y.test' }, 'url'],
    [{ name: 'a', url: 'https://a.test', environment: 'staging' }, 'environment'],
    [{ name: 'a', url: 'https://a.test', event_types: ['RENEWAL'] }, 'event_types.0'],
    [{ name: 'a', url: 'https://a.test', extra: 1 }, 'extra'],
  ])('answers 400 naming the field for %j', async (body, param) => {
    expect(await app.call('POST', HOOKS, body)).toMatchObject({ status: 400, body: { type: 'parameter_error', param } });
  });
});
