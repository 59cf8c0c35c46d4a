/** Puts subscribers in a known state through the real webhook route. */
import { DAY, fixture, T0 } from './fixtures.js';
import type { TestServer } from './testServer.js';

export type Profile = 'active' | 'trial' | 'pending' | 'billing' | 'churned';

/** Sends the events that lead `customer` to `profile` (all at T0 + offset), asserting each is applied. */
export async function seed(app: TestServer, customer: string, profile: Profile, offset = 0): Promise<void> {
  const at = T0 + offset;
  const base = { app_user_id: customer, event_timestamp_ms: at, purchased_at_ms: at, expiration_at_ms: at + 30 * DAY };
  const events = [
    profile === 'trial'
      ? fixture('initial_purchase_trial', { ...base, id: `${customer}-start`, expiration_at_ms: at + 14 * DAY })
      : fixture('initial_purchase', { ...base, id: `${customer}-start` }),
  ];
  const later = { ...base, event_timestamp_ms: at + 1 };
  if (profile === 'pending') events.push(fixture('cancellation', { ...later, id: `${customer}-cancel` }));
  if (profile === 'billing') events.push(fixture('billing_issue', { ...later, id: `${customer}-billing` }));
  if (profile === 'churned') events.push(fixture('expiration', { ...later, id: `${customer}-expire` }));
  for (const body of events) {
    const res = await app.webhook(body);
    if (res.status !== 200) throw new Error(`seed ${customer}: ${JSON.stringify(res.body)}`);
  }
}
