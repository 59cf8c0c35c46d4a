import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from './helpers.js';

let app: TestApp;
beforeEach(async () => {
  app = await startApp();
});
afterEach(async () => {
  await app.close();
});

const create = (body: unknown) => app.call('POST', `${P}/virtual_currencies`, body);

describe('POST /v2/projects/{project_id}/virtual_currencies', () => {
  it('answers 201 with an active currency and an empty grant list', async () => {
    const res = await create({ code: 'CRD', name: 'Credits', description: 'AI credits' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'virtual_currency',
      project_id: 'proj1',
      code: 'CRD',
      name: 'Credits',
      description: 'AI credits',
      created_at: app.sim.now(),
      state: 'active',
      product_grants: [],
    });
  });
  it('answers 409 resource_already_exists for a duplicate code', async () => {
    await create({ code: 'CRD', name: 'Credits' });
    const res = await create({ code: 'CRD', name: 'Again' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ object: 'error', type: 'resource_already_exists', param: 'code', retryable: false });
  });
  it.each([
    [{ code: '', name: 'n' }, 'code'],
    [{ code: 'ABCDEFGHIJK', name: 'n' }, 'code'],
    [{ code: 'A-B', name: 'n' }, 'code'],
    [{ code: 'OK', name: '' }, 'name'],
    [{ code: 'OK', name: 'x'.repeat(51) }, 'name'],
    [{ code: 'OK', name: 'n', description: 'd'.repeat(1501) }, 'description'],
    [{ code: 'OK', name: 'n', product_grants: [{ product_ids: ['m'], amount: 0 }] }, 'product_grants.0.amount'],
    [{ code: 'OK', name: 'n', product_grants: [{ product_ids: ['m'], amount: 1, trial_amount: -1 }] }, 'product_grants.0.trial_amount'],
    [{ code: 'OK', name: 'n', extra: 1 }, 'extra'],
    [{ name: 'n' }, 'code'],
  ])('answers 400 parameter_error naming the param for %j', async (body, param) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ object: 'error', type: 'parameter_error', param, retryable: false, doc_url: 'https://errors.rev.cat/parameter-error' });
    expect((await app.call('GET', `${P}/virtual_currencies`)).body.items).toEqual([]);
  });
  it('refuses a 101st currency in a project with 422', async () => {
    // 101 creates in one minute pass Project Configuration's 60/min: this test is about the 100 cap.
    await app.close();
    app = await startApp({}, { rateLimits: false });
    for (let i = 0; i < 100; i++) expect((await create({ code: `C${i}`, name: `c${i}` })).status).toBe(201);
    const res = await create({ code: 'C100', name: 'one too many' });
    expect(res.status).toBe(422);
    expect(res.body.type).toBe('unprocessable_entity_error');
  });
});

describe('POST /v2/projects/{project_id}/virtual_currencies/{code}', () => {
  beforeEach(async () => {
    await create({ code: 'CRD', name: 'Credits', description: 'd' });
  });
  it('gives every grant in the response product_ids, amount, expire_at_cycle_end false and trial_amount 0 by default', async () => {
    const res = await app.call('POST', `${P}/virtual_currencies/CRD`, { product_grants: [{ product_ids: ['monthly', 'monthly_alt'], amount: 100 }] });
    expect(res.status).toBe(200);
    expect(res.body.product_grants).toEqual([
      { object: 'virtual_currency.product_grant', product_ids: ['monthly', 'monthly_alt'], amount: 100, expire_at_cycle_end: false, trial_amount: 0 },
    ]);
  });
  it('replaces the whole grant list with a given product_grants', async () => {
    await app.call('POST', `${P}/virtual_currencies/CRD`, { product_grants: [{ product_ids: ['a'], amount: 1 }] });
    const res = await app.call('POST', `${P}/virtual_currencies/CRD`, { product_grants: [{ product_ids: ['b'], amount: 2, expire_at_cycle_end: true, trial_amount: 5 }] });
    expect(res.body.product_grants).toEqual([{ object: 'virtual_currency.product_grant', product_ids: ['b'], amount: 2, expire_at_cycle_end: true, trial_amount: 5 }]);
  });
  it('updates name and description and keeps the grants when product_grants is omitted', async () => {
    await app.call('POST', `${P}/virtual_currencies/CRD`, { product_grants: [{ product_ids: ['a'], amount: 1 }] });
    const res = await app.call('POST', `${P}/virtual_currencies/CRD`, { name: 'Coins', description: 'new' });
    expect(res.body).toMatchObject({ name: 'Coins', description: 'new', code: 'CRD' });
    expect(res.body.product_grants).toHaveLength(1);
  });
  it('rejects a grant with a singular product_id with 400 saying to use the product_ids array', async () => {
    const res = await app.call('POST', `${P}/virtual_currencies/CRD`, { product_grants: [{ product_id: 'monthly', amount: 100 }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'parameter_error', param: 'product_grants.0.product_id' });
    expect(res.body.message).toMatch(/product_ids array/);
    expect((await app.call('GET', `${P}/virtual_currencies/CRD`)).body.product_grants).toEqual([]);
  });
  it('answers PATCH on the update path with 404', async () => {
    const res = await app.call('PATCH', `${P}/virtual_currencies/CRD`, { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ object: 'error', type: 'resource_missing' });
  });
  it('does not accept the update path without /v2 (404)', async () => {
    const res = await app.call('POST', '/projects/proj1/virtual_currencies/CRD', { name: 'x' });
    expect(res.status).toBe(404);
    expect((await app.call('GET', `${P}/virtual_currencies/CRD`)).body.name).toBe('Credits');
  });
  it('answers 404 for an unknown code', async () => {
    expect((await app.call('POST', `${P}/virtual_currencies/NOPE`, { name: 'x' })).status).toBe(404);
  });
});

describe('GET and DELETE /v2/projects/{project_id}/virtual_currencies', () => {
  it('lists currencies in pages with next_page and url', async () => {
    for (const code of ['A', 'B', 'C']) await create({ code, name: code });
    const first = await app.call('GET', `${P}/virtual_currencies?limit=2`);
    expect(first.body).toMatchObject({ object: 'list', url: `${P}/virtual_currencies`, next_page: `${P}/virtual_currencies?starting_after=B&limit=2` });
    expect(first.body.items.map((c: { code: string }) => c.code)).toEqual(['A', 'B']);
    const second = await app.call('GET', first.body.next_page);
    expect(second.body.items.map((c: { code: string }) => c.code)).toEqual(['C']);
    expect(second.body.next_page).toBeNull();
  });
  it('answers 400 naming limit for a bad limit', async () => {
    expect((await app.call('GET', `${P}/virtual_currencies?limit=0`)).body).toMatchObject({ type: 'parameter_error', param: 'limit' });
  });
  it('gets one currency, and 404 for an unknown one', async () => {
    await create({ code: 'CRD', name: 'Credits' });
    expect((await app.call('GET', `${P}/virtual_currencies/CRD`)).body.code).toBe('CRD');
    expect((await app.call('GET', `${P}/virtual_currencies/XYZ`)).status).toBe(404);
  });
  it('deletes a currency with a deleted object, then 404s it', async () => {
    await create({ code: 'CRD', name: 'Credits' });
    const res = await app.call('DELETE', `${P}/virtual_currencies/CRD`);
    expect(res.body).toEqual({ object: 'virtual_currency', id: 'CRD', deleted_at: app.sim.now() });
    expect((await app.call('GET', `${P}/virtual_currencies/CRD`)).status).toBe(404);
    expect((await app.call('DELETE', `${P}/virtual_currencies/CRD`)).status).toBe(404);
  });
});
