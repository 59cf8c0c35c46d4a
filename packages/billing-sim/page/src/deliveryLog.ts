/**
 * The webhook delivery log (`GET /sim/webhooks/deliveries`), newest first, with each delivery's
 * state, attempts and retries, a redeliver button (`POST /sim/webhooks/deliveries/{id}/redeliver`),
 * and the fault switches (`GET` / `POST /sim/webhook` with `faults`).
 */
import { byId, h, when } from '@tenure/http-edge/page';
import { post, seg } from './api.js';
import type { Delivery, Emitted, FaultName, WebhookConfig } from './types.js';

type Act = (label: string, run: () => Promise<Emitted>) => void;

/** How many deliveries the table shows (the newest; the route answers the whole log). */
export const SHOWN_DELIVERIES = 50;

const FAULT_INPUTS: Record<FaultName, string> = { duplicate_rate: 'f-duplicate', reorder_rate: 'f-reorder', delay_rate: 'f-delay', drop_rate: 'f-drop' };

function lastAnswer(d: Delivery): string {
  const last = d.attempts.at(-1);
  if (last === undefined) return '–';
  return last.status === null ? (last.error ?? 'no answer') : `HTTP ${last.status}`;
}

/** Given the log's newest deliveries (oldest first) and its length, renders them newest first. */
export function renderDeliveries(act: Act, newest: Delivery[], total: number): void {
  const rows = [...newest].reverse().map((d) => {
    const redeliver = h('button', { type: 'button', class: 'quiet', 'aria-label': `Redeliver ${d.event_type} ${d.event_id}` }, 'Redeliver');
    redeliver.addEventListener('click', () => act(`Redelivered ${d.event_type}`, () => post(`sim/webhooks/deliveries/${seg(d.event_id)}/redeliver`)));
    const retries = Math.max(0, d.attempts.filter((a) => a.kind !== 'duplicate').length - 1);
    return h(
      'tr',
      { 'data-event': d.event_id, 'data-type': d.event_type, 'data-state': d.state },
      h('td', {}, d.event_type, d.faults.length > 0 ? h('span', { class: 'muted small' }, ` (${d.faults.join(', ')})`) : null),
      h('td', {}, d.body.event.app_user_id ?? '–'),
      h('td', {}, when(d.event_timestamp_ms)),
      h('td', {}, h('span', { class: `state state-${d.state}` }, d.state)),
      h('td', { class: 'num' }, `${d.attempts.length}${retries > 0 ? ` (${retries} ${retries === 1 ? 'retry' : 'retries'})` : ''}`),
      h('td', {}, lastAnswer(d)),
      h('td', {}, d.next_attempt_at === null ? '–' : when(d.next_attempt_at)),
      h('td', {}, redeliver),
    );
  });
  byId('delivery-rows').replaceChildren(...(rows.length > 0 ? rows : [h('tr', {}, h('td', { colspan: 8, class: 'muted' }, 'No webhook yet.'))]));
  byId('deliveries-note').textContent = total > newest.length ? `The newest ${newest.length} of ${total} deliveries.` : '';
}

/** Given the webhook settings, shows the target and the current fault rates (unless a field is being edited). */
export function renderWebhook(config: WebhookConfig): void {
  byId('webhook-target').textContent = config.url === null ? 'No webhook URL: events are recorded as skipped, not sent.' : `Sent to ${config.url}; retries after ${config.retry_schedule_ms.map((ms) => `${ms} ms`).join(', ')}.`;
  for (const [name, id] of Object.entries(FAULT_INPUTS) as [FaultName, string][]) {
    const input = byId<HTMLInputElement>(id);
    if (document.activeElement !== input) input.value = String(config.faults[name]);
  }
}

/** Wires the fault form and its "all off" button. */
export function wireFaults(act: Act): void {
  const send = (faults: Partial<Record<FaultName, number>>) => act('Fault switches applied', () => post('sim/webhook', { faults }));
  byId<HTMLFormElement>('faults-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const faults: Partial<Record<FaultName, number>> = {};
    for (const [name, id] of Object.entries(FAULT_INPUTS) as [FaultName, string][]) faults[name] = Number(byId<HTMLInputElement>(id).value || 0);
    send(faults);
  });
  byId('faults-off').addEventListener('click', () => send({ duplicate_rate: 0, reorder_rate: 0, delay_rate: 0, drop_rate: 0 }));
}
