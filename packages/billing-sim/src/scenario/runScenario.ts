/** Replays a scenario against a fresh simulator through the framework-free request handler. */
import { balancesOf } from '@tenure/core';
import { createRequestHandler } from '../http/handleRequest.js';
import { createBillingSimulator, type BillingSimulator, type BillingSimulatorOptions } from '../simulator/createSimulator.js';
import { customerIn } from '../machine/queries.js';
import { scenarioSchema, type Scenario, type ScenarioStep } from './scenarioSchema.js';

export interface StepResult {
  index: number;
  name: string;
  ok: boolean;
  message: string;
}

export interface ScenarioRun {
  ok: boolean;
  name: string;
  steps: StepResult[];
  sim: BillingSimulator;
}

/**
 * Where `actual` differs from the `expected` subset, as a dotted path and message; null when it matches.
 *
 * @example
 * subsetMismatch({ a: 1 }, { a: 1, b: 2 }); // null
 */
export function subsetMismatch(expected: unknown, actual: unknown, path = 'body'): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${path}: expected an array of ${expected.length}, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(expected[i], actual[i], `${path}.${i}`);
      if (m !== null) return m;
    }
    return null;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      const m = subsetMismatch(v, (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (m !== null) return m;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

const interpolate = (value: unknown, vars: Record<string, string>): unknown => {
  if (typeof value === 'string') return value.replace(/\$\{(\w+)\}/g, (_, name: string) => vars[name] ?? `\${${name}}`);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, vars)]));
  return value;
};

const pick = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined), value);

/**
 * Given a scenario (validated or raw JSON) and simulator options (webhook target, scheduler…),
 * replays every step and returns each step's outcome; it stops at the first failing step.
 *
 * @example
 * const run = runScenario(JSON.parse(readFileSync('scenarios/hybrid-credits.json', 'utf8')));
 * run.ok; // true
 */
export function runScenario(input: unknown, options: BillingSimulatorOptions = {}): ScenarioRun {
  const scenario: Scenario = scenarioSchema.parse(input);
  const projectId = scenario.project_id ?? 'proj_sim';
  const sim = createBillingSimulator({
    ...options,
    seed: scenario.seed,
    default_project_id: projectId,
    ...(scenario.start === undefined ? {} : { now: Date.parse(scenario.start) }),
  });
  const handle = createRequestHandler(sim);
  // No prototype: a saved variable may be named like "__proto__" or "constructor".
  const vars: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, { project_id: projectId });
  const steps: StepResult[] = [];
  let seenEvents = 0;

  const runStep = (step: ScenarioStep): string | null => {
    if ('request' in step) {
      const body = step.request.body === undefined ? '' : JSON.stringify(interpolate(step.request.body, vars));
      const [path = '', qs = ''] = String(interpolate(step.request.path, vars)).split('?');
      const res = handle({
        method: step.request.method,
        path,
        query: Object.fromEntries(new URLSearchParams(qs)),
        headers: { 'content-type': 'application/json', ...step.request.headers },
        rawBody: body,
      });
      if (step.expect?.status !== undefined && res.status !== step.expect.status) {
        return `status: expected ${step.expect.status}, got ${res.status} ${JSON.stringify(res.body)}`;
      }
      if (step.expect?.body !== undefined) {
        const m = subsetMismatch(interpolate(step.expect.body, vars), res.body);
        if (m !== null) return m;
      }
      for (const [name, path2] of Object.entries(step.save ?? {})) vars[name] = String(pick(res.body, path2));
      return null;
    }
    if ('advance' in step) {
      const r = sim.advanceBy(step.advance);
      return r.ok ? null : r.error.message;
    }
    if ('expect_balances' in step) {
      const e = step.expect_balances;
      const customer = customerIn(sim.world(), e.project_id ?? projectId, e.customer_id);
      const actual = customer === undefined ? (Object.create(null) as Record<string, number>) : balancesOf(customer.ledger, sim.now());
      for (const [code, want] of Object.entries(e.balances)) {
        if ((actual[code] ?? 0) !== want) return `balance of ${code}: expected ${want}, got ${actual[code] ?? 0}`;
      }
      return null;
    }
    const types = sim.eventsSince(seenEvents).map((b) => b.event.type);
    seenEvents = sim.eventCount();
    return subsetMismatch(step.expect_events, types, 'events');
  };

  for (const [index, step] of scenario.steps.entries()) {
    const name = step.name ?? ('request' in step ? `${step.request.method} ${step.request.path}` : 'advance' in step ? `advance ${step.advance}` : 'expect_balances' in step ? 'expect balances' : 'expect events');
    const message = runStep(step);
    steps.push({ index, name, ok: message === null, message: message ?? 'ok' });
    if (message !== null) return { ok: false, name: scenario.name, steps, sim };
  }
  return { ok: true, name: scenario.name, steps, sim };
}
