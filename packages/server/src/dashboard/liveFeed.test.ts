import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveFeed, MAX_IDS_PER_CHANGE, type LiveFeed } from './liveFeed.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server whose every request becomes a stream of `feed`; resolves with its URL. */
async function serve(feed: LiveFeed): Promise<string> {
  server = createServer((req, res) => {
    if (!feed.attach(req, res)) res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads the stream's text until it contains `needle`. */
async function readUntil(reader: ReadableStreamDefaultReader<string>, needle: string): Promise<string> {
  let text = '';
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${needle}: ${text}`);
    text += value;
  }
  return text;
}

describe('createLiveFeed', () => {
  it('coalesces changes into one event naming each customer once, at most 50, then says truncated', async () => {
    const feed = createLiveFeed({ flushMs: 50 });
    const res = await fetch(await serve(feed));
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    await readUntil(reader, 'event: hello');
    for (let i = 0; i < MAX_IDS_PER_CHANGE + 10; i++) feed.publish(`c${i}`);
    feed.publish('c0');
    const text = await readUntil(reader, '\n\n');
    const data = JSON.parse(/^data: (.*)$/m.exec(text)![1]!);
    expect(data.customer_ids).toHaveLength(MAX_IDS_PER_CHANGE);
    expect(new Set(data.customer_ids).size).toBe(MAX_IDS_PER_CHANGE);
    expect(data.truncated).toBe(true);
    feed.close();
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const feed = createLiveFeed({ heartbeatMs: 20 });
    const reader = (await fetch(await serve(feed))).body!.pipeThrough(new TextDecoderStream()).getReader();
    await readUntil(reader, ': ping\n\n');
    feed.close();
  });

  it('drops a client that stops reading instead of buffering for it without end', async () => {
    const feed = createLiveFeed({ flushMs: 1 });
    const url = new URL(await serve(feed));
    const socket = connect(Number(url.port), '127.0.0.1');
    socket.write(`GET / HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    socket.pause(); // never reads: the kernel's buffers fill, then the server's
    const closed = new Promise((resolve) => socket.once('close', resolve));
    while (feed.size === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const long = 'x'.repeat(250);
    for (let round = 0; feed.size > 0 && round < 2_000; round++) {
      for (let i = 0; i < 50; i++) feed.publish(`${long}${round}-${i}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(feed.size).toBe(0);
    socket.resume();
    await closed;
    feed.close();
  });

  it('refuses streams past maxClients and after close, and reports when it is active', async () => {
    const active: boolean[] = [];
    const feed = createLiveFeed({ maxClients: 1, onActive: (a) => active.push(a) });
    const url = await serve(feed);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect((await fetch(url)).status).toBe(503);
    expect(feed.size).toBe(1);
    feed.close();
    await first.text(); // ended by close
    expect(feed.size).toBe(0);
    expect((await fetch(url)).status).toBe(503);
    expect(active).toEqual([true, false]);
  });
});
