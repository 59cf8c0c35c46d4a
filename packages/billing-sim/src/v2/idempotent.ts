/** Idempotency-Key handling of API v2 writes. */
import { fail } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { errorResponse, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import { param } from './ids.js';

/**
 * Runs a write at most once per Idempotency-Key (same key, different request → 409). Keys are kept
 * per project for 24 hours of virtual time, then forgotten (the key can be used again).
 */
export function idempotent(sim: BillingSimulator, input: RouteInput, run: () => SimResponse): SimResponse {
  const key = input.headers['idempotency-key'];
  if (key === undefined || key === '') return run();
  const projectId = param(input, 'project_id');
  const fingerprint = `${input.method} ${input.path} ${JSON.stringify(input.query)} ${input.rawBody}`;
  const seen = sim.idempotencyRecord(projectId, key);
  if (seen !== undefined) {
    if (seen.fingerprint !== fingerprint) {
      return errorResponse(fail('idempotency_error', 'Idempotency key already used for a different request', 'Idempotency-Key').error);
    }
    return { status: seen.status, headers: { 'Idempotency-Replayed': 'true' }, body: seen.body };
  }
  const res = run();
  sim.dispatch({ type: 'remember_idempotency', project_id: projectId, key, record: { fingerprint, status: res.status, body: res.body } });
  return res;
}
