/** A raw HTTP/1.1 client over net.Socket for tests: sends exact bytes, reads every response until close. */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses every response in `data` (content-length or chunked bodies; none for the answer to a HEAD). */
export function parseResponses(data: Buffer, firstIsHead = false): RawResponse[] {
  const out: RawResponse[] = [];
  let rest: Buffer = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    let body: Buffer = Buffer.alloc(0);
    let next: Buffer = rest.subarray(end + 4);
    if (headers['transfer-encoding']?.includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = next.indexOf('\r\n');
        if (lineEnd < 0) break;
        const size = parseInt(next.subarray(0, lineEnd).toString('latin1'), 16);
        next = next.subarray(lineEnd + 2);
        if (!(size > 0)) {
          next = next.subarray(Math.min(next.length, 2));
          break;
        }
        parts.push(next.subarray(0, size));
        next = next.subarray(size + 2);
      }
      body = Buffer.concat(parts);
    } else if ((status >= 100 && status < 200) || (firstIsHead && out.length === 0)) {
      body = Buffer.alloc(0);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = next.subarray(0, length);
      next = next.subarray(length);
    }
    // An interim answer (100 Continue) has no body and is not the response.
    if (status >= 200 || Number.isNaN(status)) out.push({ status, headers, body: body.toString('utf8') });
    rest = next;
  }
  return out;
}

/**
 * Given a port and the exact request bytes, writes them and resolves with every response read
 * until the server closes the connection (or `timeoutMs` passes). With `endAfterMs`, the client
 * half-closes that long after writing (a client that goes away; Node then drops a request it has
 * not answered yet), as for a request that can never complete.
 */
export function rawRequest(
  port: number,
  bytes: Buffer | string,
  timeoutMs = 3000,
  endAfterMs?: number,
): Promise<{ responses: RawResponse[]; raw: Buffer; timedOut: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer is fine; the answer is what counts
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const isHead = (typeof bytes === 'string' ? bytes : bytes.toString('latin1', 0, 5)).startsWith('HEAD ');
      resolve({ responses: parseResponses(raw, isHead), raw, timedOut });
    });
    socket.on('connect', () => {
      socket.write(bytes, () => {
        if (endAfterMs !== undefined) setTimeout(() => socket.end(), endAfterMs).unref();
      });
    });
  });
}
