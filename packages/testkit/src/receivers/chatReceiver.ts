/** A local HTTP receiver standing in for a Slack incoming webhook: records JSON posts, answers scripted statuses. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatPost {
  path: string;
  contentType: string | undefined;
  body: any;
}

/** `statuses` are answered in order (then 200 "ok" for every later request). */
export async function startChatReceiver(statuses: number[] = []) {
  const posts: ChatPost[] = [];
  const script = [...statuses];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = script.shift() ?? 200;
      posts.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'invalid_payload');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/XXXX`;
  return {
    url,
    posts,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
