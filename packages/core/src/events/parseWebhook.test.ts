import { describe, expect, it } from 'vitest';
import { loadFixture, webhookFixtures } from '@tenure/testkit';
import { parseWebhook } from './parseWebhook.js';
import { EPOCH_MS_END, EPOCH_MS_MIN } from './epochMs.js';
import { MAX_ID_BYTES } from './identifier.js';
import { DOCUMENTED_UNHANDLED_EVENT_TYPES, HANDLED_EVENT_TYPES } from './webhookSchema.js';

const fieldsOf = (result: ReturnType<typeof parseWebhook>) => (result.ok ? [] : result.errors.map((e) => e.field));

describe('parseWebhook', () => {
  describe('real-format payloads', () => {
    for (const [name, body] of Object.entries(webhookFixtures)) {
      it(`parses the ${name} fixture`, () => {
        const result = parseWebhook(body);
        expect(result.ok, JSON.stringify(result)).toBe(true);
      });
    }

    it('has a fixture for every handled and every documented unhandled event type', () => {
      const types = new Set(Object.values(webhookFixtures).map((body) => String(body.event['type'])));
      for (const type of [...HANDLED_EVENT_TYPES, ...DOCUMENTED_UNHANDLED_EVENT_TYPES]) expect(types).toContain(type);
    });

    it('marks the seven lifecycle types and NON_RENEWING_PURCHASE as handled', () => {
      for (const name of [
        'initial_purchase',
        'renewal',
        'cancellation',
        'uncancellation',
        'expiration',
        'billing_issue',
        'product_change',
        'non_renewing_purchase',
        'refund_reversed',
        'subscription_paused',
        'subscription_extended',
        'temporary_entitlement_grant',
      ]) {
        const result = parseWebhook(webhookFixtures[name]);
        expect(result.ok && result.value.handled, name).toBe(true);
      }
    });

    it('accepts documented types it does not handle as unhandled', () => {
      for (const name of ['transfer', 'test', 'virtual_currency_transaction', 'invoice_issuance', 'experiment_enrollment', 'subscriber_alias']) {
        const result = parseWebhook(webhookFixtures[name]);
        expect(result.ok && !result.value.handled, name).toBe(true);
      }
    });

    it('accepts an unknown future event type as unhandled', () => {
      const result = parseWebhook({ api_version: '1.0', event: { type: 'PAYWALL_IMPRESSION', id: 'x', whatever: { a: 1 } } });
      expect(result).toMatchObject({ ok: true, value: { handled: false, event: { type: 'PAYWALL_IMPRESSION' } } });
    });

    it('keeps unknown fields of a handled event', () => {
      const body = loadFixture('renewal');
      body.event['brand_new_field'] = { nested: [1, 2] };
      const result = parseWebhook(body);
      expect(result.ok && result.value.event).toMatchObject({ brand_new_field: { nested: [1, 2] } });
    });

    it('accepts a body without api_version', () => {
      const body = loadFixture('renewal') as Record<string, unknown>;
      delete body['api_version'];
      expect(parseWebhook(body).ok).toBe(true);
    });

    it('accepts null for nullable fields', () => {
      const body = loadFixture('initial_purchase');
      for (const field of ['expiration_at_ms', 'price', 'currency', 'entitlement_ids', 'period_type', 'product_id', 'aliases']) {
        body.event[field] = null;
      }
      expect(parseWebhook(body).ok).toBe(true);
    });
  });

  describe('required fields of handled types', () => {
    for (const field of ['id', 'app_user_id', 'event_timestamp_ms']) {
      it(`rejects a handled event without ${field}, naming event.${field}`, () => {
        const body = loadFixture('billing_issue');
        delete body.event[field];
        expect(fieldsOf(parseWebhook(body))).toEqual([`event.${field}`]);
      });
    }

    it('rejects an empty app_user_id', () => {
      const body = loadFixture('renewal');
      body.event['app_user_id'] = '';
      expect(fieldsOf(parseWebhook(body))).toEqual(['event.app_user_id']);
    });

    it('does not require app_user_id of an unhandled type (TRANSFER has none)', () => {
      expect(parseWebhook(webhookFixtures['transfer']).ok).toBe(true);
    });
  });

  describe('hostile values', () => {
    const cases: [string, unknown, string][] = [
      ['null', null, 'body'],
      ['an array', [], 'body'],
      ['a number', 42, 'body'],
      ['a string', '{"event":{}}', 'body'],
      ['undefined', undefined, 'body'],
      ['a body without event', { api_version: '1.0' }, 'event'],
      ['event as an array', { event: [] }, 'event'],
      ['event as null', { event: null }, 'event'],
      ['a missing type', { event: { id: 'x' } }, 'event.type'],
      ['type as a number', { event: { type: 7 } }, 'event.type'],
      ['an empty type', { event: { type: '' } }, 'event.type'],
      ['a lower-case type', { event: { type: 'renewal' } }, 'event.type'],
      ['a type with a space', { event: { type: 'RENEWAL ' } }, 'event.type'],
      ['a type of 65 characters', { event: { type: 'A'.repeat(65) } }, 'event.type'],
      ['a type of 5 MB', { event: { type: 'A'.repeat(5 * 1024 * 1024) } }, 'event.type'],
    ];
    for (const [label, body, field] of cases) {
      it(`rejects ${label}, naming ${field}`, () => {
        expect(fieldsOf(parseWebhook(body))).toEqual([field]);
      });
    }

    it('rejects a timestamp sent as a string, naming the field', () => {
      const body = loadFixture('renewal');
      body.event['event_timestamp_ms'] = '1762000000000';
      expect(fieldsOf(parseWebhook(body))).toEqual(['event.event_timestamp_ms']);
    });

    it('rejects a negative, fractional or out-of-range timestamp', () => {
      for (const value of [-1, 1.5, 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, EPOCH_MS_MIN - 1, EPOCH_MS_END]) {
        const body = loadFixture('renewal');
        body.event['event_timestamp_ms'] = value;
        expect(fieldsOf(parseWebhook(body))).toEqual(['event.event_timestamp_ms']);
      }
    });

    it('rejects a boolean sent as a string, naming the field', () => {
      const body = loadFixture('renewal_trial_conversion');
      body.event['is_trial_conversion'] = 'true';
      expect(fieldsOf(parseWebhook(body))).toEqual(['event.is_trial_conversion']);
    });

    it('names every bad field at once', () => {
      const body = loadFixture('renewal');
      body.event['id'] = 12;
      body.event['price'] = 'cheap';
      expect(fieldsOf(parseWebhook(body)).sort()).toEqual(['event.id', 'event.price']);
    });

    it('rejects a 10 MB id without throwing, naming the field', () => {
      const body = loadFixture('renewal');
      body.event['app_user_id'] = 'u'.repeat(10 * 1024 * 1024);
      expect(fieldsOf(parseWebhook(body))).toEqual(['event.app_user_id']);
    });

    it('rejects inherited property names as types (they are not upper-case identifiers)', () => {
      for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        expect(fieldsOf(parseWebhook({ event: { type } }))).toEqual(['event.type']);
      }
    });

    it('accepts well-formed unknown types up to 64 characters as unhandled', () => {
      for (const type of ['X', 'A'.repeat(64), 'NEW_TYPE_2']) {
        expect(parseWebhook({ event: { type } })).toMatchObject({ ok: true, value: { handled: false, event: { type } } });
      }
    });
  });

  describe('instants (every *_ms field)', () => {
    const instantFields = ['event_timestamp_ms', 'purchased_at_ms', 'expiration_at_ms', 'grace_period_expiration_at_ms'];
    for (const field of instantFields) {
      it(`bounds ${field} to [2000-01-01, 2100-01-01): in range accepted, out of range named`, () => {
        for (const value of [EPOCH_MS_MIN, EPOCH_MS_END - 1]) {
          const body = loadFixture('billing_issue');
          body.event[field] = value;
          expect(parseWebhook(body).ok, `${field} = ${value}`).toBe(true);
        }
        for (const value of [EPOCH_MS_MIN - 1, EPOCH_MS_END, Number.MAX_SAFE_INTEGER, 0]) {
          const body = loadFixture('billing_issue');
          body.event[field] = value;
          expect(fieldsOf(parseWebhook(body)), `${field} = ${value}`).toEqual([`event.${field}`]);
        }
      });
    }

    it('refuses event_timestamp_ms = 2^53 - 1, which would poison the event clock forever', () => {
      const body = loadFixture('renewal');
      body.event['event_timestamp_ms'] = 2 ** 53 - 1;
      expect(fieldsOf(parseWebhook(body))).toEqual(['event.event_timestamp_ms']);
    });

    it('bounds the instants of handled and unhandled types (auto_resume_at_ms, experiment_enrolled_at_ms)', () => {
      const paused = loadFixture('subscription_paused');
      paused.event['auto_resume_at_ms'] = 2 ** 53 - 1;
      expect(fieldsOf(parseWebhook(paused))).toEqual(['event.auto_resume_at_ms']);
      const enrolled = loadFixture('experiment_enrollment');
      enrolled.event['experiment_enrolled_at_ms'] = -5;
      expect(fieldsOf(parseWebhook(enrolled))).toEqual(['event.experiment_enrolled_at_ms']);
    });
  });
});

