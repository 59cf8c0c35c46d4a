// The fuzz suite of the retention service, over real sockets against a real `tenure serve`:
// random request lines, paths, headers and bodies. The process stays up, every answer is a 2xx or
// a 4xx with the JSON error shape, and a 4xx changes nothing in the store. FUZZ_RUNS sets the runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anySuccess, contractViolation, FUZZ_RUNS, fuzzRequest, tally, type FuzzService } from '../../../http-edge/test/fuzzRequests.js';
import { rawRequest } from '../../../http-edge/test/rawHttp.js';
import { killServes, startServe, type ServeProcess } from '../durability/serveProcess.js';
import { fixture, T0 } from '../helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-fuzz-'));
const file = join(dir, 'tenure.db');
let serve: ServeProcess;
let db: Database.Database;

beforeAll(async () => {
  serve = await startServe(['--store', `sqlite:${file}`, '--clock', new Date(T0 + 86_400_000).toISOString()]);
  db = new Database(file, { readonly: true, fileMustExist: true });
}, 30_000);
afterAll(async () => {
  db?.close();
  await killServes();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything a request could change: events, subscribers, dispatch records, cooldowns. */
const snapshot = () =>
  JSON.stringify(['events', 'subscribers', 'dispatches', 'cooldowns'].map((t) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n));

const isEnvelope = (body: unknown): boolean => {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
};

const service: FuzzService = {
  seeds: [
    { method: 'POST', path: '/webhook', body: fixture('initial_purchase', { id: 'fz-1', app_user_id: 'u1' }) },
    { method: 'POST', path: '/webhook', body: fixture('billing_issue', { id: 'fz-2', app_user_id: 'u1', event_timestamp_ms: T0 + 1 }) },
    { method: 'POST', path: '/webhook', body: fixture('renewal', { id: 'fz-3', app_user_id: 'u2' }) },
    { method: 'POST', path: '/webhook', body: fixture('test') },
    { method: 'GET', path: '/health' },
    { method: 'GET', path: '/openapi.json' },
    { method: 'GET', path: '/api/at-risk?limit=2' },
    { method: 'GET', path: '/api/subscribers/u1' },
    { method: 'GET', path: '/api/subscribers/u1/recommend' },
    { method: 'POST', path: '/api/subscribers/u1/activity', body: { at: T0 } },
    { method: 'POST', path: '/api/dispatch', body: { dry_run: true } },
    { method: 'GET', path: '/api/dispatches' },
    { method: 'GET', path: '/api/subscribers/%zz' },
  ],
};

describe('retention service fuzz (real process, raw sockets)', () => {
  it(`answers ${FUZZ_RUNS} random requests with a 2xx or a 4xx envelope, stays up, and changes nothing on a 4xx`, async () => {
    let before = snapshot();
    const stats: Record<string, number> = {};
    let changes = 0;
    let previous = 'none';
    await fc.assert(
      fc.asyncProperty(fuzzRequest(service), async (req) => {
        const { responses, timedOut } = await rawRequest(Number(new URL(serve.url).port), req.bytes, 5000, req.incomplete ? 100 : 1500);
        tally(stats, responses);
        const violation = contractViolation(req, responses, timedOut, isEnvelope);
        expect(violation, req.describe).toBeNull();
        const after = snapshot();
        if (!anySuccess(responses)) expect(after, `state changed on ${responses[0]?.status ?? 'no answer'}: ${req.describe} (previous request: ${previous})`).toBe(before);
        previous = `${responses.map((r) => r.status).join(',') || 'no answer'} ${req.describe}`;
        if (after !== before) changes++;
        before = after;
      }),
      { numRuns: FUZZ_RUNS },
    );
    // The suite reached both sides: accepted requests that changed the store, and rejected ones.
    expect(stats['2xx'] ?? 0, JSON.stringify(stats)).toBeGreaterThan(0);
    expect(stats['4xx'] ?? 0, JSON.stringify(stats)).toBeGreaterThan(FUZZ_RUNS / 10);
    expect(changes).toBeGreaterThan(0);
    const health = await fetch(`${serve.url}/health`);
    expect(health.status).toBe(200);
    expect(serve.logs.filter((l) => Number(l['level']) >= 50)).toEqual([]); // no error or fatal line (a 5xx logs one)
  }, 120_000);
});
