import { afterEach, describe, expect, it } from 'vitest';
import { SERVED_V2 } from './recordingApp.js';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

/** A concrete path for a route pattern, in the given project. */
const pathFor = (pattern: string, project: string) => pattern.replace(':project_id', project).replace(/:[a-z_]+/g, 'X1');

/** The served routes inside a project (`/v2/projects` itself names none). */
const IN_PROJECT = SERVED_V2.filter((key) => key.includes(':project_id'));

describe('projects', () => {
  it('answers every API v2 route on an unknown project with 404 resource_missing naming project_id', async () => {
    app = await startApp();
    for (const key of IN_PROJECT) {
      const [method, pattern] = key.split(' ') as [string, string];
      const res = await app.call(method, pathFor(pattern, 'nowhere'), method === 'POST' ? { adjustments: { X1: 1 }, code: 'X1', name: 'x' } : undefined);
      expect({ key, status: res.status, type: res.body.type, param: res.body.param }).toEqual({ key, status: 404, type: 'resource_missing', param: 'project_id' });
    }
  });

  it('refuses a project_id longer than 20 characters with 400 parameter_error, before looking it up', async () => {
    app = await startApp();
    const long = 'p'.repeat(21);
    await app.call('POST', '/sim/purchases', { project_id: 'p'.repeat(20), customer_id: 'u1', product_id: 'none' });
    for (const key of IN_PROJECT) {
      const [method, pattern] = key.split(' ') as [string, string];
      const res = await app.call(method, pathFor(pattern, long));
      expect({ key, status: res.status, param: res.body.param }).toEqual({ key, status: 400, param: 'project_id' });
    }
    expect((await app.call('GET', `/v2/projects/${'p'.repeat(20)}/virtual_currencies`)).status).not.toBe(400);
  });

  it('has the default project from the start, and the configured ones', async () => {
    app = await startApp({ default_project_id: 'main', projects: ['proj1', 'other', 'proj1'] });
    expect((await app.call('GET', '/sim/projects')).body.items.map((p: { id: string }) => p.id)).toEqual(['main', 'other', 'proj1']);
    expect((await app.call('GET', '/v2/projects/main/virtual_currencies')).status).toBe(200);
    expect((await app.call('GET', '/v2/projects/other/virtual_currencies')).status).toBe(200);
  });

  it('creates a project with POST /sim/projects: 201, then 409 for the same id, 400 for a bad id', async () => {
    app = await startApp();
    expect((await app.call('GET', '/v2/projects/fresh/virtual_currencies')).status).toBe(404);
    const created = await app.call('POST', '/sim/projects', { id: 'fresh' });
    expect(created).toMatchObject({ status: 201, body: { object: 'sim.project', id: 'fresh' } });
    expect((await app.call('GET', '/v2/projects/fresh/virtual_currencies')).body).toMatchObject({ object: 'list', items: [] });
    expect((await app.call('POST', '/sim/projects', { id: 'fresh' })).body).toMatchObject({ type: 'resource_already_exists', param: 'id' });
    expect((await app.call('POST', '/sim/projects', { id: 'proj_sim' })).status).toBe(409);
    for (const id of ['', 'x'.repeat(21)]) expect((await app.call('POST', '/sim/projects', { id }))).toMatchObject({ status: 400, body: { param: 'project_id' } });
    expect((await app.call('POST', '/sim/projects', { id: 5 })).body).toMatchObject({ type: 'parameter_error', param: 'id' });
  });

  it('creates a project when a /sim write names it (as a dashboard would)', async () => {
    app = await startApp();
    await app.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    expect((await app.call('POST', '/sim/purchases', { project_id: 'shop', customer_id: 'u1', product_id: 'monthly' })).status).toBe(201);
    expect((await app.call('GET', '/v2/projects/shop/customers/u1')).body).toMatchObject({ object: 'customer', id: 'u1', project_id: 'shop' });
  });

  it('keeps the configured projects through a reset and forgets the created ones', async () => {
    app = await startApp();
    await app.call('POST', '/sim/projects', { id: 'temp' });
    await app.call('POST', '/sim/reset');
    expect((await app.call('GET', '/sim/projects')).body.items.map((p: { id: string }) => p.id)).toEqual(['proj_sim', 'proj1']);
  });
});
