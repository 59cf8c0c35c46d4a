/**
 * Where an event goes: the delivery targets (the configured webhook, and webhook integrations once
 * the world holds them) and the filters each one applies, as API v2's webhook integrations define
 * them (`environment`, `event_types`).
 */
import type { WebhookBody } from '../machine/webhookEvents.js';
import type { WebhookConfig, WebhookEnvironment } from './deliveryConfig.js';

/** One place events are POSTed to, with its Authorization value and filters. */
export interface DeliveryTarget {
  /** The integration's id; null for the webhook configured with `POST /sim/webhook` or the CLI flags. */
  id: string | null;
  url: string;
  /** Sent verbatim as the Authorization header; null sends none. */
  authorization: string | null;
  /** Only events of this environment; null: both. */
  environment: WebhookEnvironment | null;
  /** Only events of these lower-case types; null: all. */
  event_types: readonly string[] | null;
}

/**
 * Given the webhook configuration, returns its delivery target (none when no URL is set).
 *
 * @example
 * configuredTargets({ ...config, url: 'http://127.0.0.1:3000/webhook' })[0]?.id; // null
 */
export function configuredTargets(config: WebhookConfig): DeliveryTarget[] {
  if (config.url === null) return [];
  return [{ id: null, url: config.url, authorization: config.authorization, environment: config.environment, event_types: config.event_types }];
}

/** The store environment of an event: `environment`, or `purchase_environment` on currency transactions. */
function environmentOf(body: WebhookBody): string | null {
  const event = body.event as { environment?: unknown; purchase_environment?: unknown };
  const env = event.environment ?? event.purchase_environment;
  return typeof env === 'string' ? env : null;
}

/**
 * Given a target and a webhook body, returns whether the target's filters let the event through:
 * its environment filter matches the event's (`SANDBOX` ↔ `sandbox`) and its type list, when set,
 * holds the event's type in lower case. Pure.
 *
 * @example
 * acceptsEvent({ ...target, event_types: ['renewal'] }, body); // true for a RENEWAL only
 */
export function acceptsEvent(target: DeliveryTarget, body: WebhookBody): boolean {
  if (target.environment !== null && environmentOf(body)?.toLowerCase() !== target.environment) return false;
  return target.event_types === null || target.event_types.includes(body.event.type.toLowerCase());
}
