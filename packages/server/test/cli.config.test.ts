// `tenure serve --config FILE` (and TENURE_CONFIG): a bad file stops the start with code 2 and
// every problem listed, before anything opens; a good one is what GET /api/config answers, with
// the cooldown flag winning over the file.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DAY_MS, configFingerprint, resolveConfig } from '@tenure/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { runDataCommand } from '../src/cli/dataCommands.js';
import { captureCli } from './helpers/cliCapture.js';
import { fixture, T0 } from './helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-cli-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
};
const probabilities = Array.from({ length: 101 }, (_, s) => (s >= 80 ? 0.6 : s >= 60 ? 0.3 : 0.04));
const calibration = { horizon_ms: 30 * DAY_MS, samples: 2400, positives: 310, probabilities, window: { from: T0 - 200 * DAY_MS, to: T0 - 40 * DAY_MS } };

/** Runs `serve` expecting a refused configuration; returns stderr's lines. */
async function refused(args: string[], env: Record<string, string> = {}) {
  const c = captureCli();
  const db = join(dir, `never-${Math.random().toString(36).slice(2)}.db`);
  const result = await runCli(['serve', '--port', '0', '--store', `sqlite:${db}`, ...args], env, c.io);
  expect(result.code).toBe(2);
  expect(result.running).toBeUndefined();
  expect(existsSync(db)).toBe(false); // nothing was opened
  expect(c.logs).toEqual([]);
  const stderr = c.err.join('');
  expect(stderr).toMatch(/Nothing was started\. The format: docs\/backtesting\.md, "The configuration file"\.\n$/);
  return stderr.split('\n');
}

describe('tenure serve --config with a bad file: exit 2, every problem listed, nothing started', () => {
  it('a file that is not JSON', async () => {
    const path = write('broken.json', '{ "bands": { "critical": 90, } }');
    const lines = await refused(['--config', path]);
    expect(lines[0]).toBe(`tenure serve: the configuration file ${path} has 1 problem:`);
    expect(lines[1]).toMatch(/^ {2}file: not JSON: /);
  });

  it('a file that cannot be read: missing, or a directory', async () => {
    const missing = join(dir, 'missing.json');
    expect((await refused(['--config', missing]))[1]).toMatch(/^ {2}file: cannot read it: ENOENT/);
    const directory = join(dir, 'a-directory');
    mkdirSync(directory);
    expect((await refused(['--config', directory]))[1]).toMatch(/^ {2}file: cannot read it: EISDIR/);
  });

  it('unknown keys, wrong types, bands out of order, a calibration neither monotone nor within [0, 1]: all of them', async () => {
    const bumpy = probabilities.map((p, s) => (s === 70 ? 0.1 : s === 100 ? 1.2 : p));
    const path = write('many.json', {
      risk: { billing_failure_points: 'ten', state_base: { churned: 100.5 } },
      bands: { high: 85 },
      recommend: { winback_aboev: 80 },
      dispatch: { cooldown_hours: { soon: { email: -1 } } },
      calibration: { ...calibration, probabilities: bumpy },
      colour: 'blue',
    });
    const lines = await refused([], { TENURE_CONFIG: path }); // the variable works as the flag does
    expect(lines[0]).toBe(`tenure serve: the configuration file ${path} has 8 problems:`);
    expect(lines.slice(1, 9).map((l) => l.trim().split(':')[0]).sort()).toEqual(
      [
        'bands.high',
        'calibration.probabilities.100',
        'calibration.probabilities.70',
        'colour',
        'dispatch.cooldown_hours.soon.email',
        'recommend.winback_aboev',
        'risk.billing_failure_points',
        'risk.state_base.churned',
      ].sort(),
    );
    expect(lines).toContain('  colour: unknown key');
    expect(lines.find((l) => l.startsWith('  bands.high:'))).toContain('critical 80 is not above high 85');
    expect(lines.find((l) => l.startsWith('  calibration.probabilities.70:'))).toContain('must not decrease');
  });
});

