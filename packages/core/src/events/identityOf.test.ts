import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '@tenure/testkit';
import { storableIdArb } from '../testing/index.js';
import { identityOf, transferOf } from './identityOf.js';
import { parseWebhook } from './parseWebhook.js';
import { transferEventSchema } from './webhookSchema.js';

describe('identityOf', () => {
  it('keys a person by original_app_user_id and names the id the app uses', () => {
    const parsed = parseWebhook(loadFixture('renewal'));
    if (!parsed.ok || !parsed.value.handled) throw new Error('not handled');
    const event = { ...parsed.value.event, app_user_id: 'user_42', original_app_user_id: '$RCAnonymousID:ab' };
    expect(identityOf(event)).toEqual({ customer_key: '$RCAnonymousID:ab', app_user_id: 'user_42' });
  });
  it('falls back to app_user_id without an original id', () => {
    const parsed = parseWebhook(loadFixture('renewal'));
    if (!parsed.ok || !parsed.value.handled) throw new Error('not handled');
    expect(identityOf({ ...parsed.value.event, original_app_user_id: null }).customer_key).toBe(parsed.value.event.app_user_id);
  });
});

describe('transferOf', () => {
  it('reads the real-format fixture: user_1234 loses, user_5678 gains', () => {
    const parsed = transferEventSchema.safeParse(loadFixture('transfer').event);
    if (!parsed.success) throw new Error('transfer fixture does not parse');
    expect(transferOf(parsed.data)).toEqual({ from: ['user_1234'], to: ['user_5678'] });
  });
  it('refuses a transfer whose ids are not identifiers, naming the field', () => {
    const body = loadFixture('transfer');
    body.event['transferred_to'] = ['ok', 'a\u0000b'];
    const parsed = transferEventSchema.safeParse(body.event);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['transferred_to', 1]);
  });
  it('gives disjoint, sorted, duplicate-free sides that do not depend on the order of the arrays', () => {
    const idsArb = fc.array(fc.oneof(storableIdArb, fc.constantFrom('a', 'b', 'c')), { maxLength: 6 });
    fc.assert(
      fc.property(idsArb, idsArb, (from, to) => {
        const t = transferOf({ transferred_from: from, transferred_to: to });
        expect(t.from.filter((id) => t.to.includes(id))).toEqual([]);
        expect(new Set(t.from).size).toBe(t.from.length);
        expect(new Set(t.to).size).toBe(t.to.length);
        for (const id of t.to) expect(to.includes(id) && !from.includes(id)).toBe(true);
        for (const id of to) if (!from.includes(id)) expect(t.to).toContain(id);
        expect(transferOf({ transferred_from: [...from].reverse(), transferred_to: [...to].reverse() })).toEqual(t);
      }),
    );
  });
});
