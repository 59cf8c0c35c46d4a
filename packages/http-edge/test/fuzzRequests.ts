/**
 * Raw HTTP/1.1 requests for the fuzz suites of both services (fast-check): request lines, paths,
 * headers and bodies a hostile or broken client could send, written byte for byte to a socket.
 */
import fc from 'fast-check';
import type { RawResponse } from './rawHttp.js';

/** One valid request of a service, the seed the generator mutates. */
export interface FuzzSeed {
  method: string;
  /** The path, with a query string when useful. */
  path: string;
  /** A valid JSON body, for routes that take one. */
  body?: unknown;
}

/** What the generator knows about one service: valid requests to start from. */
export interface FuzzService {
  seeds: readonly FuzzSeed[];
}

/** One generated request: the bytes to send, and what they are (for failure messages). */
export interface FuzzRequest {
  bytes: Buffer;
  method: string;
  /** The body was declared longer than sent or the head never ended: no answer is acceptable. */
  incomplete: boolean;
  /** The body is larger than the 1 MB limit. */
  huge: boolean;
  describe: string;
}

const ODD_PATHS = ['//a:b', '//a:b/webhook', '/%', '/%zz', '/a%00b', '/?%', '*', '//', '/..%2f..%2f', '/?a=%E0%A4%A', '/%F0%9F', '/\u00e9', 'http://x/health', 'a:b'];

const method = (seed: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(seed) },
    { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );

