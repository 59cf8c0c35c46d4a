/**
 * The recommendation rules: which actions a subscriber's state and risk call for, ranked by urgency.
 *
 * Runs once per scored subscriber, so it stays cheap: one small array per call, reason strings built
 * only for rules that fire, and an in-place insertion sort (at most three items) instead of a
 * comparator closure.
 */
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import { graceEndsAt } from '../risk/graceEndsAt.js';
import { inactiveDays } from '../risk/inactiveDays.js';
import type { Risk } from '../risk/risk.js';
import { assessedAt } from '../subscriber/promotionalAccess.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { URGENCY_BY_ACTION, URGENCY_RANK, type Action, type Recommendation } from './recommendation.js';

function plural(count: number, word: string): string {
  return count === 1 ? `${count} ${word}` : `${count} ${word}s`;
}

function push(list: Recommendation[], action: Action, reason: string): void {
  list.push({ action, urgency: URGENCY_BY_ACTION[action], reason, priority: 0 });
}

function recommendBillingIssue(list: Recommendation[], s: Subscriber, risk: Risk, now: number, config: TenureConfig): void {
  const above = config.recommend.billing_alert_above;
  const failures = plural(s.billing_failures, 'recorded billing failure');
  // In a grace period the customer keeps access: a reminder, until the grace end is near.
  const graceEnd = graceEndsAt(s);
  const urgentDays = config.recommend.grace_urgent_days;
  if (graceEnd !== null && now < graceEnd - urgentDays * DAY_MS) {
    push(
      list,
      'grace_payment_reminder',
      `Billing issue in a grace period that ends in more than ${plural(urgentDays, 'day')} (access continues), ${failures}, risk score ${risk.score}; remind the customer to update the payment method.`,
    );
    return;
  }
  if (risk.score > above) {
    push(
      list,
      'billing_failure_alert',
      `Billing issue with risk score ${risk.score} (above ${above}) and ${failures}; alert the team now.`,
    );
  }
  push(
    list,
    'payment_update',
    `Billing issue with ${failures} (risk score ${risk.score}); ask the customer to update the payment method.`,
  );
}

function recommendChurned(list: Recommendation[], s: Subscriber, risk: Risk, config: TenureConfig): void {
  const above = config.recommend.winback_above;
  if (risk.score > above) {
    push(list, 'winback', `Churned with risk score ${risk.score} (above ${above}); start a win-back campaign.`);
  } else {
    push(
      list,
      'loyalty_discount',
      `Churned with risk score ${risk.score} (at most ${above}) after ${plural(s.renewals, 'renewal')}; offer a comeback discount.`,
    );
  }
}

function recommendPaused(list: Recommendation[], s: Subscriber, risk: Risk): void {
  const resumes = (s.auto_resume_at ?? null) === null ? 'no resume date is known' : 'it resumes on its own at the scheduled date';
  push(
    list,
    'pause_winback',
    `Paused after ${plural(s.renewals, 'renewal')} with risk score ${risk.score} (${resumes}); give the customer a reason to resume early.`,
  );
}

function recommendRefunded(list: Recommendation[], s: Subscriber, risk: Risk): void {
  push(
    list,
    'refund_followup',
    `Refunded through customer support after ${plural(s.renewals, 'renewal')}, risk score ${risk.score}; find out what went wrong and try to win the customer back.`,
  );
}

function recommendTrialing(list: Recommendation[], s: Subscriber, risk: Risk, now: number, config: TenureConfig): void {
  const started = s.trial_started_at;
  const ends = s.trial_ends_at;
  if (started === null || ends === null || ends <= started) {
    push(
      list,
      'trial_feature_highlight',
      `Trialing with unknown trial dates, risk score ${risk.score}; highlight the features that matter most.`,
    );
    return;
  }
  // Day 1 is the first 24 hours of the trial (and any time before its start); a 14-day trial is
  // nudged from day 12 (seed rule).
  const elapsed = now - started;
  const day = elapsed > 0 ? Math.floor(elapsed / DAY_MS) + 1 : 1;
  const length = Math.round((ends - started) / DAY_MS);
  const nudgeFrom = length - config.recommend.trial_nudge_days_before_end;
  if (day >= nudgeFrom) {
    push(
      list,
      'trial_nudge',
      `Day ${day} of a ${length}-day trial (nudges start on day ${nudgeFrom}); nudge toward a paid plan before the trial ends.`,
    );
  } else {
    push(
      list,
      'trial_feature_highlight',
      `Day ${day} of a ${length}-day trial (nudges start on day ${nudgeFrom}); highlight the features that matter most.`,
    );
  }
}

