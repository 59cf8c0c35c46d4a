// `tenure serve --config FILE` with offers: refused (exit 2, nothing started) without the RevenueCat
// key and project or with a bad offer, and granting through the simulator when both are set.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import { captureCli } from '../helpers/cliCapture.js';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';
import { SIM_KEY, startOfferSim } from './offerSim.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-offers-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};
const serve = (args: string[], env: Record<string, string>) => {
  const c = captureCli();
  return { c, result: runCli(['serve', '--port', '0', '--store', 'memory', '--clock', new Date(T0).toISOString(), ...args], env, c.io) };
};

describe('tenure serve with offers in the configuration file', () => {
  it('refuses to start without REVENUECAT_API_KEY and --revenuecat-project, naming both', async () => {
    const file = write('offers.json', { offers: { winback: { entitlement: 'pro', duration: 'P7D' } } });
    const { c, result } = serve(['--config', file], {});
    expect((await result).code).toBe(2);
    expect(c.err.join('')).toContain('configures offers (winback): also set REVENUECAT_API_KEY (a secret API v2 key) and --revenuecat-project (REVENUECAT_PROJECT)');
    const { c: c2, result: r2 } = serve(['--config', file, '--revenuecat-project', 'p1'], {});
    expect((await r2).code).toBe(2);
    expect(c2.err.join('')).toContain('also set REVENUECAT_API_KEY (a secret API v2 key) to grant');
  });

  it('lists every bad offer field and starts nothing', async () => {
    const file = write('bad.json', { offers: { winback: { entitlement: 'pro', duration: 'P1M' }, loyalty_discount: { entitlement: '', duration: 'P7D', auto: 'yes' } } });
    const { c, result } = serve(['--config', file], { REVENUECAT_API_KEY: 'sk', REVENUECAT_PROJECT: 'p' });
    expect((await result).code).toBe(2);
    const err = c.err.join('');
    expect(err).toMatch(/offers\.winback\.duration: .*years and months have no fixed length/);
    expect(err).toContain('offers.loyalty_discount.entitlement');
    expect(err).toContain('offers.loyalty_discount.auto');
  });

  it('grants through the simulator with the key, the project and the base URL from the environment', async () => {
    const sim = await startOfferSim(['ann']);
    try {
      const file = write('good.json', { offers: { winback: { entitlement: sim.pro, duration: 'P7D' } } });
      const { c, result } = serve(['--config', file, '--revenuecat-project', sim.project], { REVENUECAT_API_KEY: SIM_KEY, REVENUECAT_API_BASE_URL: `${sim.running.url}/v2` });
      const { code, running } = await result;
      expect(code).toBe(0);
      // The start line names the offers (never the key).
      const start = c.logs.find((l) => typeof l['url'] === 'string');
      expect(start?.['offers']).toEqual([`winback: ${sim.pro} for P7D`]);
      expect(JSON.stringify(c.logs)).not.toContain(SIM_KEY);
      try {
        const post = (path: string, body: unknown) => fetch(running!.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        for (const [name, id] of [['initial_purchase', 'ann-1'], ['expiration', 'ann-2']] as const) {
          expect((await post('/webhook', fixture(name, { id, app_user_id: 'ann', event_timestamp_ms: T0 - DAY + (name === 'expiration' ? 1 : 0), purchased_at_ms: T0 - DAY, expiration_at_ms: T0 - DAY + 1 }))).status).toBe(200);
        }
        const res = await post('/api/subscribers/ann/offers/winback', {});
        expect(res.status).toBe(200);
        expect(((await res.json()) as any).granted).toMatchObject({ entitlement: sim.pro, expires_at: T0 + 7 * DAY });
        expect(await sim.active('ann')).toHaveLength(1);
      } finally {
        await running!.close();
      }
    } finally {
      await sim.stop();
    }
  });
});
