/** Writing a JSON answer on a bare node:http response, the one way both services do it. */
import type { ServerResponse } from 'node:http';

/** Extra headers: a flat `[name, value, …]` list (cheapest) or a record. */
export type HeaderList = readonly string[] | Readonly<Record<string, string>>;

/**
 * Given a response, a status, already serialized JSON and extra headers, writes the answer with its
 * content type and length. Ends the response without writing when an answer has already started.
 *
 * @example
 * sendJsonText(res, 200, '{"ok":true}', ['x-request-id', id]);
 */
export function sendJsonText(res: ServerResponse, status: number, json: string, headers: HeaderList = []): void {
  if (res.headersSent) return void res.end();
  // A flat header list skips writeHead's per-key object walk on the hot path.
  const list = ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(json))];
  if (Array.isArray(headers)) list.push(...(headers as readonly string[]));
  else for (const [name, value] of Object.entries(headers)) list.push(name, value);
  res.writeHead(status, list);
  res.end(json);
}

/**
 * Like `sendJsonText`, serializing `body` first.
 *
 * @example
 * sendJson(res, 404, { error: { code: 'not_found', message: 'No route' } });
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: HeaderList = []): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}
