/** Which subscriber and action a received alert is about, read from the Slack post or the email subject. */
import { ACTION_LABELS, type Action } from '@tenure/core';
import type { ChatPost } from '@tenure/testkit';
import type { ReceivedMail } from '@tenure/testkit';

/** `customer|action` of a Slack post (its fallback text: "… for <customer>[ (<revenue>, <store>)]: <action> (<urgency>). …"). ASCII ids only. */
export function chatKey(post: ChatPost): string {
  const match = /for (\S+?)(?: \([^)]*\))?: ([a-z_]+) \((?:immediate|soon|monitor)\)\./.exec(String(post.body.text));
  if (match === null) throw new Error(`unreadable chat alert: ${String(post.body.text)}`);
  return `${match[1]}|${match[2]}`;
}

const ACTION_BY_LABEL = new Map(Object.entries(ACTION_LABELS).map(([action, label]) => [label as string, action as Action]));

/** `customer|action` of an email (subject "[service] <band> risk (<score>): <Action label> for <customer>[, <revenue>]"). ASCII ids without commas only. */
export function mailKey(mail: ReceivedMail): string {
  const match = /: (.+) for ([^\s,]+)(?:, \$[\d,.]+\/mo)?$/.exec(mail.subject.trim());
  const action = match === null ? undefined : ACTION_BY_LABEL.get(match[1]!);
  if (match === null || action === undefined) throw new Error(`unreadable email alert: ${mail.subject}`);
  return `${match[2]}|${action}`;
}

/** Counts of each key. */
export function countKeys(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}
