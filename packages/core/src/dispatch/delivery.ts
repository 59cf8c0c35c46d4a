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

/**
 * Where one alert goes; `log` means nothing is sent and the item is only recorded; `webhook` is a
 * signed POST to one of the team's endpoints (`Delivery.target` names it).
 */
export type DeliveryChannel = 'email' | 'chat' | 'log' | 'webhook';

/** The seed's routing table. */
export const CHANNELS_BY_URGENCY = {
  immediate: ['email', 'chat'],
  soon: ['email'],
  monitor: ['log'],
} as const satisfies Record<Urgency, readonly DeliveryChannel[]>;

/** What an alert says: enough to build an email or a chat message. */
export interface Alert {
  customer_id: string;
  /**
   * The id the alert's cooldowns are kept under: the person's first app user id
   * (`original_app_user_id`), which stays when the person is named by another id later (an anonymous
   * id identified, an alias); else `customer_id`. `toAlert` sets it; absent in an alert built by hand.
   */
  person_id?: string;
  state: SubscriberState;
  product_id: string | null;
  /**
   * The revenue at risk: the current subscription's value per month in USD, whole cents
   * (`monthlyValueCents` / 100); null when no price is known (nothing charged yet). `toAlert` always
   * sets it; absent in an alert built by hand, which then shows no figure.
   */
  monthly_value_usd?: number | null;
  /** The current subscription's store as RevenueCat sends it (`APP_STORE`, `PLAY_STORE`, ...); null when unknown. */
  store?: string | null;
  risk: Risk;
  recommendation: Recommendation;
}

/** One planned delivery of one alert on one channel. */
export interface Delivery {
  channel: DeliveryChannel;
  alert: Alert;
}
