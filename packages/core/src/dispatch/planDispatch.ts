/** The dispatch plan: which alerts go out, and on which channels. */
import { CHANNELS_BY_URGENCY, type Assessment, type Delivery, type DispatchRouting } from './delivery.js';
import { toAlert } from './toAlert.js';

/**
 * Given assessments, returns the deliveries to make: for each customer only its priority-1
 * recommendation (so an outage does not send one message per recommendation), on every channel of
 * `CHANNELS_BY_URGENCY` for its urgency (immediate: email and chat; soon: email; monitor: log). A
 * customer without recommendations gets nothing. When a customer appears more than once, its last
 * assessment in input order wins; customers come out in the order they first appear. With
 * `routing`, the alert also goes to every webhook endpoint whose urgencies include its urgency, one
 * `webhook` delivery each (`target`: the endpoint's name), after the other channels, in the
 * endpoints' order. Pure.
 *
 * @example
 * planDispatch([assessSubscriber(subscriber, now)]).map((d) => d.channel); // e.g. ['email', 'chat']
 * planDispatch(assessments, { webhooks: [{ name: 'crm', urgencies: ['immediate'] }] }); // + { channel: 'webhook', target: 'crm', ... }
 */
export function planDispatch(assessments: readonly Assessment[], routing?: DispatchRouting): Delivery[] {
  const latest = new Map<string, Assessment>();
  for (const assessment of assessments) latest.set(assessment.subscriber.customer_id, assessment);

  const deliveries: Delivery[] = [];
  for (const assessment of latest.values()) {
    const top = assessment.recommendations.find((r) => r.priority === 1);
    if (top === undefined) continue;
    const alert = toAlert(assessment, top);
    for (const channel of CHANNELS_BY_URGENCY[top.urgency]) deliveries.push({ channel, alert });
    for (const endpoint of routing?.webhooks ?? []) if (endpoint.urgencies.includes(top.urgency)) deliveries.push({ channel: 'webhook', target: endpoint.name, alert });
  }
  return deliveries;
}
