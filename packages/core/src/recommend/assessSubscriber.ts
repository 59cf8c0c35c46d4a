/** A subscriber's full assessment at one moment: risk and recommendations together. */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { assessedAt } from '../subscriber/promotionalAccess.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { recommend } from './recommend.js';

/**
 * Given a subscriber, the current time (epoch ms) and a configuration, returns its assessment: the
 * subscriber as assessed at that time (`assessedAt`: itself, or a churned customer with a promotional
 * grant as the pending cancellation it is until the grant ends), its risk from `scoreSubscriber` and its recommendations from `recommend`. Pure.
 *
 * @example
 * const { risk, recommendations } = assessSubscriber(subscriber, now);
 * recommendations[0]?.priority; // 1
 */
export function assessSubscriber(subscriber: Subscriber, now: number, config: TenureConfig = DEFAULT_CONFIG): Assessment {
  const view = assessedAt(subscriber, now);
  const risk = scoreSubscriber(view, now, config);
  return { subscriber: view, risk, recommendations: recommend(view, risk, now, config) };
}
