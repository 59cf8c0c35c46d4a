/**
 * Before `tenure serve` accepts traffic: the stores' at-risk rows brought to the configuration's
 * rules (`ensureConfig`), with the progress and the count in the log. Rows scored under other
 * rules (another config file, another version's defaults) are rescored once; rows already scored
 * under these rules are left alone.
 */
import type { ProgressListener, SubscriberStore } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { storeContext } from '../store/storeContext.js';

/** Progress lines at most this often while rescoring. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Given the runtime, brings the production and the sandbox store to the configuration's rules and
 * logs, per store, either that nothing needed rescoring or how many subscribers were rescored and
 * how long it took (with progress lines at most once a second meanwhile). Rejects with the store's
 * error (the start then fails).
 *
 * @example
 * await rescoreOnStart(listener.runtime); // before server.listen
 */
export async function rescoreOnStart(rt: Pick<RetentionRuntime, 'store' | 'sandboxStore' | 'clock' | 'config' | 'logger' | 'serviceConfig'>): Promise<void> {
  const stores: [string, SubscriberStore][] = [
    ['production', rt.store],
    ['sandbox', rt.sandboxStore],
  ];
  const { source, hash } = rt.serviceConfig;
  for (const [environment, store] of stores) {
    const started = performance.now();
    let logged = started;
    const progress: ProgressListener = (done, total) => {
      const now = performance.now();
      if (now - logged < PROGRESS_EVERY_MS) return;
      logged = now;
      rt.logger.info({ environment, done, total }, `rescoring the ${environment} at-risk rows for the configuration: ${done} of ${total}`);
    };
    const check = await store.ensureConfig(storeContext(rt), progress);
    const fields = { environment, config_source: source, config_hash: hash };
    if (!check.changed) {
      rt.logger.info({ ...fields, rescored: 0 }, `${environment} at-risk rows were scored with these rules: no rescore`);
    } else if (check.rescored === 0) {
      rt.logger.info({ ...fields, rescored: 0 }, `${environment} at-risk rows now follow these rules: no stored subscribers to rescore`);
    } else {
      const ms = Math.round(performance.now() - started);
      rt.logger.info({ ...fields, rescored: check.rescored, ms }, `rules changed since the ${environment} at-risk rows were scored: rescored ${check.rescored} subscribers in ${ms} ms`);
    }
  }
}
