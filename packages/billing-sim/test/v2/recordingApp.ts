/**
 * A test app whose every API v2 exchange is recorded with the simulator route that answered it, so
 * the contract test can validate each response against the official document and check that every
 * served operation was seen answering both a success and an error.
 */
import { compilePattern } from '../../src/http/route.js';
import { ROUTES, type BillingSimulatorOptions, type HandlerOptions } from '../../src/index.js';
import { startApp, type TestApp } from '../helpers.js';
import type { Exchange } from './officialSpec.js';

const V2 = ROUTES.filter((r) => r.pattern.startsWith('/v2/'));
const MATCHERS = V2.map((route) => ({ key: `${route.method} ${route.pattern}`, method: route.method, pattern: route.pattern, match: compilePattern(route.pattern) }));

/** Every API v2 route the simulator serves, as `METHOD pattern`. */
export const SERVED_V2 = MATCHERS.map((m) => m.key);

/** The route pattern answering a method and path, or null. */
export function patternOf(method: string, path: string): string | null {
  const bare = path.split('?')[0] ?? path;
  return MATCHERS.find((m) => m.method === method && m.match(bare) !== null)?.pattern ?? null;
}

/** Starts an app and records every /v2 exchange into `log` (requests no route serves are left out). */
export async function startRecordingApp(log: Exchange[], options: BillingSimulatorOptions = {}, handler: HandlerOptions = {}): Promise<TestApp> {
  const app = await startApp(options, handler);
  const call: TestApp['call'] = async (method, path, body, headers) => {
    const res = await app.call(method, path, body, headers);
    const pattern = patternOf(method, path);
    if (pattern !== null) log.push({ method, pattern, status: res.status, body: res.body, headers: res.headers });
    return res;
  };
  return { ...app, call };
}
