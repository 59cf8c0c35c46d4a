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

/** The alert of the top recommendation of a generated subscriber, under any customer id. */
const alertArb = fc.tuple(subscriberAtArb, customerIdArb).map(([{ subscriber, now }, customer_id]) => {
  const assessment = assessSubscriber({ ...subscriber, customer_id }, now);
  return toAlert(assessment, assessment.recommendations[0]!);
});

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
