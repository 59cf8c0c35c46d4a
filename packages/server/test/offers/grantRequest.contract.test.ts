/**
 * The grant request tenure sends, validated against RevenueCat's official API v2 document (read from
 * `REVENUECAT_OPENAPI`, never copied into the repository): the path is the document's
 * `grant_entitlement` operation, the body conforms to its request schema (`entitlement_id`,
 * `expires_at` in ms, nothing else), with the secret key as a Bearer token. RevenueCat is a real
 * HTTP receiver on 127.0.0.1 recording what arrives. Skipped with a notice when the variable is unset.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DAY } from '../helpers/fixtures.js';
import { seed } from '../helpers/seed.js';
import { startTestServer, type TestServer } from '../helpers/testServer.js';

const GRANT = '/projects/{project_id}/customers/{customer_id}/actions/grant_entitlement';
const REVOKE = '/projects/{project_id}/customers/{customer_id}/actions/revoke_granted_entitlement';
const path = process.env['REVENUECAT_OPENAPI'];
const document = path !== undefined && existsSync(resolve(path)) ? (parse(readFileSync(resolve(path), 'utf8')) as { paths: Record<string, any> }) : null;
if (document === null) console.warn('[server] REVENUECAT_OPENAPI is unset: the grant request contract test against the official API v2 document is SKIPPED');

const received: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'customer', id: 'x' }));
  });
});
let app: TestServer;
beforeAll(async () => {
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v2`;
  const offers = [{ action: 'winback' as const, entitlement: 'entla1b2c3d4e5', duration: 'P7D', duration_ms: 7 * DAY, auto: false, daily_cap: 20, cooldown: 'P30D', cooldown_ms: 30 * DAY }];
  app = await startTestServer({ offers: { offers, apiKey: 'sk_contract', project: 'proj1ab2c3d4', baseUrl: base } });
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((done) => receiver.close(() => done()));
});

describe.skipIf(document === null)('the grant request against the official API v2 document', () => {
  it('is the grant_entitlement operation with a conforming body and the Bearer key', async () => {
    await seed(app, 'ann/with space', 'churned');
    expect((await app.request('POST', `/api/subscribers/${encodeURIComponent('ann/with space')}/offers/winback`)).status).toBe(200);
    const [request] = received;
    expect(request?.method).toBe('POST');
    const operation = document!.paths[GRANT]?.post;
    expect(operation).toBeDefined();
    // The path: the document's template under /v2, each parameter one encoded segment.
    const template = new RegExp(`^/v2${GRANT.replace(/\{[a-z_]+\}/g, '([^/]+)')}$`);
    const [, project, customer] = template.exec(request!.url) ?? [];
    expect([project, decodeURIComponent(customer ?? '')]).toEqual(['proj1ab2c3d4', 'ann/with space']);
    expect(request!.headers['authorization']).toBe('Bearer sk_contract');
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    const schema = operation.requestBody.content['application/json'].schema;
    const validate = new Ajv({ strict: false }).compile(schema);
    const body = JSON.parse(request!.body);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toEqual({ entitlement_id: 'entla1b2c3d4e5', expires_at: app.clock.now() + 7 * DAY });
    // The validator refuses what the document refuses (a check that can fail).
    expect(validate({ ...body, expires_at: String(body.expires_at) })).toBe(false);
    expect(validate({ ...body, duration: 'P7D' })).toBe(false);
  });
  it('a revoke is the revoke_granted_entitlement operation with a conforming body (the grant\'s entitlement id) and the Bearer key', async () => {
    await seed(app, 'bo/b', 'churned');
    const grant = await app.request('POST', `/api/subscribers/${encodeURIComponent('bo/b')}/offers/winback`);
    expect(grant.status).toBe(200);
    const before = received.length;
    expect((await app.request('POST', `/api/dispatches/${grant.body.dispatch_id}/revoke`, { actor: 'ops' })).status).toBe(200);
    const request = received[before]!;
    const operation = document!.paths[REVOKE]?.post;
    expect(operation).toBeDefined();
    const template = new RegExp(`^/v2${REVOKE.replace(/\{[a-z_]+\}/g, '([^/]+)')}$`);
    const [, project, customer] = template.exec(request.url) ?? [];
    expect([project, decodeURIComponent(customer ?? '')]).toEqual(['proj1ab2c3d4', 'bo/b']);
    expect(request.method).toBe('POST');
    expect(request.headers['authorization']).toBe('Bearer sk_contract');
    const validate = new Ajv({ strict: false }).compile(operation.requestBody.content['application/json'].schema);
    const body = JSON.parse(request.body);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toEqual({ entitlement_id: 'entla1b2c3d4e5' });
    expect(validate({ ...body, expires_at: 1 })).toBe(false); // additionalProperties: false
    expect(Object.keys(operation.responses)).toContain('200');
  });
});
