/** The shapes of a dispatch plan: which alert goes to which channel. */
import type { Recommendation, Urgency } from '../recommend/recommendation.js';
import type { Risk } from '../risk/risk.js';
import type { Subscriber, SubscriberState } from '../subscriber/subscriber.js';

/** A subscriber with its risk and recommendations at one moment. */
export interface Assessment {
  subscriber: Subscriber;
  risk: Risk;
  recommendations: readonly Recommendation[];
}

/** Where one alert goes; `log` means nothing is sent and the item is only recorded. */
export type DeliveryChannel = 'email' | 'chat' | 'log';

/** The seed's routing table. */
export const CHANNELS_BY_URGENCY = {
  immediate: ['email', 'chat'],
  soon: ['email'],
  monitor: ['log'],
} as const satisfies Record<Urgency, readonly DeliveryChannel[]>;

/** What an alert says: enough to build an email or a chat message. */
export interface Alert {
  customer_id: string;
  state: SubscriberState;
  product_id: string | null;
  risk: Risk;
  recommendation: Recommendation;
}

/** One planned delivery of one alert on one channel. */
export interface Delivery {
  channel: DeliveryChannel;
  alert: Alert;
}
