/** The zod schemas of the dashboard's routes (summary, live feed, one subscriber's dispatches). */
import { z } from 'zod';
import { ENVIRONMENTS } from './schemas.js';

/** GET /api/dashboard/summary: which environment to summarise (production unless `sandbox`). */
export const summaryQuerySchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS).optional(),
});

/** GET /api/dashboard/subscribers/:customer_id takes the environment, as the subscriber view does. */
export const subscriberDashboardQuerySchema = summaryQuerySchema;

/** GET /api/dashboard/live and POST /api/subscribers/:customer_id/dispatch take no query parameters. */
export const noQuerySchema = z.strictObject({});

/** POST /api/subscribers/:customer_id/dispatch: `dry_run` plans without sending. */
export const subscriberDispatchBodySchema = z.strictObject({
  dry_run: z.boolean().optional(),
});

// ---- Responses (documentation) ----

const counts = z.record(z.string(), z.number().int().nonnegative());

/** GET /api/dashboard/summary's answer. */
export const summaryResponseSchema = z.object({
  now: z.number().int(),
  environment: z.enum(ENVIRONMENTS),
  subscribers: z.number().int().nonnegative(),
  by_state: counts.meta({ description: 'Subscribers per state (every state, 0 included).' }),
  by_band: counts.meta({ description: 'Subscribers per risk band.' }),
  at_risk: z.object({ min_score: z.number().int(), subscribers: z.number().int(), monthly_value_usd: z.number() }).meta({ description: 'Subscribers scoring `bands.high` or more and their summed monthly value (USD).' }),
  alerts_today: z
    .object({ day_start: z.number().int(), email: z.number().int(), chat: z.number().int(), log: z.number().int(), complete: z.boolean() })
    .meta({ description: 'Attempts sent (email, chat) or logged (log) since 00:00 UTC of the service clock; `complete: false` when only the newest 5,000 log records were read.' }),
  webhooks_last_hour: z.object({ received: z.number().int(), rejected: z.number().int() }).meta({ description: 'Counted by this process; reset on restart.' }),
});

/** GET /api/dashboard/subscribers/:customer_id's answer. */
export const subscriberDashboardResponseSchema = z.object({
  customer_id: z.string(),
  now: z.number().int(),
  next_change_at: z.number().int().nullable().meta({ description: 'When the assessment next changes without a new event; null when never.' }),
  dispatches: z.object({ items: z.array(z.record(z.string(), z.unknown())), complete: z.boolean() }),
});
