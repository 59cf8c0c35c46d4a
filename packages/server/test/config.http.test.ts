// GET /api/config and the churn probability beside every score: what a configuration (rules,
// cooldowns, calibration) looks like from the API, with and without a calibration.
import { DAY_MS, DEFAULT_CONFIG, churnProbability, resolveConfig, resolveConfigFile, validateConfigFile } from '@tenure/core';
import { afterEach, describe, expect, it } from 'vitest';
import { seed } from './helpers/seed.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';
import { stepCalibration } from './helpers/calibration.js';

let app: TestServer;
afterEach(() => app.close());

const calibration = stepCalibration(0.05, 4000, 600);

describe('GET /api/config', () => {
  it('answers the defaults with source "default", a hash and no calibration; behind the API key', async () => {
    app = await startTestServer({ apiKey: 'k' });
    expect((await app.request('GET', '/api/config')).status).toBe(401);
    const res = await app.request('GET', '/api/config', undefined, { authorization: 'Bearer k' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ source: 'default', hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), config: resolveConfigFile({}), calibration: null, alert_webhooks: [] });
    expect(validateConfigFile(res.body.config).ok).toBe(true); // the effective configuration is a configuration file
    expect((await app.request('GET', '/api/config?x=1', undefined, { authorization: 'Bearer k' })).body.error).toMatchObject({ code: 'invalid_request', field: 'x' });
  });

  it('answers the rules, cooldowns and calibration it was given, the provenance apart; the hash follows the content', async () => {
    const options = { configSource: '/etc/tenure.json', config: resolveConfig({ bands: { critical: 90 } }), calibration, dispatch: { cooldownMs: 12 * 3_600_000, cooldownsMs: { soon: { email: 72 * 3_600_000 } } } };
    app = await startTestServer(options);
    const body = (await app.request('GET', '/api/config')).body;
    expect(body.source).toBe('/etc/tenure.json');
    expect(body.config.bands).toEqual({ critical: 90, high: 60, medium: 40 });
    expect(body.config.dispatch.cooldown_hours).toEqual({ immediate: { email: 12, chat: 12 }, soon: { email: 72 }, monitor: { log: 12 } });
    expect(body.config.calibration).toEqual(calibration);
    expect(body.calibration).toEqual({ horizon_ms: 30 * DAY_MS, window: calibration.window, samples: 4000, positives: 600 });
    await app.close();

    app = await startTestServer({ ...options, configSource: 'elsewhere.json' });
    expect((await app.request('GET', '/api/config')).body.hash).toBe(body.hash); // same content, same hash
    await app.close();
    app = await startTestServer({ ...options, dispatch: { ...options.dispatch, cooldownMs: 13 * 3_600_000 } });
    expect((await app.request('GET', '/api/config')).body.hash).not.toBe(body.hash);
  });

  it('names "options" as the source when an embedding app configures without naming one', async () => {
    app = await startTestServer({ config: DEFAULT_CONFIG });
    expect((await app.request('GET', '/api/config')).body.source).toBe('options');
  });
});

describe('churn_probability', () => {
  it('stands beside the score in the subscriber, its recommendations and the at-risk list when a calibration is configured', async () => {
    app = await startTestServer({ calibration });
    await seed(app, 'b', 'billing');
    await seed(app, 'c', 'churned');
    const subscriber = (await app.request('GET', '/api/subscribers/b')).body;
    expect(subscriber.churn_probability).toBe(churnProbability(calibration, subscriber.risk_score));
    expect(Object.keys(subscriber).indexOf('churn_probability')).toBe(Object.keys(subscriber).indexOf('risk_score') + 1);
    const recommend = (await app.request('GET', '/api/subscribers/b/recommend')).body;
    expect(recommend.churn_probability).toBe(subscriber.churn_probability);
    const items = (await app.request('GET', '/api/at-risk')).body.items as { customer_id: string; risk_score: number; churn_probability: number }[];
    expect(items.map((i) => i.customer_id)).toEqual(['c', 'b']);
    for (const item of items) expect(item.churn_probability).toBe(churnProbability(calibration, item.risk_score));
    expect(items[0]!.churn_probability).toBe(0.64); // churned: score 100
  });

  it('is absent everywhere without a calibration: the answers stay as they were', async () => {
    app = await startTestServer();
    await seed(app, 'b', 'billing');
    for (const path of ['/api/subscribers/b', '/api/subscribers/b/recommend']) expect((await app.request('GET', path)).body).not.toHaveProperty('churn_probability');
    expect((await app.request('GET', '/api/at-risk')).body.items[0]).not.toHaveProperty('churn_probability');
  });
});
