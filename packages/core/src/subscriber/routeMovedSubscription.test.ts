import { describe, expect, it } from 'vitest';
import { T0 } from '@tenure/testkit';
import { ev } from '../../test/events.js';
import { movedSubscriptionOf, routeMovedSubscription } from './routeMovedSubscription.js';
import { reKeyToReceiver } from './transferHistory.js';

const moved = new Map([['otx_1', 'user_42']]);
const receiverOf = (subscription: string) => moved.get(subscription);

describe('movedSubscriptionOf', () => {
  it('is the original_transaction_id when it is a non-empty string, else undefined', () => {
    expect(movedSubscriptionOf(ev('RENEWAL', T0, { original_transaction_id: 'otx_1' }))).toBe('otx_1');
    expect(movedSubscriptionOf(ev('RENEWAL', T0, { original_transaction_id: '' }))).toBeUndefined();
    expect(movedSubscriptionOf(ev('RENEWAL', T0, { original_transaction_id: null }))).toBeUndefined();
    expect(movedSubscriptionOf(ev('NON_RENEWING_PURCHASE', T0))).toBeUndefined();
  });
});

describe('routeMovedSubscription', () => {
  it('re-keys an event of a moved subscription to its receiver, without the sender\u2019s ids', () => {
    const late = ev('RENEWAL', T0, { app_user_id: 'old', original_app_user_id: '$RCAnonymousID:a', aliases: ['old'], original_transaction_id: 'otx_1' });
    const routed = routeMovedSubscription(late, receiverOf);
    expect(routed).toEqual(reKeyToReceiver(late, 'user_42'));
    expect(routed.app_user_id).toBe('user_42');
    expect(routed.original_app_user_id).toBeUndefined();
    expect(routed.aliases).toBeUndefined();
  });

  it('leaves an event of a subscription that did not move, or of none, as it is', () => {
    const other = ev('INITIAL_PURCHASE', T0, { app_user_id: 'old', original_transaction_id: 'otx_2' });
    const topUp = ev('NON_RENEWING_PURCHASE', T0, { app_user_id: 'old' });
    expect(routeMovedSubscription(other, receiverOf)).toBe(other);
    expect(routeMovedSubscription(topUp, receiverOf)).toBe(topUp);
  });

  it('leaves an event that already names the receiving id as it is, so the ids it links stay', () => {
    const own = ev('RENEWAL', T0, { app_user_id: 'user_42b', original_app_user_id: 'user_42', aliases: ['user_42', 'user_42b'], original_transaction_id: 'otx_1' });
    expect(routeMovedSubscription(own, receiverOf)).toBe(own);
  });
});
