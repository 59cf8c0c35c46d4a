/**
 * Scenario files: a seed, a start time and steps (requests to the simulator, clock advances and
 * expectations on responses, balances and emitted events), replayable from tests and the CLI.
 */
import { currencyAmountsSchema } from '@tenure/core';
import { z } from 'zod';
import { durationSchema } from '../internal/duration.js';

/**
 * An object keyed by names from the file, parsed into a null-prototype record that keeps every key
 * (`__proto__` included; zod's own records drop it).
 */
const namedRecord = <V extends z.ZodType>(key: z.ZodType<string>, value: V) =>
  z
    .preprocess((input, ctx) => {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        ctx.addIssue({ code: 'custom', message: 'Expected an object', input });
        return z.NEVER;
      }
      return new Map(Object.entries(input));
    }, z.map(key, value))
    .transform((map) => {
      const out = Object.create(null) as Record<string, z.output<V>>;
      for (const [k, v] of map) out[k] = v;
      return out;
    });

/** A variable name, as `${name}` interpolation reads it. */
const variableName = z.string().regex(/^\w+$/, 'variable names are letters, digits and _');

const requestStep = z.strictObject({
  name: z.string().optional(),
  request: z.strictObject({
    method: z.enum(['GET', 'POST', 'DELETE', 'PATCH', 'PUT']),
    /** May use `${var}` saved by an earlier step. */
    path: z.string().startsWith('/'),
    body: z.unknown().optional(),
    headers: namedRecord(z.string(), z.string()).optional(),
  }),
  expect: z
    .strictObject({
      status: z.number().int().optional(),
      /** A subset the response body must contain (arrays compare element by element). */
      body: z.unknown().optional(),
    })
    .optional(),
  /** Saves values of the response body (dotted paths) as variables, e.g. `{ "sub": "subscription_id" }`. */
  save: namedRecord(variableName, z.string()).optional(),
});

const advanceStep = z.strictObject({ name: z.string().optional(), advance: durationSchema });

const balancesStep = z.strictObject({
  name: z.string().optional(),
  expect_balances: z.strictObject({
    project_id: z.string().optional(),
    customer_id: z.string(),
    balances: currencyAmountsSchema(z.number().int()),
  }),
});

/** The event types emitted since the previous `expect_events` step (or the start), in order. */
const eventsStep = z.strictObject({ name: z.string().optional(), expect_events: z.array(z.string()) });

export const scenarioStepSchema = z.union([requestStep, advanceStep, balancesStep, eventsStep]);

/**
 * A scenario file: name, seed, optional start and project, and its steps.
 *
 * @example
 * scenarioSchema.parse({ name: 'demo', steps: [{ advance: 'P1M' }] });
 */
export const scenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  seed: z.union([z.string(), z.number()]).default('scenario'),
  /** Start of the virtual clock (ISO 8601 date-time). */
  start: z.iso.datetime({ offset: true }).optional(),
  project_id: z.string().optional(),
  steps: z.array(scenarioStepSchema).min(1),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioStep = z.output<typeof scenarioStepSchema>;
