/**
 * The apps of every project and their public API keys. Every project has the simulator's app (its
 * store's type, `app_id`) and, when that store is not the Test Store, a Test Store app too
 * (`<app_id>_test`), as every RevenueCat project has one. A public key is derived from the project
 * and the app (`test_` + 24 hex digits for the Test Store), so it is the same in every run and needs
 * no state; public keys are not secrets (apps ship them).
 */
import { createHash } from 'node:crypto';
import type { EventSettings } from '../machine/world.js';

/** One app of a project: its id, App `type`, the webhook store of its purchases and its keys' prefix. */
export interface SimApp {
  id: string;
  type: string;
  store: string;
  key_prefix: string;
}

/** Each store's App `type` and public key prefix (the billing service's: `appl_`, `goog_`, `rcb_`, `test_`…). */
const STORE_APPS: Record<string, { type: string; prefix: string }> = {
  APP_STORE: { type: 'app_store', prefix: 'appl_' },
  MAC_APP_STORE: { type: 'mac_app_store', prefix: 'appl_' },
  PLAY_STORE: { type: 'play_store', prefix: 'goog_' },
  AMAZON: { type: 'amazon', prefix: 'amzn_' },
  STRIPE: { type: 'stripe', prefix: 'strp_' },
  RC_BILLING: { type: 'rc_billing', prefix: 'rcb_' },
  ROKU: { type: 'roku', prefix: 'roku_' },
  PADDLE: { type: 'paddle', prefix: 'pdl_' },
  TEST_STORE: { type: 'test_store', prefix: 'test_' },
};

/** The prefixes of public API keys (anything else is read as a secret key in development mode). */
export const PUBLIC_KEY_PREFIXES: readonly string[] = [...new Set(Object.values(STORE_APPS).map((a) => a.prefix))];

/**
 * Given the simulator's settings, returns the apps every project has: the simulator's, then a Test
 * Store app when the simulator's store is another.
 *
 * @example
 * appsOf(settings).map((a) => a.type); // ['test_store']
 */
export function appsOf(settings: Pick<EventSettings, 'app_id' | 'store'>): SimApp[] {
  const own = STORE_APPS[settings.store] ?? STORE_APPS['TEST_STORE']!;
  const apps: SimApp[] = [{ id: settings.app_id, type: own.type, store: settings.store, key_prefix: own.prefix }];
  if (settings.store !== 'TEST_STORE') apps.push({ id: `${settings.app_id}_test`, type: 'test_store', store: 'TEST_STORE', key_prefix: 'test_' });
  return apps;
}

const keys = new Map<string, string>();

/**
 * Given a project id and one of its apps, returns the app's public API key.
 *
 * @example
 * publicKeyOf('proj_sim', appsOf(settings)[0]!); // 'test_' + 24 hex digits
 */
export function publicKeyOf(projectId: string, app: SimApp): string {
  const id = `${projectId}\u0000${app.id}\u0000${app.key_prefix}`;
  let key = keys.get(id);
  if (key === undefined) {
    key = `${app.key_prefix}${createHash('sha256').update(`tenure-billing-sim\u0000${id}`).digest('hex').slice(0, 24)}`;
    if (keys.size < 10_000) keys.set(id, key);
  }
  return key;
}
