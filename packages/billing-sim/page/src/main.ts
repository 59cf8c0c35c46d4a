/**
 * The billing simulator's control page: asks for the API key when the simulator wants one, shows
 * the clock, the customers, the delivery log and the fault switches, and runs each button through
 * the simulator's own API, then reloads what is shown. It also reloads every 3 s, since deliveries
 * and their retries move on their own.
 */
import { byId, setUpKeyDialog } from '@tenure/http-edge/page';
import { apiKeys, simApi, SimApiError } from './api.js';
import { renderClock, wireClock } from './clockPanel.js';
import { loadCustomers, renderCustomers } from './customerTable.js';
import { renderDeliveries, renderWebhook, SHOWN_DELIVERIES, wireFaults } from './deliveryLog.js';
import { renderPurchaseForms, wirePurchaseForms } from './purchaseForms.js';
import type { Clock, Delivery, Emitted, List, Product, WebhookConfig } from './types.js';

const errorBox = byId('error');
const statusLine = byId('status');
let project = 'proj_sim';

const keyDialog = setUpKeyDialog(
  apiKeys,
  { needed: 'This simulator needs its API key.', refused: 'That key was refused (401). Check BILLING_SIM_API_KEY and try again.' },
  () => void refresh(),
);

// Whose error the page shows: a reload clears its own, never an action's refusal it follows.
let errorFrom: 'load' | 'action' | null = null;

/** Shows a failure; a 401 asks for the key (again). */
function showError(error: unknown, from: 'load' | 'action'): void {
  if (error instanceof SimApiError && error.status === 401) return keyDialog.ask(apiKeys.get() !== null);
  errorFrom = from;
  errorBox.hidden = false;
  errorBox.textContent = error instanceof Error ? error.message : String(error);
}

const shown = new Map<string, string>();
/**
 * Renders a part only when its data changed since it was last shown: the reload every 3 s must not
 * rebuild a table under the pointer (a click between mousedown and mouseup would be lost) or take
 * the keyboard focus away. When a part is rebuilt, focus goes back to the button with the same label.
 */
function show<T>(part: string, data: T, render: (data: T) => void): void {
  const key = JSON.stringify(data);
  if (shown.get(part) === key) return;
  shown.set(part, key);
  const focused = document.activeElement?.getAttribute('aria-label');
  render(data);
  if (focused && document.activeElement === document.body) {
    document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(focused)}"]`)?.focus();
  }
}

let loading: Promise<void> | undefined;
/** Reloads every part; a reload asked for while one runs waits for it rather than racing it. */
function refresh(): Promise<void> {
  loading ??= load().finally(() => (loading = undefined));
  return loading;
}

async function load(): Promise<void> {
  try {
    const projects = await simApi<List<{ id: string }>>('sim/projects');
    project = projects.items[0]?.id ?? project; // the default project comes first
    const [clock, products, customers, log, webhook] = await Promise.all([
      simApi<Clock>('sim/clock'),
      simApi<List<Product>>('sim/products'),
      loadCustomers(project),
      simApi<List<Delivery>>('sim/webhooks/deliveries'),
      simApi<WebhookConfig>('sim/webhook'),
    ]);
    if (errorFrom === 'load') errorBox.hidden = true;
    show('clock', clock, renderClock);
    show('products', { products: products.items, ids: customers.ids }, (d) => renderPurchaseForms(d.products, d.ids));
    show('customers', { project, ...customers }, (d) => renderCustomers(act, d.project, d.customers, d.ids.length));
    show('deliveries', { total: log.items.length, newest: log.items.slice(-SHOWN_DELIVERIES) }, (d) => renderDeliveries(act, d.newest, d.total));
    show('webhook', webhook, renderWebhook);
  } catch (error) {
    showError(error, 'load');
  }
}

/** Runs one action, says what it did (and the webhooks it emitted) in the status line, then reloads. */
function act(label: string, run: () => Promise<Emitted>): void {
  statusLine.textContent = `${label}…`;
  errorBox.hidden = true;
  errorFrom = null;
  void run()
    .then((out) => {
      const events = out.events?.map((e) => e.type) ?? [];
      statusLine.textContent = events.length > 0 ? `${label}: ${events.join(', ')}.` : `${label}.`;
    })
    .catch((error: unknown) => {
      statusLine.textContent = '';
      showError(error, 'action');
    })
    .then(() => refresh());
}

wireClock(act);
wirePurchaseForms(act);
wireFaults(act);
window.setInterval(() => {
  if (document.visibilityState === 'visible' && !byId<HTMLDialogElement>('key-dialog').open) void refresh();
}, 3000);
void refresh();