describe('parseWebhook identifiers', () => {
  const body = (app_user_id: string, id = 'evt_1') => ({ api_version: '1.0', event: { type: 'RENEWAL', id, app_user_id, event_timestamp_ms: 1_762_000_000_000 } });

  it('rejects an id a database could not store unchanged: U+0000, or a lone surrogate', () => {
    for (const [value, field] of [
      [body('a\u0000b'), 'event.app_user_id'],
      [body('a\uD800'), 'event.app_user_id'],
      [body('\uDC00a'), 'event.app_user_id'],
      [body('u1', 'e\u0000'), 'event.id'],
    ] as const) {
      const result = parseWebhook(value);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.map((e) => e.field)).toContain(field);
    }
  });

  it('accepts well-formed non-ASCII ids, astral characters included', () => {
    expect(parseWebhook(body('ユーザー\u{1F600}é')).ok).toBe(true);
  });
});

describe('parseWebhook identifier length', () => {
  const at = 1_762_000_000_000;
  const ids = { ascii: 'a', two: 'é', three: 'ユ', four: '\u{1F600}' } as const;

  it(`accepts ids of exactly ${MAX_ID_BYTES} UTF-8 bytes and names every field of ${MAX_ID_BYTES + 1} or more`, () => {
    const fits = 'a'.repeat(MAX_ID_BYTES);
    const over = 'a'.repeat(MAX_ID_BYTES - 3) + ids.four; // 253 + 4 bytes: 255 code units, 257 bytes
    const event = (value: string) => ({
      type: 'RENEWAL',
      id: value,
      app_user_id: value,
      original_app_user_id: value,
      aliases: ['ok', value],
      event_timestamp_ms: at,
    });
    expect(parseWebhook({ event: event(fits) }).ok).toBe(true);
    expect(fieldsOf(parseWebhook({ event: event(over) })).sort()).toEqual(
      ['event.aliases.1', 'event.app_user_id', 'event.id', 'event.original_app_user_id'],
    );
  });

  it('counts bytes, not characters: 85 three-byte characters fit, 86 do not', () => {
    const event = (app_user_id: string) => ({ event: { type: 'RENEWAL', id: 'e1', app_user_id, event_timestamp_ms: at } });
    expect(parseWebhook(event(ids.three.repeat(85))).ok).toBe(true);
    expect(fieldsOf(parseWebhook(event(ids.three.repeat(86))))).toEqual(['event.app_user_id']);
    expect(parseWebhook(event(ids.four.repeat(64))).ok).toBe(true);
    expect(fieldsOf(parseWebhook(event(ids.four.repeat(65))))).toEqual(['event.app_user_id']);
  });

  it('bounds the ids of unhandled types (TRANSFER) too', () => {
    const long = 'u'.repeat(MAX_ID_BYTES + 1);
    const result = parseWebhook({ event: { type: 'TRANSFER', id: 'e1', transferred_from: [long], transferred_to: ['u2'] } });
    expect(fieldsOf(result)).toEqual(['event.transferred_from.0']);
  });
});
