import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readText, sendJson, type ReadTextResult } from '../src/index.js';
import { rawRequest } from './rawHttp.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
});

/** A server that reads each body with `limit` and reports what readText gave. */
async function listen(limit: number, seen: ReadTextResult[]): Promise<number> {
  server = createServer(async (req, res) => {
    const body = await readText(req, limit);
    seen.push(body);
    if (body.ok || body.code !== 'aborted') sendJson(res, 200, body, { connection: 'close' });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const post = (body: Buffer | string, headers = '') =>
  Buffer.concat([Buffer.from(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}\r\n`), Buffer.from(body)]);

describe('readText', () => {
  it('reads a body as text when it is valid UTF-8', async () => {
    const seen: ReadTextResult[] = [];
    const port = await listen(100, seen);
    await rawRequest(port, post('{"id":"ユーザー"}'));
    expect(seen).toEqual([{ ok: true, text: '{"id":"ユーザー"}' }]);
  });

  it('is invalid_utf8 for bytes that are not UTF-8', async () => {
    const seen: ReadTextResult[] = [];
    const port = await listen(100, seen);
    await rawRequest(port, post(Buffer.from([0x7b, 0xff, 0x7d])));
    expect(seen).toEqual([{ ok: false, code: 'invalid_utf8' }]);
  });

  it('is payload_too_large for a declared or a received size over the limit (chunked, no length)', async () => {
    const seen: ReadTextResult[] = [];
    const port = await listen(10, seen);
    await rawRequest(port, post('x'.repeat(11)));
    await rawRequest(port, `POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n8\r\n${'y'.repeat(8)}\r\n8\r\n${'y'.repeat(8)}\r\n0\r\n\r\n`);
    expect(seen).toEqual([
      { ok: false, code: 'payload_too_large' },
      { ok: false, code: 'payload_too_large' },
    ]);
  });

  it('is aborted when the client goes away mid-body', async () => {
    const seen: ReadTextResult[] = [];
    const port = await listen(100, seen);
    await rawRequest(port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 50\r\n\r\n{"half', 2000, 50);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([{ ok: false, code: 'aborted' }]);
  });
});
