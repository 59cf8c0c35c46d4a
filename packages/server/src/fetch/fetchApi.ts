/**
 * The JSON API (`/api/*`) over web-standard `Request` and `Response`: the route table the Express
 * router serves (`api/apiRoutes.ts`), behind the same bearer auth and the same body rules as its
 * JSON parser (application/json in UTF-8, gzip or deflate, 1 MB, strict UTF-8, an object or array),
 * with the same answers. Paths match as Express matches them: literal segments without regard to
 * case, an optional trailing slash, `:name` segments percent-decoded.
 */
import { parse as parseQuery } from 'node:querystring';
import { decodeUtf8, edgeProblem } from '@tenure/http-edge';
import { apiRoutes, type ApiRoute } from '../api/apiRoutes.js';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, edgeError, type HandlerResult } from '../http/apiError.js';
import { headerValue } from '../http/secretMatcher.js';
import { readRequestBody } from './readRequestBody.js';

/** What answering a request needs: a result, and headers beside the JSON ones. */
export interface ApiAnswer {
  result: HandlerResult;
  headers?: Record<string, string>;
}

/** The JSON parser's limit (`express.json({ limit: '1mb' })`). */
const API_BODY_LIMIT = 1024 * 1024;

/** One route, its path split into segments (`null`: a `:name` segment). */
interface CompiledRoute {
  route: ApiRoute;
  segments: { literal: string | null; name: string }[];
}

const compile = (route: ApiRoute): CompiledRoute => ({
  route,
  segments: route.path
    .split('/')
    .slice(1)
    .map((part) => (part.startsWith(':') ? { literal: null, name: part.slice(1) } : { literal: part.toLowerCase(), name: '' })),
});

/**
 * The route for a request, as Express's router finds it: routes in order, the first whose path
 * matches and whose method is the request's; a path that matches a route (of any method) with a
 * named segment that does not percent-decode is `malformed` (Express decodes on matching the path,
 * before it looks at the method). Undefined: no route.
 */
function match(routes: readonly CompiledRoute[], method: string, path: string): { route: ApiRoute; params: Record<string, string> } | 'malformed' | undefined {
  const parts = (path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path).split('/').slice(1);
  for (const { route, segments } of routes) {
    if (segments.length !== parts.length) continue;
    const raw: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length && matched; i++) {
      const segment = segments[i]!;
      const part = parts[i]!;
      if (segment.literal === null) {
        if (part === '') matched = false;
        else raw[segment.name] = part;
      } else matched = segment.literal === part.toLowerCase();
    }
    if (!matched) continue;
    const params = decodeParams(raw);
    if (params === undefined) return 'malformed';
    if (route.method === method) return { route, params };
  }
  return undefined;
}

/** The media type and charset of a `content-type` header, lower-cased. */
function mediaTypeOf(header: string | null): { type: string; charset: string | undefined } | undefined {
  if (header === null) return undefined;
  const [type = '', ...params] = header.split(';');
  let charset: string | undefined;
  for (const param of params) {
    const [key = '', value = ''] = param.split('=');
    if (key.trim().toLowerCase() === 'charset') charset = value.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

/** The answer refusing a body that is not JSON (the parser leaves it, and the router refuses to guess). */
const NOT_JSON = (): HandlerResult => apiError('unsupported_media_type', 'Send the body as application/json', 'body');

/**
 * The parsed body (undefined: none), or the answer refusing it, as `express.json` and the router's
 * check answer. A body of no bytes is none, though a JSON one is still held to its charset, as the
 * parser holds an empty body sent with `content-length: 0` to it.
 */
async function readJsonBody(request: Request): Promise<{ ok: true; body: unknown } | { ok: false; result: HandlerResult }> {
  const none = { ok: true, body: undefined } as const;
  if (request.body === null) return none;
  const media = mediaTypeOf(request.headers.get('content-type'));
  const json = media?.type === 'application/json';
  const read = await readRequestBody(request, API_BODY_LIMIT).catch(() => null);
  const empty = read !== null && read.ok && read.bytes.byteLength === 0;
  if (!json) return empty ? none : { ok: false, result: NOT_JSON() };
  // The parser checks the charset of any body it reads, an empty one too (`content-length: 0`).
  if (media.charset !== undefined && media.charset !== 'utf-8') return { ok: false, result: apiError('unsupported_media_type', 'Unsupported body charset', 'body') };
  if (empty) return none;
  if (read === null) return { ok: false, result: apiError('invalid_request', 'The request was aborted', 'body') };
  if (!read.ok) {
    return {
      ok: false,
      result:
        read.code === 'payload_too_large'
          ? apiError('payload_too_large', 'The request body is larger than 1 MB', 'body')
          : apiError('unsupported_media_type', 'Unsupported body encoding', 'body'),
    };
  }
  const text = decodeUtf8(read.bytes);
  if (!text.ok) return { ok: false, result: edgeError(edgeProblem('invalid_utf8')) };
  // Strict, as the parser is: an object or an array, whitespace before it allowed.
  const first = /^[\x20\x09\x0a\x0d]*(.)/s.exec(text.text)?.[1];
  if (first !== '{' && first !== '[') return { ok: false, result: apiError('invalid_json', 'The request body is not valid JSON', 'body') };
  try {
    return { ok: true, body: JSON.parse(text.text) as unknown };
  } catch {
    return { ok: false, result: apiError('invalid_json', 'The request body is not valid JSON', 'body') };
  }
}

/** Percent-decodes every named segment; undefined when one is malformed (Express answers 400). */
function decodeParams(raw: Record<string, string>): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  try {
    for (const [name, value] of Object.entries(raw)) params[name] = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  return params;
}

/**
 * Given the runtime, returns the function answering a request under `/api` (its URL, and `path`
 * the rest of its path after `/api`, starting with `/`), with the status, JSON body and extra
 * headers the Express router would answer. Unknown routes are 404 in the error shape.
 *
 * @example
 * const serveApi = createFetchApi(runtime);
 * const { result } = await serveApi(request, new URL(request.url), '/at-risk');
 */
export function createFetchApi(rt: RetentionRuntime): (request: Request, url: URL, path: string) => Promise<ApiAnswer> {
  const routes = apiRoutes(rt).map(compile);
  return async (request, url, path) => {
    if (!rt.apiAuth.matches(headerValue(request.headers.get('authorization') ?? undefined))) {
      return { result: apiError('unauthorized', 'Missing or wrong bearer token (TENURE_API_KEY)'), headers: { 'www-authenticate': 'Bearer' } };
    }
    const body = await readJsonBody(request);
    if (!body.ok) return { result: body.result };
    // A HEAD request is answered by the GET route (the response carries no body).
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const found = match(routes, method, path);
    if (found === 'malformed') return { result: apiError('invalid_request', 'Malformed request') };
    if (found === undefined) return { result: apiError('not_found', `No route for ${request.method} ${url.pathname}`) };
    return { result: await found.route.handle({ params: found.params, query: parseQuery(url.search.slice(1)) as Record<string, unknown>, body: body.body }) };
  };
}
