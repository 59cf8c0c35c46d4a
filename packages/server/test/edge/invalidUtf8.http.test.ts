// Regression: bodies used to be decoded with replacement characters, so two app_user_ids that
// differ only in invalid bytes became one subscriber (and a distinct event id a "duplicate").
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { startTestServer, type Mode, type TestServer } from '../helpers/testServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The fixture as JSON bytes with `marker` replaced by raw bytes (inside a JSON string). */
function bodyWithBytes(overrides: Record<string, unknown>, marker: string, bytes: number[]): Buffer {
  const text = JSON.stringify(fixture('initial_purchase', overrides));
  const at = text.indexOf(marker);
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at + marker.length))]);
}

const postBytes = async (url: string, path: string, body: Buffer) => {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as any };
};

describe.each<Mode>(['listener', 'express'])('a body that is not valid UTF-8 (%s)', (mode) => {
  it('is a 400 naming body, and two such ids never merge into one subscriber', async () => {
    server = await startTestServer({}, mode);
    const a = bodyWithBytes({ app_user_id: 'user-@@', id: 'evt-a' }, '@@', [0xff]);
    const b = bodyWithBytes({ app_user_id: 'user-@@', id: 'evt-b' }, '@@', [0xfe]);
    // Decoded leniently, both ids read "user-\uFFFD": the defect this guards against.
    expect(JSON.parse(a.toString('utf8')).event.app_user_id).toBe(JSON.parse(b.toString('utf8')).event.app_user_id);
    for (const body of [a, b]) {
      const res = await postBytes(server.url, '/webhook', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: 'invalid_request', message: expect.stringContaining('UTF-8'), field: 'body' } });
    }
    expect(await server.store.count()).toBe(0);
    expect(await server.store.eventCount()).toBe(0);
  });

  it('rejects an overlong encoding and a lone surrogate encoded in UTF-8 (CESU) as well', async () => {
    server = await startTestServer({}, mode);
    for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const res = await postBytes(server.url, '/webhook', bodyWithBytes({ app_user_id: 'u-@@', id: 'e1' }, '@@', bytes));
      expect(res.status).toBe(400);
      expect(res.body.error.field).toBe('body');
    }
    expect(await server.store.count()).toBe(0);
  });

  it('still accepts valid multi-byte UTF-8 ids, each its own subscriber', async () => {
    server = await startTestServer({}, mode);
    for (const [id, user] of [['e1', 'usér-1'], ['e2', 'ユーザー'], ['e3', 'user-😀']]) {
      expect((await server.webhook(fixture('initial_purchase', { id, app_user_id: user }))).status).toBe(200);
    }
    expect(await server.store.count()).toBe(3);
    expect((await server.store.get('ユーザー'))?.customer_id).toBe('ユーザー');
  });

  it('is a 400 naming body on the JSON API too, and changes nothing', async () => {
    server = await startTestServer({}, mode);
    await server.webhook(fixture('initial_purchase', { id: 'e1', app_user_id: 'u1' }));
    const before = await server.store.get('u1');
    const body = Buffer.concat([Buffer.from('{"at":1767225600000,"x":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const res = await postBytes(server.url, '/api/subscribers/u1/activity', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ field: 'body' });
    expect(await server.store.get('u1')).toEqual(before);
  });
});
