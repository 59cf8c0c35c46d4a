// Builders of handled events for tests: minimal valid events in the billing service's shape.
import type { HandledEvent } from '../src/index.js';


let counter = 0;

/** A handled event with sensible defaults; `id` is unique unless given. */
export function ev<T extends HandledEvent['type']>(
  type: T,
  at: number,
  extra: Partial<Extract<HandledEvent, { type: T }>> = {},
): Extract<HandledEvent, { type: T }> {
  counter += 1;
  return {
    type,
    id: `evt_${counter}`,
    app_user_id: 'user_1',
    event_timestamp_ms: at,
    product_id: 'pro_monthly',
    ...extra,
  } as Extract<HandledEvent, { type: T }>;
}