function recommendPendingCancel(list: Recommendation[], s: Subscriber, risk: Risk, now: number, config: TenureConfig): void {
  const minRenewals = config.recommend.loyalty_min_renewals;
  if (s.cancel_reason === 'PRICE_INCREASE') {
    push(
      list,
      'price_increase_save',
      `Cancelled because of a price increase after ${plural(s.renewals, 'renewal')}, risk score ${risk.score}; offer the previous price or a cheaper plan.`,
    );
  } else if (s.renewals >= minRenewals) {
    push(
      list,
      'loyalty_discount',
      `Cancelled after ${plural(s.renewals, 'renewal')} (at least ${minRenewals}), risk score ${risk.score}; offer a loyalty discount to stay.`,
    );
  } else {
    push(
      list,
      'engagement_checkin',
      `Cancelled after ${plural(s.renewals, 'renewal')} (fewer than ${minRenewals}), risk score ${risk.score}; check in to learn why.`,
    );
  }
  const endsAt = s.period_ends_at;
  const windowDays = config.recommend.renewal_reminder_days;
  if (endsAt !== null && endsAt >= now && endsAt - now <= windowDays * DAY_MS) {
    const daysLeft = Math.ceil((endsAt - now) / DAY_MS);
    const when = daysLeft === 0 ? 'now' : `in ${plural(daysLeft, 'day')}`;
    push(
      list,
      'renewal_reminder',
      `Current period ends ${when} (within ${windowDays} days) and will not renew; send a renewal reminder.`,
    );
  }
}

function recommendActive(list: Recommendation[], s: Subscriber, risk: Risk, now: number, config: TenureConfig): void {
  const days = inactiveDays(s, now);
  const threshold = config.recommend.engagement_inactive_days;
  if (days >= threshold) {
    push(
      list,
      'engagement_checkin',
      `No activity for ${plural(days, 'day')} (at least ${threshold}), risk score ${risk.score}; check in before interest fades.`,
    );
  }
}

/** Stable in-place sort by urgency rank, then numbering from 1. */
function rank(list: Recommendation[]): void {
  for (let i = 1; i < list.length; i++) {
    const item = list[i]!;
    const r = URGENCY_RANK[item.urgency];
    let j = i - 1;
    while (j >= 0 && URGENCY_RANK[list[j]!.urgency] > r) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = item;
  }
  for (let i = 0; i < list.length; i++) list[i]!.priority = i + 1;
}

/**
 * Given a subscriber, its risk, the current time (epoch ms) and a configuration, returns its
 * recommendations: never empty (a single `monitor` when no rule fires), sorted by urgency
 * (immediate, soon, monitor) then rule order, with priorities 1..n (1 is the most urgent) and each
 * urgency taken from `URGENCY_BY_ACTION`. Each reason cites the numbers that triggered it. Pure.
 *
 * @example
 * const risk = scoreSubscriber(subscriber, now);
 * recommend({ ...subscriber, state: 'churned' }, { ...risk, score: 95 }, now)[0]?.action; // 'winback'
 */
export function recommend(
  record: Subscriber,
  risk: Risk,
  now: number,
  config: TenureConfig = DEFAULT_CONFIG,
): Recommendation[] {
  // As scored: a churned customer given access (a promotional grant) is what it is now.
  const subscriber = assessedAt(record, now);
  const list: Recommendation[] = [];
  switch (subscriber.state) {
    case 'billing_issue':
      recommendBillingIssue(list, subscriber, risk, now, config);
      break;
    case 'paused':
      recommendPaused(list, subscriber, risk);
      break;
    case 'refunded':
      recommendRefunded(list, subscriber, risk);
      break;
    case 'churned':
      recommendChurned(list, subscriber, risk, config);
      break;
    case 'trialing':
      recommendTrialing(list, subscriber, risk, now, config);
      break;
    case 'pending_cancel':
      recommendPendingCancel(list, subscriber, risk, now, config);
      break;
    case 'active':
      recommendActive(list, subscriber, risk, now, config);
      break;
    default:
      // Exhaustive: a new state fails to compile here until it has a rule.
      return subscriber.state satisfies never;
  }
  if (list.length === 0) {
    push(
      list,
      'monitor',
      `Risk score ${risk.score} (${risk.band}) in state ${subscriber.state}; no action rule applies, keep monitoring.`,
    );
  }
  rank(list);
  return list;
}
