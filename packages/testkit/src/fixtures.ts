/**
 * The webhook fixtures: bodies in the billing service's real format (envelope
 * `{ event, api_version }`), one file per event type, written from RevenueCat's documented fields.
 * Every package's tests load them from here, so there is one set.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../fixtures/webhooks/', import.meta.url));

/** A webhook body as the fixtures hold it. */
export type WebhookBody = {
  api_version: string;
  event: Record<string, unknown>;
};

/** The fixture names (file names without `.json`), sorted. */
export const FIXTURE_NAMES: readonly string[] = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length))
  .sort();

/** Every fixture by name, parsed once (do not mutate; `loadFixture` hands out copies). */
export const webhookFixtures: Readonly<Record<string, WebhookBody>> = Object.fromEntries(
  FIXTURE_NAMES.map((name) => [name, JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as WebhookBody]),
);

/**
 * Given a fixture name and fields to override in its `event`, returns a fresh copy of the body.
 * A copy under another `id` is another event, so unless the overrides name a `transaction_id`, it
 * gets one of its own (`<fixture's>-<id>`): the stores count purchases, renewals and billing
 * failures once per transaction (docs/rules.md §2), as RevenueCat numbers each one. Likewise a
 * copy under another `app_user_id` is another person: unless the overrides name them, its
 * `original_app_user_id` is that id and its `aliases` are `[app_user_id]` (the stores group the ids
 * an event names into one subscriber, so the fixtures' shared anonymous id would join every copy).
 *
 * @example
 * fixture('renewal', { id: 'evt-1', app_user_id: 'cust-1', event_timestamp_ms: T0 });
 */
export function fixture(name: string, overrides: Record<string, unknown> = {}): WebhookBody {
  const body = webhookFixtures[name];
  if (body === undefined) throw new Error(`no webhook fixture named ${name} (have: ${FIXTURE_NAMES.join(', ')})`);
  const copy = structuredClone(body);
  const txn = copy.event['transaction_id'];
  const own = typeof overrides['id'] === 'string' && !('transaction_id' in overrides) && typeof txn === 'string' ? { transaction_id: `${txn}-${overrides['id']}` } : {};
  const app = overrides['app_user_id'];
  const person =
    typeof app === 'string' && !('original_app_user_id' in overrides) && !('aliases' in overrides) ? { original_app_user_id: app, aliases: [app] } : {};
  return { ...copy, event: { ...copy.event, ...own, ...person, ...overrides } };
}

/** One fixture as a fresh copy (callers may mutate it). */
export function loadFixture(name: string): WebhookBody {
  return fixture(name);
}
