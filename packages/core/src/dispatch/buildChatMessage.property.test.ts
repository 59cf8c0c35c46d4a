import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerIdArb, subscriberAtArb } from '../testing/index.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { buildChatMessage } from './buildChatMessage.js';
import { buildEmail } from './buildEmail.js';
import { resolveConfig } from '../config/defaultConfig.js';
import { bandFor } from '../risk/bandFor.js';
import { colorForBand, RISK_COLOR_HEX, riskColor } from './riskColor.js';
import { toAlert } from './toAlert.js';
import type { ChatBlock } from './blockKit.js';
import type { ChatMessage } from './buildChatMessage.js';
import { STORES } from '../events/webhookSchema.js';
import { DAY_MS } from '../config/defaultConfig.js';
import { MAX_PRICE_USD, type SubscriptionRevenue } from '../revenue/subscriptionRevenue.js';
import { monthlyValueUsd } from '../revenue/monthlyValueUsd.js';

/** The current subscription's revenue, or null: any price up to the cap, any period, documented, odd and hostile stores. */
const revenueArb: fc.Arbitrary<SubscriptionRevenue | null> = fc.option(
  fc.record({
    price: fc.double({ min: 0.01, max: MAX_PRICE_USD, noNaN: true }),
    price_in_purchased_currency: fc.constant(null),
    currency: fc.constant('USD'),
    takehome_percentage: fc.constant(null),
    store: fc.option(fc.oneof(fc.constantFrom(...STORES), fc.constantFrom('NEW_STORE', '<!channel>', 'a&b', '__proto__'), fc.string({ maxLength: 20 }))),
    period_ms: fc.option(fc.integer({ min: 1, max: 800 * DAY_MS })),
  }),
);

/** A generated subscriber with revenue (or none) under any customer id, and the instant it is assessed at. */
const subscriberWithRevenueArb = fc
  .tuple(subscriberAtArb, customerIdArb, revenueArb)
  .map(([{ subscriber, now }, customer_id, revenue]) => ({ subscriber: { ...subscriber, customer_id, revenue }, now }));

/** The alert of the top recommendation of a generated subscriber, under any customer id. */
const alertArb = subscriberWithRevenueArb.map(({ subscriber, now }) => {
  const assessment = assessSubscriber(subscriber, now);
  return toAlert(assessment, assessment.recommendations[0]!);
});

/** Every text object of a Block Kit block. */
const textsOf = (block: ChatBlock): { type: string; text: string }[] =>
  block.type === 'header' ? [block.text] : block.type === 'section' ? [...(block.text ? [block.text] : []), ...(block.fields ?? [])] : block.type === 'context' ? block.elements : [];

/**
 * What Slack refuses in a message (its Block Kit limits): more than 50 blocks, a header over 150
 * characters or not plain text, a section without text or fields, more than 10 fields, a field
 * over 2,000 or a section text over 3,000 characters, a context with no or more than 10 elements,
 * an empty text object, an empty fallback text.
 */
function blockKitProblems(message: ChatMessage): string[] {
  const problems: string[] = [];
  if (message.text.length === 0) problems.push('empty fallback text');
  for (const blocks of [message.blocks, ...message.attachments.map((a) => a.blocks)]) {
    if (blocks.length > 50) problems.push('more than 50 blocks');
    for (const block of blocks) {
      if (block.type === 'header' && (block.text.type !== 'plain_text' || block.text.text.length > 150)) problems.push('bad header');
      if (block.type === 'section') {
        if (block.text === undefined && (block.fields ?? []).length === 0) problems.push('empty section');
        if ((block.fields ?? []).length > 10) problems.push(`${block.fields?.length} fields`);
        if ((block.fields ?? []).some((f) => f.text.length > 2000)) problems.push('field over 2000');
        if ((block.text?.text.length ?? 0) > 3000) problems.push('section text over 3000');
      }
      if (block.type === 'context' && (block.elements.length === 0 || block.elements.length > 10)) problems.push('context elements');
      if (textsOf(block).some((t) => t.text.length === 0)) problems.push('empty text object');
    }
  }
  return problems;
}

