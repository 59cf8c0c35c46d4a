/**
 * The request target and headers as the services read them. Every byte a client can put in a
 * request line is parsed here without throwing (`new URL(req.url, base)` throws on `//a:b`).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** A parsed request target: the decoded-nothing path and the query as a plain record. */
export interface RequestTarget {
  /** The path as sent (percent-escapes kept), always starting with `/`. */
  path: string;
  /** `?…` as sent, or ''. */
  search: string;
  /** The query parameters (last value wins), in a null-prototype record. */
  query: Record<string, string>;
}

/** A parsed request target, or why the target is not a path. */
export type ParsedTarget = { ok: true; target: RequestTarget } | { ok: false; message: string };

// RFC 9112 origin-form: a path of printable ASCII without spaces, then an optional query.
const ORIGIN_FORM = /^\/[\x21-\x7e]*$/;
const ABSOLUTE_FORM = /^https?:\/\/[\x21-\x7e]+$/i;

const fail = (message: string): ParsedTarget => ({ ok: false, message });

/**
 * Given `req.url` (origin-form `/p?q`, or absolute-form `http://host/p?q` as a proxy sends it),
 * returns the path, search and query, or why it is not a valid target. Never throws; pure.
 *
 * @example
 * parseRequestTarget('//a:b'); // { ok: true, target: { path: '//a:b', search: '', query: {} } }
 * parseRequestTarget('*'); // { ok: false, message: '…' }
 */
export function parseRequestTarget(url: string | undefined): ParsedTarget {
  if (url === undefined || url === '') return fail('The request target is empty');
  let raw = url;
  if (!ORIGIN_FORM.test(raw)) {
    if (!ABSOLUTE_FORM.test(raw)) return fail('The request target must be a path starting with "/"');
    try {
      const absolute = new URL(raw);
      raw = `${absolute.pathname}${absolute.search}`;
    } catch {
      return fail('The request target is not a valid URL');
    }
  }
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const search = q < 0 ? '' : raw.slice(q);
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  try {
    for (const [key, value] of new URLSearchParams(search)) query[key] = value;
  } catch {
    return fail('The query string is not valid');
  }
  return { ok: true, target: { path, search, query } };
}

/**
 * Given Node's headers, returns one string per header (repeated ones joined with `, `), names in
 * lower case. Pure.
 *
 * @example
 * flattenHeaders(req.headers)['authorization'];
 */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [name, value] of Object.entries(headers)) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/**
 * Given a header value that Node may present as a string array, returns its single (first) value.
 *
 * @example
 * headerValue(req.headers.authorization);
 */
export function headerValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
