/** Reading a running service's subscribers and at-risk list back over HTTP, to compare with a fold. */
import { selectAtRisk, type Subscriber, type TenureConfig } from '@tenure/core';

/** The record fields GET /api/subscribers/:id shows (everything but the internal ordering keys). */
const RECORD_FIELDS = [
  'customer_id',
  'state',
  'product_id',
  'period_ends_at',
  'billing_failures',
  'renewals',
  'trial_started_at',
  'trial_ends_at',
  'trial_converted_at',
  'last_activity_at',
  'first_event_at',
  'last_event_at',
  'event_count',
] as const satisfies readonly (keyof Subscriber)[];

export type RecordView = Pick<Subscriber, (typeof RECORD_FIELDS)[number]>;

/** Given a subscriber, returns the fields of it the API shows. */
export function recordView(subscriber: Subscriber): RecordView {
  return Object.fromEntries(RECORD_FIELDS.map((f) => [f, subscriber[f]])) as RecordView;
}

/** GET /api/subscribers/:id → its record fields, or undefined on 404 (throws on anything else). */
export async function readSubscriber(url: string, customerId: string): Promise<RecordView | undefined> {
  const res = await fetch(`${url}/api/subscribers/${encodeURIComponent(customerId)}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET subscriber ${customerId}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Record<string, unknown>;
  return Object.fromEntries(RECORD_FIELDS.map((f) => [f, body[f]])) as RecordView;
}

/** Reads every listed customer (8 requests at a time); returns id → record view or undefined. */
export async function readSubscribers(url: string, customerIds: Iterable<string>): Promise<Map<string, RecordView | undefined>> {
  const ids = [...customerIds];
  const out = new Map<string, RecordView | undefined>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        out.set(id, await readSubscriber(url, id));
      }
    }),
  );
  return out;
}

/** One item of GET /api/at-risk, reduced to what the comparison needs. */
export interface AtRiskLine {
  customer_id: string;
  risk_score: number;
  action: string | null;
}

/** Follows `next_cursor` through GET /api/at-risk?min_score=… (500 per page) and returns every item in order. */
export async function readAtRisk(url: string, minScore: number): Promise<AtRiskLine[]> {
  const items: AtRiskLine[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const query = new URLSearchParams({ min_score: String(minScore), limit: '500', ...(cursor === null ? {} : { cursor }) });
    const res = await fetch(`${url}/api/at-risk?${query}`);
    if (res.status !== 200) throw new Error(`GET at-risk: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { items: { customer_id: string; risk_score: number; top_recommendation: { action: string } | null }[]; next_cursor: string | null };
    for (const i of body.items) items.push({ customer_id: i.customer_id, risk_score: i.risk_score, action: i.top_recommendation?.action ?? null });
    cursor = body.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error('GET at-risk: more than 1000 pages');
}

/** What GET /api/at-risk must list at `now`: the core's full-scan reference over the expected subscribers. */
export function expectedAtRisk(subscribers: Iterable<Subscriber>, now: number, config: TenureConfig, minScore: number): AtRiskLine[] {
  const { items } = selectAtRisk(subscribers, now, config, { min_score: minScore, limit: Number.MAX_SAFE_INTEGER });
  return items.map((a) => ({ customer_id: a.subscriber.customer_id, risk_score: a.risk.score, action: a.recommendations[0]?.action ?? null }));
}
