/**
 * The Slack Block Kit shapes tenure's chat alerts use: header, section and context blocks with
 * plain-text and mrkdwn text objects. Declared here so that the core's public types need no Slack
 * package; `blockKit.test.ts` checks they are assignable to `@slack/types`' `KnownBlock`.
 */

export interface PlainTextObject {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface MrkdwnObject {
  type: 'mrkdwn';
  text: string;
  verbatim?: boolean;
}

export type TextObject = PlainTextObject | MrkdwnObject;

export interface HeaderBlock {
  type: 'header';
  text: PlainTextObject;
  block_id?: string;
}

export interface SectionBlock {
  type: 'section';
  text?: TextObject;
  fields?: TextObject[];
  block_id?: string;
}

export interface ContextBlock {
  type: 'context';
  elements: TextObject[];
  block_id?: string;
}

export interface DividerBlock {
  type: 'divider';
  block_id?: string;
}

/** The blocks a tenure chat alert may contain. */
export type ChatBlock = HeaderBlock | SectionBlock | ContextBlock | DividerBlock;
