/** A subscriber's full assessment at one moment: risk and recommendations together. */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { recommend } from './recommend.js';

/**
 * Given a subscriber, the current time (epoch ms) and a configuration, returns its assessment: the
 * subscriber itself, its risk from `scoreSubscriber` and its recommendations from `recommend`. Pure.
 *
 * @example
 * const { risk, recommendations } = assessSubscriber(subscriber, now);
 * recommendations[0]?.priority; // 1
 */
export function assessSubscriber(subscriber: Subscriber, now: number, config: TenureConfig = DEFAULT_CONFIG): Assessment {
  const risk = scoreSubscriber(subscriber, now, config);
  return { subscriber, risk, recommendations: recommend(subscriber, risk, now, config) };
}
