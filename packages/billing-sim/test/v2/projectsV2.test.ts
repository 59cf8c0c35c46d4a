import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp;
afterEach(async () => {
  await app?.close();
});

describe('API v2 projects, apps and customer creation', () => {
  it('lists the projects that exist, the default first, and creates one with a name', async () => {
    app = await startApp({ default_project_id: 'main', projects: ['other'] });
    const before = await app.call('GET', '/v2/projects');
    expect(before.body.items.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([['main', 'main'], ['other', 'other']]);
    const created = await app.call('POST', '/v2/projects', { name: 'Shop' });
    expect(created).toMatchObject({ status: 200, body: { object: 'project', name: 'Shop' } });
    expect(created.body.id).toMatch(/^proj[0-9a-f]{8}$/);
    expect((await app.call('GET', `/v2/projects/${created.body.id}/customers`)).status).toBe(200);
    expect((await app.call('GET', '/v2/projects')).body.items).toHaveLength(3);
    expect((await app.call('POST', '/v2/projects', { name: 'x'.repeat(256) })).body).toMatchObject({ type: 'parameter_error', param: 'name' });
  });

  it("answers the simulator's app, of its store's type, and a Test Store app in every project", async () => {
    app = await startApp({ store: 'PLAY_STORE', app_id: 'app_x', projects: ['proj2'] });
    expect((await app.call('GET', '/v2/projects/proj2/apps')).body.items).toEqual([
      { object: 'app', id: 'app_x', name: 'app_x', created_at: 0, type: 'play_store', project_id: 'proj2' },
      { object: 'app', id: 'app_x_test', name: 'app_x_test', created_at: 0, type: 'test_store', project_id: 'proj2' },
    ]);
    expect((await app.call('GET', '/v2/projects/proj_sim/apps/app_x')).body).toMatchObject({ project_id: 'proj_sim', type: 'play_store' });
    expect((await app.call('GET', '/v2/projects/proj_sim/apps/other')).body).toMatchObject({ type: 'resource_missing', param: 'app_id' });
  });

  it("lists each app's public API key: by store prefix, the same in every run, different per project and app", async () => {
    app = await startApp({ store: 'PLAY_STORE', app_id: 'app_x', projects: ['proj2'] });
    const keyOf = async (project: string, appId: string) => (await app.call('GET', `/v2/projects/${project}/apps/${appId}/public_api_keys`)).body.items;
    const [play] = await keyOf('proj2', 'app_x');
    expect(play).toMatchObject({ object: 'public_api_key', app_id: 'app_x', environment: 'production' });
    expect(play.key).toMatch(/^goog_[0-9a-f]{24}$/);
    const [test] = await keyOf('proj2', 'app_x_test');
    expect(test).toMatchObject({ app_id: 'app_x_test', environment: 'sandbox' });
    expect(test.key).toMatch(/^test_[0-9a-f]{24}$/);
    const [other] = await keyOf('proj_sim', 'app_x');
    expect(new Set([play.key, test.key, other.key]).size).toBe(3);
    await app.close();
    app = await startApp({ store: 'PLAY_STORE', app_id: 'app_x', projects: ['proj2'], seed: 'another' });
    expect((await keyOf('proj2', 'app_x'))[0].key).toBe(play.key);
  });

  it('creates a customer with its attributes: 201, then listed and searchable; 409 for an existing id', async () => {
    app = await startApp();
    const P = '/v2/projects/proj_sim';
    const created = await app.call('POST', `${P}/customers`, { id: 'new-user_1', attributes: [{ name: '$email', value: 'n@example.com' }, { name: 'plan', value: 'pro' }] });
    expect(created).toMatchObject({ status: 201, body: { object: 'customer', id: 'new-user_1', project_id: 'proj_sim' } });
    expect((await app.call('GET', `${P}/customers?search=n@example.com`)).body.items.map((c: { id: string }) => c.id)).toEqual(['new-user_1']);
    expect((await app.call('GET', `${P}/customers/new-user_1/attributes`)).body.items.map((a: { name: string }) => a.name)).toEqual(['$email', 'plan']);
    expect((await app.call('POST', `${P}/customers`, { id: 'new-user_1' })).body).toMatchObject({ type: 'resource_already_exists', param: 'id' });
    expect((await app.call('POST', `${P}/customers`, { id: 'a/b' })).body).toMatchObject({ type: 'parameter_error', param: 'id' });
    expect((await app.call('POST', `${P}/customers`, { id: 'u', attributes: [{ name: '9bad', value: 'x' }] })).body).toMatchObject({ param: 'attributes.0.name' });
  });
});
