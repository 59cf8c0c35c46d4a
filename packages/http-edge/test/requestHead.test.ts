import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRequestHead, EDGE_SERVER_OPTIONS, sendJson } from '../src/index.js';
import { rawRequest } from './rawHttp.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
});

async function listen(): Promise<number> {
  server = createServer(EDGE_SERVER_OPTIONS, (req, res) => {
    const head = checkRequestHead(req);
    if (!head.ok) return sendJson(res, head.problem.status, { error: head.problem });
    sendJson(res, 200, { path: head.target.path });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe('checkRequestHead', () => {
  it('answers an HTTP/1.1 request without Host 400 naming host (Node alone answers an empty 400)', async () => {
    const port = await listen();
    const { responses } = await rawRequest(port, 'GET /a HTTP/1.1\r\nconnection: close\r\n\r\n');
    expect(responses[0]?.status).toBe(400);
    expect(JSON.parse(responses[0]!.body).error).toMatchObject({ code: 'bad_request', field: 'host' });
  });

  it('accepts HTTP/1.0 without Host, and a path like //a:b', async () => {
    const port = await listen();
    expect((await rawRequest(port, 'GET /a HTTP/1.0\r\n\r\n')).responses[0]?.status).toBe(200);
    const { responses } = await rawRequest(port, 'GET //a:b HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(JSON.parse(responses[0]!.body)).toEqual({ path: '//a:b' });
  });

  it('answers a target that is not a path 400 naming path', async () => {
    const port = await listen();
    const { responses } = await rawRequest(port, 'OPTIONS * HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(responses[0]?.status).toBe(400);
    expect(JSON.parse(responses[0]!.body).error).toMatchObject({ code: 'bad_request_target', field: 'path' });
  });
});
