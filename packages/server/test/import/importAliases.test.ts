// The data export's rows name a person by its original id and the id the app uses now
// (rc_original_app_user_id, rc_last_seen_app_user_id_alias): the derived events group into one
// subscriber, named by the app's id and found by either, and webhooks after the import join it.
import { Readable } from 'node:stream';
import { DEFAULT_CONFIG, foldByIdentity, parseWebhook, type HandledEvent, type SubscriberStore } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { parseDataArgs } from '../../src/cli/storeData/dataArgs.js';
import { runExportImport } from '../../src/cli/storeData/runExportImport.js';
import { openExportReader } from '../../src/import/readExport.js';
import { createMemorySubscriberStore } from '../../src/store/memorySubscriberStore.js';
import { DAY, T0, fixture } from '../helpers/fixtures.js';
import { exportTime, toCsv, txRow } from './exportCsv.js';

const ANON = '$RCAnonymousID:a1';

async function importRows(store: SubscriberStore, rows: Record<string, string>[]): Promise<number> {
  const parsed = parseDataArgs('import', ['-', '--format', 'revenuecat-export', '--json'], {});
  if (!parsed.ok || parsed.help) throw new Error('args');
  const opened = await openExportReader(Readable.from([Buffer.from(toCsv(rows as never))]));
  if (!opened.ok) throw new Error(opened.error.message);
  const io = { stdout: () => undefined, stderr: () => undefined, handleSignals: false, progressTty: false };
  return runExportImport(store, opened.value, { bytes: null, bytesRead: () => undefined }, parsed.args, io);
}

const events = async (store: SubscriberStore): Promise<HandledEvent[]> => {
  const out: HandledEvent[] = [];
  for await (const r of store.records()) if (r.kind === 'event') out.push(r.event);
  return out;
};

describe('import of the data export: one person under its ids', () => {
  it('groups a customer\u2019s rows under the id the app uses now, found by the original id too; a later webhook joins it', async () => {
    const store = createMemorySubscriberStore();
    const person = { rc_original_app_user_id: ANON, rc_last_seen_app_user_id_alias: 'user_a', original_store_transaction_id: 'ota' };
    const rows = [
      txRow({ ...person, store_transaction_id: 'ta1', start_time: exportTime(T0), end_time: exportTime(T0 + 30 * DAY), effective_end_time: exportTime(T0 + 30 * DAY) }),
      txRow({ ...person, store_transaction_id: 'ta2', renewal_number: '2', start_time: exportTime(T0 + 30 * DAY), end_time: exportTime(T0 + 60 * DAY), effective_end_time: exportTime(T0 + 60 * DAY) }),
      txRow({ rc_original_app_user_id: 'bob', rc_last_seen_app_user_id_alias: 'bob', store_transaction_id: 'tb1', original_store_transaction_id: 'otb' }),
    ];
    expect(await importRows(store, rows)).toBe(0);
    expect(await store.count()).toBe(2);
    const imported = foldByIdentity(await events(store));
    expect([...imported.keys()].sort()).toEqual(['bob', 'user_a']);
    expect(await store.get(ANON)).toEqual(imported.get('user_a'));
    expect((await store.get('user_a'))?.customer_id).toBe('user_a');

    // A webhook after the import, from the app's id with the original id, adds to the same record.
    const parsed = parseWebhook(fixture('renewal', { id: 'wh-1', app_user_id: 'user_a', original_app_user_id: ANON, aliases: [ANON, 'user_a'], event_timestamp_ms: T0 + 60 * DAY, transaction_id: 'ta3' }));
    if (!parsed.ok || !parsed.value.handled) throw new Error('fixture');
    const outcome = await store.applyEvent(parsed.value.event, { now: T0 + 61 * DAY, config: DEFAULT_CONFIG });
    expect(outcome.status).toBe('applied');
    expect(await store.count()).toBe(2);
    expect(outcome.subscriber).toEqual(foldByIdentity(await events(store)).get('user_a'));
    expect(outcome.subscriber?.renewals).toBe((imported.get('user_a')?.renewals ?? 0) + 1);
  });
});