/** Text with every well-formed entity (&amp; &lt; &gt;) removed. */
const withoutEntities = (text: string) => text.replace(/&(amp|lt|gt);/g, '');

describe('buildChatMessage properties', () => {
  it('leaves no raw &, < or > in any text when no link is given', () => {
    fc.assert(
      fc.property(alertArb, (alert) => {
        const json = JSON.stringify(buildChatMessage(alert));
        expect(withoutEntities(json)).not.toMatch(/[&<>]/);
      }),
    );
  });

  it('is always a message Slack accepts (Block Kit limits), whatever the customer id, revenue and store', () => {
    fc.assert(
      fc.property(alertArb, (alert) => {
        expect(blockKitProblems(buildChatMessage(alert, { link: 'https://admin.example.com/u?id=1|2' }))).toEqual([]);
      }),
    );
  });

  it('shows the monthly value at risk exactly when a price is known, and the figure is monthlyValueUsd to the cent', () => {
    fc.assert(
      fc.property(subscriberWithRevenueArb, ({ subscriber, now }) => {
        const assessment = assessSubscriber(subscriber, now);
        const alert = toAlert(assessment, assessment.recommendations[0]!);
        const fields = buildChatMessage(alert).blocks.flatMap((b) => (b.type === 'section' ? (b.fields ?? []) : [])).map((f) => f.text);
        const shown = fields.find((f) => f.startsWith('*Revenue at risk*'));
        if (subscriber.revenue === null) {
          expect(shown).toBeUndefined();
          return;
        }
        const figure = /^\*Revenue at risk\*\n\$([\d,]+\.\d\d)\/mo$/.exec(shown ?? '')?.[1];
        expect(figure).toBeDefined();
        expect(Number(figure!.replace(/,/g, ''))).toBe(Math.round(monthlyValueUsd(subscriber) * 100) / 100);
        expect(buildEmail(alert).text).toContain(`Revenue at risk: $${figure}/mo`);
      }),
    );
  });

  it('colours the attachment by the risk band (red critical, orange high, yellow medium, green low)', () => {
    fc.assert(
      fc.property(alertArb, (alert) => {
        const colorOfBand = { critical: 'red', high: 'orange', medium: 'yellow', low: 'green' } as const;
        expect(buildChatMessage(alert).attachments[0]?.color).toBe(RISK_COLOR_HEX[colorOfBand[alert.risk.band]]);
      }),
    );
  });

  it('gives a score the colour of its band under any band configuration', () => {
    const bandsArb = fc
      .uniqueArray(fc.integer({ min: 1, max: 100 }), { minLength: 3, maxLength: 3 })
      .map((values) => {
        const [critical = 90, high = 60, medium = 30] = [...values].sort((x, y) => y - x);
        return resolveConfig({ bands: { critical, high, medium } });
      });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), bandsArb, (score, config) => {
        expect(riskColor(score, config)).toBe(colorForBand(bandFor(score, config.bands)));
      }),
    );
  });
});

describe('buildEmail properties', () => {
  it('leaves no raw < or > from values in the HTML outside its own tags', () => {
    fc.assert(
      fc.property(alertArb, (alert) => {
        const { html } = buildEmail(alert);
        const textOnly = html.replace(/<\/?[a-z0-9]+(\s+[a-z-]+="[^"<>]*")*\s*>|<!doctype html>/gi, '');
        expect(withoutEntities(textOnly.replace(/&(quot|#39);/g, ''))).not.toMatch(/[&<>]/);
      }),
    );
  });

  it('keeps the subject on one line', () => {
    fc.assert(
      fc.property(alertArb, (alert) => {
        expect(buildEmail(alert).subject).not.toMatch(/[\r\n]/);
      }),
    );
  });
});
