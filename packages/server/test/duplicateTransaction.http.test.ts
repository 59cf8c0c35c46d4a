// A purchase, renewal, one-time purchase or billing issue repeated under another customer than the
// one holding its transaction (same type, store and transaction id) is answered duplicate, as
// before, but logged at warn with both customer ids and counted on /metrics; one customer's
// redelivery stays quiet, and another store's transaction with the same id is a new one.
import { Writable } from 'node:stream';
import { parsePrometheusText, sampleValue } from '@tenure/testkit';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySubscriberStore, createRetentionFetchHandler, fixedClock } from '../src/index.js';
import { T0, fixture } from './helpers/fixtures.js';
import { startTestServer, type Mode, type TestServer } from './helpers/testServer.js';

const ELSEWHERE = 'tenure_duplicate_transactions_other_customer_total';

/** A purchase of `customer` alone (no aliases shared with another), of transaction `txn` in `store`. */
const buy = (customer: string, id: string, txn: string, extra: Record<string, unknown> = {}) =>
  fixture('initial_purchase', { id, app_user_id: customer, original_app_user_id: customer, aliases: [customer], transaction_id: txn, ...extra });

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

describe.each<Mode>(['listener', 'express'])('a transaction repeated under another customer (%s)', (mode) => {
  let app: TestServer;
  afterEach(() => app.close());

  it('is a duplicate, logged at warn with both customers, the event id and the key, and counted; one customer\u2019s repeat is quiet', async () => {
    const { lines, logger } = capture();
    app = await startTestServer({ logger }, mode);
    const warnings = () => lines.filter((l) => l['level'] === 40 && l['msg'] !== undefined && String(l['msg']).startsWith('duplicate transaction'));

    expect((await app.webhook(buy('ada', 'rc-1', 'tx-1'))).body).toEqual({ ok: true, result: 'applied' });
    expect((await app.webhook(buy('ada', 'export:tx-1:INITIAL_PURCHASE', 'tx-1'))).body).toEqual({ ok: true, result: 'duplicate' });
    expect((await app.webhook(buy('ada', 'rc-1', 'tx-1'))).body).toEqual({ ok: true, result: 'duplicate' });
    expect(warnings()).toEqual([]);

    expect((await app.webhook(buy('bob', 'rc-2', 'tx-1'))).body).toEqual({ ok: true, result: 'duplicate' });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ event_id: 'rc-2', occurrence: 'INITIAL_PURCHASE:APP_STORE:tx-1', customer_id: 'bob', held_by: 'ada', environment: 'production' });
    expect(await app.store.get('bob')).toBeUndefined(); // dropped, as before: the stored event is ada's

    // The same transaction id in another store is another transaction: bob's, applied.
    expect((await app.webhook(buy('bob', 'rc-3', 'tx-1', { store: 'PLAY_STORE' }))).body).toEqual({ ok: true, result: 'applied' });
    expect((await app.store.get('bob'))?.customer_id).toBe('bob');
    // A sandbox repeat is counted under its own label.
    expect((await app.webhook(buy('cy', 'sb-1', 'tx-9', { environment: 'SANDBOX' }))).body).toEqual({ ok: true, result: 'applied' });
    expect((await app.webhook(buy('dee', 'sb-2', 'tx-9', { environment: 'SANDBOX' }))).body).toEqual({ ok: true, result: 'duplicate' });
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatchObject({ event_id: 'sb-2', customer_id: 'dee', held_by: 'cy', environment: 'sandbox' });

    const res = await fetch(`${app.url}/metrics`);
    const m = parsePrometheusText(await res.text());
    expect(m.get(ELSEWHERE)?.type).toBe('counter');
    expect(sampleValue(m, ELSEWHERE, { environment: 'production' })).toBe(1);
    expect(sampleValue(m, ELSEWHERE, { environment: 'sandbox' })).toBe(1);
    expect(sampleValue(m, 'tenure_webhooks_received_total', { type: 'INITIAL_PURCHASE', outcome: 'duplicate' })).toBe(4);
  });
});

describe('a transaction repeated under another customer (fetch handler)', () => {
  it('is a duplicate, logged at warn and counted, as on the node:http and Express bindings', async () => {
    const { lines, logger } = capture();
    const store = createMemorySubscriberStore();
    const tenure = createRetentionFetchHandler({ store, clock: fixedClock(T0), logger, sweepIntervalMs: 3_600_000 });
    try {
      const post = async (body: unknown) => (await tenure(new Request('http://tenure.test/webhook', { method: 'POST', body: JSON.stringify(body) }))).json();
      expect(await post(buy('ada', 'rc-1', 'tx-1'))).toEqual({ ok: true, result: 'applied' });
      expect(await post(buy('ada', 'rc-1b', 'tx-1'))).toEqual({ ok: true, result: 'duplicate' });
      expect(await post(buy('bob', 'rc-2', 'tx-1'))).toEqual({ ok: true, result: 'duplicate' });
      expect(lines.filter((l) => l['level'] === 40 && String(l['msg']).startsWith('duplicate transaction'))).toMatchObject([{ event_id: 'rc-2', customer_id: 'bob', held_by: 'ada' }]);
    } finally {
      await tenure.close();
    }
  });
});
