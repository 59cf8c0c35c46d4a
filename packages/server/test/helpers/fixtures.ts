/** Loads a webhook fixture and overrides fields of its `event`. */
import { readFileSync } from 'node:fs';
import { parseWebhook, type HandledEvent } from '@tenure/core';

export type FixtureName =
  | 'initial_purchase_trial'
  | 'initial_purchase'
  | 'renewal'
  | 'cancellation'
  | 'uncancellation'
  | 'expiration'
  | 'billing_issue'
  | 'product_change'
  | 'non_renewing_purchase'
  | 'transfer'
  | 'test';

export const DAY = 86_400_000;
/** 2026-01-01T00:00:00Z, the fixtures' event time. */
export const T0 = 1_767_225_600_000;

export interface WebhookBody {
  api_version: string;
  event: Record<string, unknown>;
}

/** Returns a fresh copy of a fixture with `overrides` merged into its event. */
export function fixture(name: FixtureName, overrides: Record<string, unknown> = {}): WebhookBody {
  const body = JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8')) as WebhookBody;
  return { ...body, event: { ...body.event, ...overrides } };
}

/** The fixture parsed into the core's `HandledEvent` (for calling a store directly). */
export function handledEvent(name: FixtureName, overrides: Record<string, unknown> = {}): HandledEvent {
  const parsed = parseWebhook(fixture(name, overrides));
  if (!parsed.ok || !parsed.value.handled) throw new Error(`fixture ${name} is not a handled event`);
  return parsed.value.event;
}
