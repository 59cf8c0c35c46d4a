/** A local HTTP receiver for webhook deliveries: records every request, answers a status chosen per request. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (the raw text when it is not JSON). */
  body: any;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/webhook`. */
  url: string;
  received: ReceivedWebhook[];
  /** Status to answer for the n-th request (0-based); default 200. May be replaced during a test. */
  statusFor: (n: number, body: any) => number;
  close(): Promise<void>;
}

/**
 * Given a status rule, starts a receiver on 127.0.0.1:0 that records every request.
 *
 * @example
 * const receiver = await startWebhookReceiver((n) => (n === 0 ? 500 : 200)); // the first delivery fails
 */
export async function startWebhookReceiver(statusFor: (n: number, body: any) => number = () => 200): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { url: '', received: [], statusFor, close: async () => undefined };
  const server = createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => {
      let body: unknown = data;
      try {
        body = JSON.parse(data);
      } catch {
        // kept as text: a test may send something that is not JSON on purpose
      }
      const n = receiver.received.length;
      receiver.received.push({ headers: req.headers, body });
      res.statusCode = receiver.statusFor(n, body);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
