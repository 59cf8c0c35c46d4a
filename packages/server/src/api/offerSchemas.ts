/** The zod schemas of the offer route (`POST /api/subscribers/{id}/offers/{action}`) and of the offers in the subscriber view. */
import { ACTIONS, identifierSchema } from '@tenure/core';
import { z } from 'zod';

/** The path: a customer id and an action (any recommended action; whether it has an offer is checked by the handler). */
export const offerParamsSchema = z.strictObject({
  customer_id: identifierSchema,
  action: z.string().max(64),
});

/** The body: who grants (default `api`; the dashboard sends `dashboard`), shown in the dispatch history. */
export const offerBodySchema = z.strictObject({
  actor: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
    .optional()
    .describe('Who grants: shown in the dispatch history. Default `api`; the dashboard sends `dashboard`.'),
});

/** One configured offer, as the subscriber view shows it beside its recommendation. */
export const offerViewSchema = z.object({
  action: z.enum(ACTIONS),
  entitlement: z.string(),
  duration: z.string().describe('ISO-8601 duration of the access granted (P7D).'),
  auto: z.boolean(),
  daily_cap: z.number().int(),
  cooldown: z.string().describe('ISO-8601: no second grant of this offer to one person within it.'),
  recommended: z.boolean().describe('Whether the action is recommended for this subscriber now.'),
});

const answerSchema = z.object({ status: z.number().int().nullable().describe('RevenueCat’s HTTP status; null when it could not be reached.'), body: z.unknown() });

/** 200: what was granted and RevenueCat's answer; 502 carries the same fields beside `error`. */
export const offerGrantResponseSchema = z.object({
  granted: z.object({ customer_id: z.string(), action: z.enum(ACTIONS), entitlement: z.string(), duration: z.string(), expires_at: z.number().int() }),
  revenuecat: answerSchema,
  dispatch_id: z.number().int().describe('The grant’s record in the dispatch log.'),
});

/** 200 of `POST /api/dispatches/{id}/revoke`: what was revoked and RevenueCat's answer; 502 carries the same fields beside `error`. */
export const offerRevokeResponseSchema = z.object({
  revoked: z.object({
    grant_id: z.number().int().describe('The grant’s record in the dispatch log (the `id` revoked).'),
    customer_id: z.string(),
    action: z.enum(ACTIONS),
    entitlement: z.string(),
  }),
  revenuecat: answerSchema,
  dispatch_id: z.number().int().describe('The revoke’s record in the dispatch log (channel `offer_revoke`).'),
});
