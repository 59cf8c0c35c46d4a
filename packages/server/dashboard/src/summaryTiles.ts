/** The summary tiles: revenue at risk, subscribers per band and per state, alerts today, webhooks. */
import { RISK_BANDS } from '@tenure/core';
import { api, environmentQuery } from './api.js';
import { bandChip, byId, h, usd, words } from './dom.js';
import type { Summary } from './types.js';

const count = (label: Node | string, value: number, key: string) => h('li', { 'data-key': key }, label, h('b', {}, value));

/** Reads /api/dashboard/summary, fills the tiles and resolves with the service clock's now (epoch ms). */
export async function loadSummary(): Promise<number> {
  const s = await api<Summary>(`api/dashboard/summary${environmentQuery()}`);
  byId('revenue-at-risk').textContent = `${usd(s.at_risk.monthly_value_usd)}/mo`;
  byId('revenue-at-risk-note').textContent = `${s.at_risk.subscribers} of ${s.subscribers} subscribers score ${s.at_risk.min_score} or more`;
  byId('by-band').replaceChildren(...RISK_BANDS.map((band) => count(bandChip(band), s.by_band[band] ?? 0, band)));
  byId('by-state').replaceChildren(
    ...Object.entries(s.by_state)
      .filter(([, n]) => n > 0)
      .map(([state, n]) => count(words(state), n, state)),
  );
  if (byId('by-state').childElementCount === 0) byId('by-state').append(h('li', { class: 'muted' }, 'No subscribers yet'));
  const a = s.alerts_today;
  byId('alerts-today').replaceChildren(count('email', a.email, 'email'), count('chat', a.chat, 'chat'), count('webhook', a.webhook, 'webhook'), count('log only', a.log, 'log'));
  const w = s.webhooks_last_hour;
  byId('webhooks').replaceChildren(count('received', w.received, 'received'), count('rejected', w.rejected, 'rejected'));
  return s.now;
}
