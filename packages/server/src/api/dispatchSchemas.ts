/** The schemas of the dispatch log's routes: `GET /api/dispatches` (its records) and `POST /api/dispatches/{id}/resend`. */
import { ACTIONS, URGENCIES } from '@tenure/core';
import { z } from 'zod';
import { DISPATCH_OUTCOMES } from '../dispatch/dispatchLog.js';

/** The log's channels: the delivery channels, `offer` and `offer_revoke` (recorded, never planned). */
const LOG_CHANNELS = ['email', 'chat', 'log', 'webhook', 'offer', 'offer_revoke'] as const;

const epochMs = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** One record of the dispatch log. */
export const dispatchRecordSchema = z.object({
  id: z.number().int(),
  at: epochMs,
  customer_id: z.string(),
  action: z.enum(ACTIONS),
  urgency: z.enum(URGENCIES),
  risk_score: z.number().int(),
  channel: z.enum(LOG_CHANNELS),
  outcome: z.enum(DISPATCH_OUTCOMES),
  attempt: z.number().int(),
  error: z.string().nullable(),
  trigger: z.enum(['batch', 'webhook', 'manual', 'auto']),
  delivery_id: z.number().int().nullable().meta({ description: "The id of the delivery's first record, shared by all its attempts; null for records written before schema version 8." }),
  target: z.string().nullable().meta({ description: "A webhook endpoint's name; an offer's entitlement id; else null." }),
  detail: z.string().nullable().meta({ description: "JSON text: a webhook's body as sent, and the receiver's answer to a refusal; an offer's grant." }),
  actor: z.string().nullable().meta({ description: 'Who acted, for manual actions (a resend, an offer).' }),
});

export const dispatchesResponseSchema = z.object({
  items: z.array(dispatchRecordSchema),
  next_cursor: z.string().nullable(),
});

/** `POST /api/dispatches/{id}/resend`: the record's id in the path. */
export const dispatchIdParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'Expected a dispatch record id (a positive integer)')
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER)),
});

/** The body of a resend: who asks (recorded as the attempt's `actor`); default `api`. */
export const resendBodySchema = z.strictObject({
  actor: z.string().min(1).max(100).optional().meta({ description: 'Who asks, recorded as the delivery\'s `actor` (the dashboard sends `dashboard`); default `api`.' }),
});

export const resendResponseSchema = z.object({ record: dispatchRecordSchema.meta({ description: 'The `pending` record written for the resend; its attempts follow in the dispatch log.' }) });

