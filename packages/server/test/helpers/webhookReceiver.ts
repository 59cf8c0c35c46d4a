/** A real HTTP receiver on 127.0.0.1 for alert webhooks: records every request, answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver got it. */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** One answer: its status, headers and body, after an optional delay. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

/**
 * Given the answers to give in turn (then 200) and the path of its URL, starts a receiver and
 * resolves with its URL, the requests it received and a way to close it.
 *
 * @example
 * const receiver = await startWebhookReceiver([{ status: 503 }]);
 */
export async function startWebhookReceiver(answers: ReceiverAnswer[] = [], path = '/hooks'): Promise<{ url: string; received: ReceivedRequest[]; close: () => Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200 };
      setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body ?? ''), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, received, close };
}
