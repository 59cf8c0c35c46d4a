import { describe, expect, it } from 'vitest';
import { createStaticPage, PAGE_CSP, trailingSlashLocation } from './staticPage.js';

const page = createStaticPage('<!doctype html><p>hi</p>', [{ path: 'page/app.0123456789ab.js', type: 'text/javascript; charset=utf-8', body: 'void 0;' }]);

describe('createStaticPage', () => {
  it('answers / as HTML that must be revalidated, with the same-origin CSP', () => {
    const res = page.answer('GET', '/')!;
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff' });
    expect(res.body.toString()).toBe('<!doctype html><p>hi</p>');
  });

  it('answers an asset as immutable, without a CSP (a script is not a document)', () => {
    const res = page.answer('GET', '/page/app.0123456789ab.js')!;
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBeUndefined();
  });

  it('answers 304 with no body when If-None-Match is the ETag, and HEAD with no body', () => {
    const etag = page.answer('GET', '/')!.headers['etag']!;
    expect(page.answer('GET', '/', etag)).toMatchObject({ status: 304, body: Buffer.alloc(0) });
    expect(page.answer('HEAD', '/')).toMatchObject({ status: 200, body: Buffer.alloc(0) });
  });

  it('leaves every other request to the service (undefined)', () => {
    expect(page.answer('POST', '/')).toBeUndefined();
    expect(page.answer('GET', '/page/app.000000000000.js')).toBeUndefined();
  });
});

describe('trailingSlashLocation', () => {
  it('adds the slash before the query, and leaves a path that has one alone', () => {
    expect(trailingSlashLocation('/billing')).toBe('/billing/');
    expect(trailingSlashLocation('/retention?environment=sandbox')).toBe('/retention/?environment=sandbox');
    expect(trailingSlashLocation('/billing/')).toBeUndefined();
  });
});
