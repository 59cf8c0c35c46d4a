import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseWebhook } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cliMain.js';
import { runScenario, scenarioSchema } from '../src/index.js';

const file = fileURLToPath(new URL('../scenarios/hybrid-credits.json', import.meta.url));
const scenario = JSON.parse(readFileSync(file, 'utf8'));

describe('runScenario', () => {
  it('replays the example scenario with every expectation met', () => {
    const run = runScenario(scenario);
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
    expect(run.sim.events().every((e) => parseWebhook(e).ok)).toBe(true);
  });
  it('is reproducible: the same scenario gives the same events', () => {
    expect(runScenario(scenario).sim.events()).toEqual(runScenario(scenario).sim.events());
  });
  it('reports the first failing step', () => {
    const broken = { ...scenario, steps: [...scenario.steps, { expect_balances: { customer_id: 'alice', balances: { CRD: 1 } } }] };
    const run = runScenario(broken);
    expect(run.ok).toBe(false);
    expect(run.steps.at(-1)?.message).toMatch(/expected 1, got 450/);
  });
  it('validates scenario files with zod', () => {
    expect(scenarioSchema.safeParse({ name: 'x', steps: [{ advance: 'soon' }] }).success).toBe(false);
  });
});

describe('tenure-billing-sim CLI', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  };
  it('prints help with --help', async () => {
    const t = io();
    expect((await main(['--help'], {}, t.io)).code).toBe(0);
    expect(t.out.join('\n')).toMatch(/--webhook-url/);
  });
  it('runs a scenario file and exits 0 when it passes', async () => {
    const t = io();
    expect((await main(['run', file], {}, t.io)).code).toBe(0);
    expect(t.out.at(-1)).toMatch(/^PASS/);
  });
  it('exits 2 on a bad option', async () => {
    const t = io();
    expect((await main(['--port', 'abc'], {}, t.io)).code).toBe(2);
  });
  it('serves on the given host and port, with env equivalents', async () => {
    const t = io();
    const { code, running } = await main(['--port', '0', '--seed', 's1'], { BILLING_SIM_WEBHOOK_AUTH: 'Bearer x', BILLING_SIM_HOST: '127.0.0.1' }, t.io);
    expect(code).toBe(0);
    try {
      expect(running?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // BILLING_SIM_WEBHOOK_AUTH alone (no URL) creates no integration and sends nothing.
      expect(running?.sim.webhookConfig().url).toBeNull();
      const health = await fetch(`${running?.url}/health`);
      expect(await health.json()).toEqual({ status: 'ok', service: 'tenure-billing-sim' });
      expect(t.err.join('\n')).toMatch(/BILLING_SIM_API_KEY is not set/);
    } finally {
      await running?.stop();
    }
  });
});
