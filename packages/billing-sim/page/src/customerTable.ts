/**
 * Customers with their subscriptions, states and balances per currency (`GET /sim/customers` and
 * `GET /sim/customers/{id}`), and each subscription's lifecycle buttons: cancel and refund through
 * API v2 (`POST /v2/projects/{project}/subscriptions/{id}/actions/cancel|refund`, what a backend
 * calls), billing issue and recovery through `/sim` (what only the store can do).
 */
import { byId, h, when, words } from '@tenure/http-edge/page';
import { post, seg, simApi } from './api.js';
import type { Customer, Emitted, List, Subscription } from './types.js';

type Act = (label: string, run: () => Promise<Emitted>) => void;

/** At most this many customers are read per refresh (one request each): the newest. */
export const SHOWN_CUSTOMERS = 50;

/** Given a project, reads its customers' ids and the newest ones' views. */
export async function loadCustomers(project: string): Promise<{ ids: string[]; customers: Customer[] }> {
  const list = await simApi<List<{ id: string }>>(`sim/customers?project_id=${seg(project)}`);
  const ids = list.items.map((c) => c.id);
  const customers = await Promise.all(ids.slice(-SHOWN_CUSTOMERS).reverse().map((id) => simApi<Customer>(`sim/customers/${seg(id)}?project_id=${seg(project)}`)));
  return { ids, customers };
}

const LIVE = new Set(['active', 'trialing', 'grace']);

function actions(act: Act, project: string, customer: string, s: Subscription): HTMLElement {
  const v2 = `v2/projects/${seg(project)}/subscriptions/${seg(s.id)}/actions`;
  const sim = `sim/subscriptions/${seg(s.id)}`;
  const button = (action: string, label: string, enabled: boolean, run: () => Promise<Emitted>) => {
    const b = h('button', { type: 'button', class: 'quiet', 'data-action': action, 'aria-label': `${label}: ${s.product_id} of ${customer}`, disabled: !enabled }, label);
    b.addEventListener('click', () => act(`${label}: ${s.product_id} of ${customer}`, run));
    return b;
  };
  return h(
    'div',
    { class: 'buttons' },
    button('cancel', 'Cancel', LIVE.has(s.status) && s.auto_renew, () => post(`${v2}/cancel`)),
    button('billing_issue', 'Billing issue', s.status === 'active' || s.status === 'trialing', () => post(`${sim}/billing_issue`, { grace_period: 'P3D' })),
    button('recover', 'Recover', s.status === 'grace', () => post(`${sim}/recover`)),
    button('refund', 'Refund', LIVE.has(s.status), () => post(`${v2}/refund`)),
  );
}

const stateLabel = (s: Subscription): string => {
  const base = s.status === 'grace' ? 'in grace period' : words(s.status);
  return s.auto_renew || s.status === 'expired' ? base : `${base}, cancelled`;
};

/** Given the customers (newest first) and their total, renders one row per subscription. */
export function renderCustomers(act: Act, project: string, customers: Customer[], total: number): void {
  const rows: HTMLElement[] = [];
  for (const c of customers) {
    const balances = c.virtual_currencies.length === 0 ? '–' : c.virtual_currencies.map((b) => `${b.balance} ${b.currency_code}`).join(', ');
    const subs: (Subscription | null)[] = c.subscriptions.length > 0 ? c.subscriptions : [null];
    subs.forEach((s, i) => {
      const cells: HTMLElement[] = [];
      if (i === 0) cells.push(h('th', { scope: 'row', rowspan: subs.length }, c.id));
      if (s === null) cells.push(h('td', { colspan: 3, class: 'muted' }, c.purchases.length > 0 ? `${c.purchases.length} one-time purchase(s)` : 'no subscription'));
      else
        cells.push(
          h('td', {}, s.product_id, h('br'), h('span', { class: 'muted small' }, s.id)),
          h('td', {}, h('span', { class: `state state-${s.status === 'grace' ? 'in_grace_period' : s.status}`, 'data-status': s.status }, stateLabel(s)), h('br'), h('span', { class: 'muted small' }, `renewal #${s.renewal_number}`)),
          h('td', {}, when(s.grace_period_expires_at ?? s.current_period_ends_at)),
        );
      if (i === 0) cells.push(h('td', { rowspan: subs.length, 'data-balances': '' }, balances));
      cells.push(h('td', {}, s === null ? '' : actions(act, project, c.id, s)));
      rows.push(h('tr', { 'data-customer': c.id, ...(s === null ? {} : { 'data-subscription': s.id, 'data-status': s.status, 'data-renewal': s.renewal_number }) }, ...cells));
    });
  }
  byId('customer-rows').replaceChildren(...(rows.length > 0 ? rows : [h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No customers yet: a purchase creates one.'))]));
  byId('customers-note').textContent = total > customers.length ? `The newest ${customers.length} of ${total} customers.` : `${total} customer${total === 1 ? '' : 's'}.`;
}
