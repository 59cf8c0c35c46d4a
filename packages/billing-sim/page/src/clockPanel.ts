/** The virtual clock: its time, the next jobs it will run, and the buttons that move it (`POST /sim/clock/advance`). */
import { byId, h, when, words } from '@tenure/http-edge/page';
import { post } from './api.js';
import type { Clock, Emitted } from './types.js';

/** Given the clock, shows its time and its next five jobs. */
export function renderClock(clock: Clock): void {
  const now = byId('clock-now');
  now.textContent = when(clock.now);
  now.setAttribute('datetime', clock.now_iso);
  now.dataset['now'] = String(clock.now);
  const jobs = clock.pending_jobs.slice(0, 5).map((job) => h('li', {}, `${when(job.at)}: ${words(job.kind)} of ${job.customer_id}`));
  byId('jobs').replaceChildren(...(jobs.length > 0 ? jobs : [h('li', { class: 'muted' }, 'Nothing scheduled.')]));
}

/** Wires the advance buttons: each runs `act` with a POST of its duration (`PT1H`, `P1D`, `P7D`, `P1M`). */
export function wireClock(act: (label: string, run: () => Promise<Emitted>) => void): void {
  for (const button of byId('clock').querySelectorAll<HTMLButtonElement>('button[data-advance]')) {
    const by = button.dataset['advance']!;
    button.addEventListener('click', () => act(`Advanced ${button.textContent?.replace('+', '') ?? by}`, () => post('sim/clock/advance', { by })));
  }
}
