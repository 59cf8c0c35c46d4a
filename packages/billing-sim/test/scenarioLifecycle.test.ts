// The lifecycle commands from a scenario file, as a user replays them (runScenario and the CLI's `run`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseWebhook } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/index.js';

const file = fileURLToPath(new URL('../scenarios/lifecycle-commands.json', import.meta.url));

describe('the lifecycle-commands scenario', () => {
  it('replays pause and resume, extension, refund reversal, transfer, price increase, temporary grant and sandbox purchase with every expectation met', () => {
    const run = runScenario(JSON.parse(readFileSync(file, 'utf8')));
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    const events = run.sim.events().map((b) => b.event as Record<string, unknown>);
    expect(events.every((e) => e['type'] === 'TRANSFER' || e['app_user_id'] !== undefined)).toBe(true);
    expect(run.sim.events().every((b) => parseWebhook(JSON.parse(JSON.stringify(b))).ok)).toBe(true);
    expect(events.find((e) => e['type'] === 'SUBSCRIPTION_PAUSED')).toMatchObject({ store: 'PLAY_STORE', environment: 'PRODUCTION', auto_resume_at_ms: Date.UTC(2026, 2, 1) });
    expect(events.find((e) => e['app_user_id'] === 'tester')).toMatchObject({ environment: 'SANDBOX' });
    expect(events.find((e) => e['type'] === 'TRANSFER')).toMatchObject({ transferred_from: ['ada'], transferred_to: ['ada_new'] });
  });
});