const path = (seed: string, known: readonly string[]) =>
  fc.oneof(
    { weight: 10, arbitrary: fc.constant(seed) },
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: fc.constantFrom(...ODD_PATHS) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...known), fc.string({ maxLength: 30 })).map(([p, q]) => `${p}?${q}`) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map((s) => `/${s}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 40_000 }).map((n) => `/${'a'.repeat(n)}`) },
  );

const version = fc.oneof({ weight: 12, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', '', 'http/1.1') });

const header: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), fc.string({ maxLength: 30 }).map((v) => v.replace(/[\r\n]/g, ' '))) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('authorization', 'x-request-id', 'content-encoding', 'expect', 'transfer-encoding', 'accept'), fc.constantFrom('Bearer x', 'gzip', '100-continue', 'chunked, identity', '', '\u00ff', 'x'.repeat(200))) },
  { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 40_000 }).map((n) => ['x-big', 'a'.repeat(n)] as [string, string]) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })) },
);

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | undefined>('application/json') },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>('application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1', undefined) },
);

const INVALID_UTF8: readonly number[][] = [[0xff], [0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80]];

const insertBytes = (text: string, at: number, bytes: readonly number[]): Buffer => {
  const i = Math.min(at, text.length);
  return Buffer.concat([Buffer.from(text.slice(0, i)), Buffer.from(bytes), Buffer.from(text.slice(i))]);
};

const body = (seed: unknown, valid: readonly unknown[]) => {
  const json = (seed === undefined ? fc.constantFrom(...valid) : fc.oneof(fc.constant(seed), fc.constantFrom(...valid))).map((v) => JSON.stringify(v));
  return fc.oneof(
    { weight: seed === undefined ? 8 : 2, arbitrary: fc.constant<{ bytes: Buffer | undefined; huge: false }>({ bytes: undefined, huge: false }) },
    ...(seed === undefined ? [] : [{ weight: 8, arbitrary: fc.constant({ bytes: Buffer.from(JSON.stringify(seed)), huge: false }) }]),
    { weight: 2, arbitrary: json.map((t) => ({ bytes: Buffer.from(t), huge: false })) },
    { weight: 3, arbitrary: fc.tuple(json, fc.nat()).map(([t, n]) => ({ bytes: Buffer.from(t.slice(0, n % Math.max(1, t.length))), huge: false })) },
    { weight: 3, arbitrary: fc.tuple(json, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([t, n, b]) => ({ bytes: insertBytes(t, n % (t.length + 1), b), huge: false })) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 3 }).map((t) => ({ bytes: Buffer.from(t), huge: false })) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => ({ bytes: Buffer.from(a), huge: false })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...valid), fc.constantFrom(10_000, 200_000, 1_100_000)).map(([v, n]) => {
        const withField = typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...(v as object), x: 'a'.repeat(n) } : { x: 'a'.repeat(n) };
        const bytes = Buffer.from(JSON.stringify(withField));
        return { bytes, huge: bytes.length > 1024 * 1024 };
      }),
    },
  );
};

type Framing = 'length' | 'chunked' | 'truncated' | 'undeclared';
const framing = fc.oneof({ weight: 8, arbitrary: fc.constant<Framing>('length') }, { weight: 1, arbitrary: fc.constantFrom<Framing>('chunked', 'truncated', 'undeclared') });

/**
 * Given what a service serves, returns requests: mostly well-formed heads with odd or broken
 * parts, sometimes nothing like HTTP. Every request asks for `connection: close`, so each answer
 * is followed by the server closing.
 *
 * @example
 * fc.assert(fc.asyncProperty(fuzzRequest(service), async (req) => { ... }));
 */
export function fuzzRequest(service: FuzzService): fc.Arbitrary<FuzzRequest> {
  const paths = service.seeds.map((s) => s.path);
  const bodies = service.seeds.flatMap((s) => (s.body === undefined ? [] : [s.body]));
  return fc
    .constantFrom(...service.seeds)
    .chain((seed) =>
      fc.record({
      method: method(seed.method),
      path: path(seed.path, paths),
      version,
      host: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
      headers: fc.oneof({ weight: 2, arbitrary: fc.constant<[string, string][]>([]) }, { weight: 1, arbitrary: fc.array(header, { minLength: 1, maxLength: 3 }) }),
      contentType,
      body: body(seed.body, bodies.length > 0 ? bodies : [{}]),
      framing,
    }),
    )
    .map(({ method, path, version, host, headers, contentType, body, framing }) => {
      const lines = [`${method} ${path}${version === '' ? '' : ` ${version}`}`];
      if (host) lines.push('host: fuzz');
      if (contentType !== undefined && body.bytes !== undefined) lines.push(`content-type: ${contentType}`);
      for (const [name, value] of headers) lines.push(`${name}: ${value}`);
      let payload = body.bytes ?? Buffer.alloc(0);
      let incomplete = false;
      if (body.bytes !== undefined) {
        if (framing === 'length') lines.push(`content-length: ${payload.length}`);
        if (framing === 'truncated') {
          lines.push(`content-length: ${payload.length + 10}`);
          incomplete = true;
        }
        if (framing === 'chunked') {
          lines.push('transfer-encoding: chunked');
          payload = payload.length === 0 ? Buffer.from('0\r\n\r\n') : Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]);
        }
      }
      lines.push('connection: close');
      const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
      const describe = `${JSON.stringify(`${method} ${path.slice(0, 80)} ${version}`)} headers=${JSON.stringify(headers.map(([n, v]) => [n.slice(0, 20), v.slice(0, 20)]))} ct=${contentType} body=${body.bytes === undefined ? 'none' : `${body.bytes.length}B ${JSON.stringify(body.bytes.subarray(0, 60).toString('latin1'))}`} framing=${framing}`;
      return { bytes: Buffer.concat([head, payload]), method, incomplete, huge: body.huge, describe };
    });
}

/**
 * Given a request and the answers read back, returns what breaks the edge's contract, or null:
 * every answer is a 2xx, or a 4xx whose body is the service's JSON envelope (`isEnvelope`); never
 * a 3xx or 5xx; no answer only when the request never completed (or was over the body limit and
 * the server closed while it was still being sent).
 */
export function contractViolation(req: FuzzRequest, responses: readonly RawResponse[], timedOut: boolean, isEnvelope: (body: unknown) => boolean): string | null {
  if (timedOut && !req.incomplete) return 'the server did not answer and close in time';
  if (responses.length === 0) return req.incomplete || req.huge ? null : 'no answer';
  for (const [i, res] of responses.entries()) {
    if (res.status >= 200 && res.status < 300) continue;
    if (!(res.status >= 400 && res.status < 500)) return `status ${res.status}: ${res.body.slice(0, 200)}`;
    if (i === 0 && req.method === 'HEAD') continue; // a HEAD answer has no body
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      return `a ${res.status} whose body is not JSON: ${JSON.stringify(res.body.slice(0, 200))}`;
    }
    if (!isEnvelope(parsed)) return `a ${res.status} without the error envelope: ${res.body.slice(0, 200)}`;
  }
  return null;
}

/** Answers that may change state: at least one 2xx. */
export const anySuccess = (responses: readonly RawResponse[]): boolean => responses.some((r) => r.status >= 200 && r.status < 300);

/** The fuzz runs per service: FUZZ_RUNS, default 400 (a few seconds each). */
export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);

/** Counts answers by class (`2xx`, `4xx`, `none`), so a suite can check it exercised both sides. */
export function tally(stats: Record<string, number>, responses: readonly RawResponse[]): void {
  const key = responses.length === 0 ? 'none' : `${Math.floor(responses[0]!.status / 100)}xx`;
  stats[key] = (stats[key] ?? 0) + 1;
}
