// The simulator's history as RevenueCat's data export (version 5): one row per transaction, marked
// by what happened to it, and the export subcommand writing it as CSV or gzip.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cliMain.js';
import { EXPORT_V5_COLUMNS, createBillingSimulator, exportCsvLines, exportRows, exportTime } from '../../src/index.js';

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'sim-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function simWithProducts() {
  const sim = createBillingSimulator({
    seed: 'export',
    now: T0,
    environment: 'PRODUCTION',
    products: [
      { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', price: 9.99 },
      { id: 'pack', type: 'consumable', price: 4.99 },
    ],
  });
  const project_id = sim.settings.default_project_id;
  const buy = (customer_id: string, product_id: string, trial = false) => {
    const r = sim.dispatch({ type: 'purchase', project_id, customer_id, product_id, trial, presented_offering_id: null, country_code: null });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  return { sim, project_id, buy };
}

describe('exportRows', () => {
  it('writes one row per transaction: a trial, its conversion, a renewal, each with its marks', () => {
    const { sim, buy } = simWithProducts();
    const bought = buy('u1', 'monthly', true);
    if (bought.kind !== 'subscription') throw new Error('not a subscription');
    sim.advanceBy('P7D'); // conversion
    sim.advanceBy('P1M'); // renewal
    const cancelled = sim.dispatch({ type: 'cancel', subscription_id: bought.subscription_id, reason: 'UNSUBSCRIBE' });
    expect(cancelled.ok).toBe(true);
    const rows = exportRows(sim.events(), sim.world().products);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.product_duration)).toEqual(['P1M', 'P1M', 'P1M']);
    const [trial, conversion, renewal] = rows;
    expect(trial).toMatchObject({
      rc_original_app_user_id: 'u1',
      is_trial_period: 'true',
      renewal_number: '1',
      start_time: exportTime(T0),
      end_time: exportTime(T0 + 7 * DAY),
      is_auto_renewable: 'true',
      is_sandbox: 'false',
      store: 'test_store',
    });
    expect(conversion).toMatchObject({ is_trial_conversion: 'true', renewal_number: '2', start_time: exportTime(T0 + 7 * DAY), original_store_transaction_id: trial?.store_transaction_id });
    expect(renewal).toMatchObject({ renewal_number: '3', unsubscribe_detected_at: exportTime(sim.now()), price_in_usd: '9.99' });
    expect(new Set(rows.map((r) => r.store_transaction_id)).size).toBe(3);
  });

  it('marks a billing issue with its grace end, a refund with its time and a net price of 0, and an expiration as the effective end', () => {
    const { sim, buy } = simWithProducts();
    const a = buy('a', 'monthly');
    const b = buy('b', 'monthly');
    if (a.kind !== 'subscription' || b.kind !== 'subscription') throw new Error('not a subscription');
    sim.dispatch({ type: 'billing_issue', subscription_id: a.subscription_id, grace_ms: 3 * DAY, when: 'next_renewal' });
    sim.advanceBy('P10D');
    sim.dispatch({ type: 'refund', subscription_id: b.subscription_id });
    sim.advanceBy('P1M');
    const rows = exportRows(sim.events());
    const rowA = rows.find((r) => r.rc_original_app_user_id === 'a');
    const rowB = rows.find((r) => r.rc_original_app_user_id === 'b');
    const periodEnd = Date.UTC(2026, 1, 1);
    expect(rowA).toMatchObject({
      billing_issues_detected_at: exportTime(periodEnd),
      grace_period_end_time: exportTime(periodEnd + 3 * DAY),
      effective_end_time: exportTime(periodEnd + 3 * DAY),
    });
    expect(rowB).toMatchObject({ refunded_at: exportTime(T0 + 10 * DAY), effective_end_time: exportTime(T0 + 10 * DAY), price_in_usd: '0', purchase_price_in_usd: '9.99' });
  });

  it('writes a one-time purchase as a row that does not renew', () => {
    const { sim, buy } = simWithProducts();
    buy('u2', 'pack');
    expect(exportRows(sim.events())).toMatchObject([{ is_auto_renewable: 'false', end_time: '', product_identifier: 'pack', price_in_usd: '4.99' }]);
  });

  it('writes a one-time purchase with the store, environment and offering it was bought with', () => {
    const { sim, project_id } = simWithProducts();
    sim.dispatch({ type: 'purchase', project_id, customer_id: 'u3', product_id: 'pack', trial: false, presented_offering_id: 'ofrng_x', country_code: null, environment: 'SANDBOX', store: 'PLAY_STORE' });
    expect(exportRows(sim.events())).toMatchObject([{ store: 'play_store', is_sandbox: 'true', presented_offering: 'ofrng_x' }]);
  });
});

describe('exportCsvLines', () => {
  it('writes the version 5 header and quotes cells with commas or quotes', () => {
    const row = Object.fromEntries(EXPORT_V5_COLUMNS.map((c) => [c, ''])) as Record<(typeof EXPORT_V5_COLUMNS)[number], string>;
    row.entitlement_identifiers = '["pro","team"]';
    const [header, line] = [...exportCsvLines([row])];
    expect(header).toBe(`${EXPORT_V5_COLUMNS.join(',')}\n`);
    expect(line).toContain(',"[""pro"",""team""]",');
  });
});

describe('tenure-billing-sim export', () => {
  const scenario = {
    name: 'one trial',
    steps: [
      { name: 'product', request: { method: 'POST', path: '/sim/products', body: { id: 'monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D' } }, expect: { status: 201 } },
      { name: 'buy', request: { method: 'POST', path: '/sim/purchases', body: { customer_id: 'u1', product_id: 'monthly', trial: true } }, expect: { status: 201 } },
      { name: 'convert', request: { method: 'POST', path: '/sim/clock/advance', body: { by: 'P8D' } }, expect: { status: 200 } },
    ],
  };

  it('replays a scenario and writes its export, gzip for a .gz name', async () => {
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const out = join(dir, 'transactions.csv.gz');
    const lines: string[] = [];
    const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
    expect((await main(['export', file, '--out', out], {}, io)).code).toBe(0);
    expect(lines.join('\n')).toMatch(/^exported 2 transactions to /);
    const text = gunzipSync(readFileSync(out)).toString('utf8').split('\n');
    expect(text[0]).toBe(EXPORT_V5_COLUMNS.join(','));
    expect(text.filter((l) => l !== '')).toHaveLength(3);
  });

  it('needs a scenario file', async () => {
    const lines: string[] = [];
    expect((await main(['export'], {}, { out: (l) => void lines.push(l), err: (l) => void lines.push(l) })).code).toBe(2);
    expect(lines.join('')).toContain('export needs a scenario file');
  });
});
