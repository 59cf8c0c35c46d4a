/** The zod schemas of the dashboard's routes (summary, live feed, one subscriber's dispatches). */
import { z } from 'zod';
import { ENVIRONMENTS, queryInt } from './schemas.js';
import { decodeTimelineCursor, MAX_TIMELINE_CURSOR_LENGTH } from './timelineCursor.js';

/** GET /api/dashboard/summary: which environment to summarise (production unless `sandbox`). */
export const summaryQuerySchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS).optional(),
});

/** GET /api/dashboard/subscribers/:customer_id takes the environment, as the subscriber view does. */
export const subscriberDashboardQuerySchema = summaryQuerySchema;

/** GET /api/dashboard/trends: how many days ending today (default 30, at most 90), which environment. */
export const trendsQuerySchema = z.strictObject({
  days: queryInt(1, 90).optional().meta({ description: 'Days ending today (UTC, service clock); default 30, at most 90.' }),
  environment: z.enum(ENVIRONMENTS).optional(),
});

/** GET /api/subscribers/:customer_id/events: a page of the timeline, newest first. */
export const subscriberEventsQuerySchema = z.strictObject({
  limit: queryInt(1, 200).optional().meta({ description: 'Page size; default 50, at most 200.' }),
  cursor: z
    .string()
    .max(MAX_TIMELINE_CURSOR_LENGTH)
    .transform((text, ctx) => {
      const position = decodeTimelineCursor(text);
      if (position === undefined) ctx.addIssue({ code: 'custom', message: 'Expected the next_cursor of a previous page' });
      return position ?? z.NEVER;
    })
    .optional()
    .meta({ description: 'Opaque: `next_cursor` of the previous page.' }),
  environment: z.enum(ENVIRONMENTS).optional(),
});

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
    .object({ day_start: z.number().int(), email: z.number().int(), chat: z.number().int(), log: z.number().int(), webhook: z.number().int(), complete: z.boolean() })
    .meta({ description: 'Attempts sent (email, chat, webhook) or logged (log) since 00:00 UTC of the service clock, counted on the log\'s index by time; `complete` is always true (kept for compatibility).' }),
  webhooks_last_hour: z.object({ received: z.number().int(), rejected: z.number().int() }).meta({ description: 'Counted by this process; reset on restart.' }),
});

/** GET /api/dashboard/subscribers/:customer_id's answer. */
export const subscriberDashboardResponseSchema = z.object({
  customer_id: z.string(),
  now: z.number().int(),
  next_change_at: z.number().int().nullable().meta({ description: 'When the assessment next changes without a new event; null when never.' }),
  dispatches: z.object({ items: z.array(z.record(z.string(), z.unknown())), complete: z.boolean() }),
});

const snapshotTotal = z.object({ subscribers: z.number().int().nonnegative(), monthly_value_usd: z.number() });

/** GET /api/dashboard/trends's answer. */
export const trendsResponseSchema = z.object({
  now: z.number().int(),
  environment: z.enum(ENVIRONMENTS),
  days: z.array(
    z.object({
      day: z.string().meta({ description: 'UTC day, YYYY-MM-DD.' }),
      source: z.enum(['sweep', 'events', 'live', 'none']).meta({ description: '`sweep`: recorded by the sweep (its last record of the day); `events`: folded from the stored events; `live`: today, now; `none`: no figures.' }),
      at: z.number().int().nullable(),
      by_band: z.record(z.string(), snapshotTotal).nullable(),
      at_risk: snapshotTotal.extend({ min_score: z.number().int() }).nullable(),
    }),
  ),
  backfill: z.object({ filled: z.number().int(), skipped: z.string().nullable() }).meta({ description: 'Days computed from the stored events by this request, or why none could be.' }),
});

/** GET /api/subscribers/:customer_id/events's answer. */
export const subscriberEventsResponseSchema = z.object({
  customer_id: z.string(),
  items: z.array(z.record(z.string(), z.unknown())).meta({ description: 'Stored events (as parsed from the webhooks), newest first.' }),
  next_cursor: z.string().nullable(),
});
