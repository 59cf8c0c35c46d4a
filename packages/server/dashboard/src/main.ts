/**
 * The retention dashboard's page script: asks for the API key when the service wants one, loads
 * the tiles and the at-risk list, opens a subscriber from `#subscriber/<id>`, and refreshes what is
 * shown when live updates say something changed.
 */
import { SUBSCRIBER_STATES } from '@tenure/core';
import { setUpKeyDialog } from '@tenure/http-edge/page';
import { ApiError, apiKeys, currentEnvironment, setEnvironment } from './api.js';
import { createAtRiskList } from './atRiskList.js';
import { byId, h, words } from './dom.js';
import { startLiveUpdates, type Change } from './liveUpdates.js';
import { loadSubscriber } from './subscriberPanel.js';
import { loadSummary } from './summaryTiles.js';
import { loadTrends } from './trendsCharts.js';

const errorBox = byId('error');
let started = false;

const keyDialog = setUpKeyDialog(
  apiKeys,
  { needed: 'This service needs its API key.', refused: 'That key was refused (401). Check TENURE_API_KEY and try again.' },
  () => void refresh(),
);

/** Shows a failure; a 401 asks for the key (again). */
function showError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) return keyDialog.ask(apiKeys.get() !== null);
  errorBox.hidden = false;
  errorBox.textContent = error instanceof Error ? error.message : String(error);
}

const list = createAtRiskList(showError);

const subscriberId = (): string | null => {
  const match = /^#subscriber\/(.+)$/.exec(location.hash);
  return match === null ? null : decodeURIComponent(match[1]!);
};

async function refresh(): Promise<void> {
  let now: number;
  try {
    now = await loadSummary();
    errorBox.hidden = true;
  } catch (error) {
    return showError(error);
  }
  await list.load();
  void loadTrends(false, now).catch(showError); // not awaited: a first backfill of past days may take seconds
  const id = subscriberId();
  if (id !== null) await loadSubscriber(id, showError).catch(showError);
  if (!started) {
    started = true;
    startLiveUpdates(onChange);
  }
}

let pending: number | undefined;
function onChange(change: Change): void {
  // Coalesce bursts: one refresh per 300 ms at most.
  pending ??= window.setTimeout(() => {
    pending = undefined;
    void refresh();
  }, 300);
  void change;
}

function route(): void {
  const id = subscriberId();
  byId('subscriber').hidden = id === null;
  byId('at-risk').hidden = id !== null;
  if (id === null) return;
  byId('subscriber-body').replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  void loadSubscriber(id, showError)
    .then(() => byId('subscriber').focus())
    .catch(showError);
}

byId<HTMLSelectElement>('f-state').append(...SUBSCRIBER_STATES.map((s) => h('option', { value: s }, words(s))));
byId('back').addEventListener('click', (event) => {
  event.preventDefault();
  location.hash = '';
  byId('at-risk').focus();
});
const environmentSelect = byId<HTMLSelectElement>('environment');
environmentSelect.value = currentEnvironment();
environmentSelect.addEventListener('change', () => {
  setEnvironment(environmentSelect.value);
  location.hash = '';
  void list.reset();
  void refresh();
});
// Sandbox events are not on the live feed (it carries production changes): poll while the sandbox is shown.
window.setInterval(() => {
  if (currentEnvironment() === 'sandbox') void refresh();
}, 10_000);
window.addEventListener('hashchange', route);
route();
void refresh();
