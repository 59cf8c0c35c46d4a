import { describe, expect, it } from 'vitest';
import { ROUTES, buildOpenApi } from '../../src/index.js';

/** API v2 writes that take no body. */
const BODYLESS = /\/actions\/(cancel|refund)$/;

describe("the simulator's /openapi.json", () => {
  it('documents a request body for every API v2 write that takes one', () => {
    const doc = buildOpenApi(ROUTES) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    const missing = ROUTES.filter((r) => r.pattern.startsWith('/v2/') && r.method === 'POST' && !BODYLESS.test(r.pattern))
      .filter((r) => doc.paths[r.pattern.replace(/:([a-z_]+)/g, '{$1}')]?.['post']?.requestBody === undefined)
      .map((r) => r.pattern);
    expect(missing).toEqual([]);
  });
});
