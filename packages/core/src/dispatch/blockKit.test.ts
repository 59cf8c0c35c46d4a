import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { makeRisk, makeSubscriber } from '../../test/subscribers.js';
import type { ChatBlock } from './blockKit.js';
import { buildChatMessage } from './buildChatMessage.js';

// Type-level: every block tenure declares is a Slack KnownBlock (this file does not compile otherwise).
const asSlack = (blocks: ChatBlock[]): KnownBlock[] => blocks;

describe('Block Kit types', () => {
  it('builds chat messages whose blocks are Slack KnownBlocks', () => {
    const subscriber = makeSubscriber({ customer_id: 'user_1', state: 'churned' });
    const message = buildChatMessage({
      customer_id: subscriber.customer_id,
      state: subscriber.state,
      product_id: subscriber.product_id,
      risk: makeRisk(95, 'critical'),
      recommendation: { action: 'winback', urgency: 'immediate', reason: 'Churned.', priority: 1 },
    });
    const blocks = [...asSlack(message.blocks), ...message.attachments.flatMap((a) => asSlack(a.blocks))];
    expect(blocks.map((b) => b.type)).toEqual(expect.arrayContaining(['header', 'section', 'context']));
  });
});
