import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { installParserErrorHandlers, rawErrorResponse, type EdgeProblem } from '../src/index.js';
import { rawRequest } from './rawHttp.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

const format = (p: EdgeProblem) => ({ error: { code: p.code, message: p.message, field: p.field } });

async function listen(withHandler: boolean): Promise<number> {
  server = createServer((_req, res) => res.end('ok'));
  if (withHandler) installParserErrorHandlers(server, format);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const hugeHeader = `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`;

describe('installParserErrorHandlers', () => {
  it("without it, Node's 431 has no body (the defect)", async () => {
    const port = await listen(false);
    const { responses } = await rawRequest(port, hugeHeader);
    expect(responses[0]?.status).toBe(431);
    expect(responses[0]?.body).toBe('');
  });

  it('answers headers too large with 431, the JSON envelope and connection: close', async () => {
    const port = await listen(true);
    const { responses } = await rawRequest(port, hugeHeader);
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ status: 431, headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' } });
    expect(JSON.parse(responses[0]!.body)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String), field: 'headers' } });
  });

  it('answers a bad request line with 400 and the envelope', async () => {
    const port = await listen(true);
    for (const bytes of ['GARBAGE\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'GET /\x00 HTTP/1.1\r\n\r\n', 'POST / HTTP/1.1\r\ncontent-length: x\r\n\r\n']) {
      const { responses } = await rawRequest(port, bytes);
      expect(responses[0]?.status, JSON.stringify(bytes)).toBe(400);
      expect(JSON.parse(responses[0]!.body).error.code).toBe('bad_request');
    }
  });

  it('still serves good requests after bad ones', async () => {
    const port = await listen(true);
    await rawRequest(port, 'GARBAGE\r\n\r\n');
    const { responses } = await rawRequest(port, 'GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(responses[0]).toMatchObject({ status: 200, body: 'ok' });
  });
});

describe('rawErrorResponse', () => {
  it('writes a complete HTTP/1.1 response whose length header matches the body bytes', () => {
    const text = rawErrorResponse({ code: 'bad_request', status: 400, message: 'é', field: null }, format);
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain(`content-length: ${Buffer.byteLength(body!)}`);
  });
});

describe('installParserErrorHandlers and Expect', () => {
  it('answers an Expect other than 100-continue with 417 and the envelope (Node alone sends no body)', async () => {
    const port = await listen(true);
    const { responses } = await rawRequest(port, 'POST / HTTP/1.1\r\nhost: x\r\nexpect: nonsense\r\ncontent-length: 2\r\n\r\n{}');
    expect(responses[0]?.status).toBe(417);
    expect(JSON.parse(responses[0]!.body)).toEqual({ error: { code: 'expectation_failed', message: expect.any(String), field: 'expect' } });
  });
});

describe('installParserErrorHandlers and pipelined garbage', () => {
  it('lets the answer of a request already running reach the client, then closes (no 400 in its place)', async () => {
    server = createServer((_req, res) => void setTimeout(() => res.end('done'), 50));
    installParserErrorHandlers(server, format);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const { responses, timedOut } = await rawRequest(port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n{"not":"a request"}\r\n\r\n');
    expect(timedOut).toBe(false);
    expect(responses.map((r) => [r.status, r.body])).toEqual([[200, 'done']]);
  });
});

describe('installParserErrorHandlers and a broken body', () => {
  it('answers the error when the request being read is the broken one (its body never completes)', async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('read'));
    });
    installParserErrorHandlers(server, format);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const { responses, timedOut } = await rawRequest(port, 'POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n');
    expect(timedOut).toBe(false);
    expect(responses.map((r) => r.status)).toEqual([400]);
    const get = await rawRequest(port, 'GET / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: Bearer x\r\n\r\n');
    expect(get.timedOut).toBe(false);
    expect(get.responses.map((r) => r.status)).toEqual([400]);
  });
});
