/** The shared webhook fixtures (from @tenure/testkit), and the same parsed into the core's `HandledEvent`. */
import { parseWebhook, type HandledEvent } from '@tenure/core';
import { fixture } from '@tenure/testkit';

export { DAY, T0, fixture, type WebhookBody } from '@tenure/testkit';

/** The fixture parsed into the core's `HandledEvent` (for calling a store directly). */
export function handledEvent(name: string, overrides: Record<string, unknown> = {}): HandledEvent {
  const parsed = parseWebhook(fixture(name, overrides));
  if (!parsed.ok || !parsed.value.handled) throw new Error(`fixture ${name} is not a handled event`);
  return parsed.value.event;
}