describe('tenure serve --config with a good file', () => {
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const c = captureCli();
    const { code, running } = await runCli(['serve', '--port', '0', '--store', 'memory', '--clock', new Date(T0 + DAY_MS).toISOString(), ...args], env, c.io);
    expect(code).toBe(0);
    const get = async (path: string) => (await (await fetch(running!.url + path)).json()) as any;
    const post = (path: string, body: unknown) => fetch(running!.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { c, running: running!, get, post };
  };

  it('serves its rules, cooldowns and calibration: GET /api/config, the at-risk list, the startup line', async () => {
    const path = write('good.json', { bands: { critical: 95 }, dispatch: { cooldown_hours: { default: 12, soon: { email: 72 } } }, calibration });
    const s = await start(['--config', path]);
    try {
      const config = await s.get('/api/config');
      expect(config).toMatchObject({ source: path, hash: expect.stringMatching(/^sha256:/), calibration: { horizon_ms: 30 * DAY_MS, window: calibration.window, samples: 2400, positives: 310 } });
      expect(config.config.bands).toEqual({ critical: 95, high: 60, medium: 40 });
      expect(config.config.dispatch.cooldown_hours).toEqual({ immediate: { email: 12, chat: 12 }, soon: { email: 72 }, monitor: { log: 12 } });
      expect(s.c.logs.find((l) => typeof l['url'] === 'string')).toMatchObject({ config: { source: path, hash: config.hash, calibrated: true } });
      expect((await s.post('/webhook', fixture('initial_purchase', { app_user_id: 'u', id: 'u1' }))).status).toBe(200);
      expect((await s.post('/webhook', fixture('expiration', { app_user_id: 'u', id: 'u2', event_timestamp_ms: T0 + 1 }))).status).toBe(200);
      const [item] = (await s.get('/api/at-risk')).items;
      expect(item).toMatchObject({ customer_id: 'u', risk_score: 100, risk_band: 'critical', churn_probability: 0.6 });
    } finally {
      await s.running.close();
    }
  });

  it('lets --alert-cooldown-hours (and ALERT_COOLDOWN_HOURS) replace every cooldown of the file, with a warning', async () => {
    const path = write('cooldowns.json', { dispatch: { cooldown_hours: { soon: { email: 72 } } } });
    for (const [args, env] of [[['--alert-cooldown-hours', '6'], {}], [[], { ALERT_COOLDOWN_HOURS: '6' }]] as const) {
      const s = await start(['--config', path, ...args], env);
      try {
        expect((await s.get('/api/config')).config.dispatch.cooldown_hours).toEqual({ immediate: { email: 6, chat: 6 }, soon: { email: 6 }, monitor: { log: 6 } });
        expect(s.c.logs.find((l) => l['level'] === 40)?.['msg']).toBe(`--alert-cooldown-hours / ALERT_COOLDOWN_HOURS (6 h) replaces every cooldown of ${path}`);
      } finally {
        await s.running.close();
      }
    }
    const without = await start(['--config', path]);
    try {
      expect((await without.get('/api/config')).config.dispatch.cooldown_hours.soon.email).toBe(72);
      expect((await without.get('/api/config')).config.dispatch.cooldown_hours.immediate.email).toBe(24);
    } finally {
      await without.running.close();
    }
  });

  it('runs the defaults without a file: source "default", no calibration, no churn_probability', async () => {
    const s = await start([]);
    try {
      expect(await s.get('/api/config')).toMatchObject({ source: 'default', calibration: null });
    } finally {
      await s.running.close();
    }
  });
});

describe('tenure replay and import with the configuration file', () => {
  it('refuse a bad file before opening the store, every problem listed', async () => {
    const path = write('bad-rules.json', { bands: { medium: 70 }, risk: { nope: 1 } });
    const db = join(dir, 'never-replayed.db');
    for (const [command, args] of [['replay', []], ['import', ['-']]] as const) {
      const c = captureCli();
      expect((await runDataCommand(command, ['--store', `sqlite:${db}`, '--config', path, ...args], {}, { ...c.io, progressTty: false })).code).toBe(2);
      const lines = c.err.join('').split('\n');
      expect(lines[0]).toBe(`tenure ${command}: the configuration file ${path} has 2 problems:`);
      expect(lines.slice(1, 3).sort()).toEqual(['  bands.medium: bands must be ordered critical > high > medium: high 60 is not above medium 70', '  risk.nope: unknown key']);
      expect(lines[3]).toMatch(/^Nothing was started/);
    }
    expect(existsSync(db)).toBe(false);
  });

  it('replay scores with the rules the service runs: a service started after with the same file rescores nothing', async () => {
    const rules = { risk: { state_base: { active: 35 } }, bands: { high: 50 } };
    const path = write('replay-rules.json', rules);
    const db = join(dir, 'replayed.db');
    const first = captureCli();
    const serve = await runCli(['serve', '--port', '0', '--store', `sqlite:${db}`, '--config', path], {}, first.io);
    expect(first.err).toEqual([]);
    await fetch(`${serve.running!.url}/webhook`, { method: 'POST', body: JSON.stringify(fixture('initial_purchase', { app_user_id: 'r', id: 'r1' })) });
    await serve.running!.close();

    const c = captureCli();
    expect((await runDataCommand('replay', ['--store', `sqlite:${db}`], { TENURE_CONFIG: path }, { ...c.io, progressTty: false })).code).toBe(0);
    const meta = new Database(db, { readonly: true });
    expect((meta.prepare("SELECT value FROM meta WHERE key = 'config_fingerprint'").get() as { value: string }).value).toBe(configFingerprint(resolveConfig(rules)));
    meta.close();

    const again = captureCli();
    const restarted = await runCli(['serve', '--port', '0', '--store', `sqlite:${db}`, '--config', path], {}, again.io);
    try {
      expect(again.logs.find((l) => l['environment'] === 'production' && 'rescored' in l)).toMatchObject({ rescored: 0 });
    } finally {
      await restarted.running!.close();
    }
  });
});
