/** The DOM helpers both services' pages build with (no framework: a page is a few tables and forms). */

type Child = Node | string | number | null | undefined | false;

/**
 * Given a tag, attributes (`class`, `data-*`, aria…; `true` for a bare attribute, `false` or
 * undefined left out) and children, returns a new element.
 *
 * @example
 * h('button', { type: 'button', 'data-action': 'cancel' }, 'Cancel');
 */
export function h(tag: string, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'number' ? String(c) : c);
  return el;
}

/**
 * Returns the element with that id (the page's markup guarantees it).
 *
 * @example
 * byId<HTMLInputElement>('key-input').value;
 */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/**
 * Given an epoch-ms time, returns it as a short UTC date and time, or "–".
 *
 * @example
 * when(0); // '1970-01-01 00:00 UTC'
 */
export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/**
 * Given snake-case words, returns them as text: `billing_issue` → "billing issue".
 *
 * @example
 * words('in_grace_period'); // 'in grace period'
 */
export const words = (s: string): string => s.replace(/_/g, ' ');
