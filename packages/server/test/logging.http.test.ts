import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../src/log/logger.js';
import { fixture } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
afterEach(() => app.close());

function capture(level = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream) };
}

describe('structured logs', () => {
  it('log each request with its request id, rejected webhooks with their error, and never a secret', async () => {
    const { lines, logger } = capture();
    app = await startTestServer({ logger, webhookAuthKey: 'rc-very-secret', apiKey: 'api-very-secret' });
    await app.request('POST', '/webhook', fixture('initial_purchase'), { authorization: 'wrong-guess-secret', 'x-request-id': 'req-1' });
    await app.request('POST', '/webhook', fixture('initial_purchase', { app_user_id: 'user_1' }), { authorization: 'rc-very-secret', 'x-request-id': 'req-2' });
    await app.request('GET', '/api/subscribers/user_1', undefined, { authorization: 'Bearer api-very-secret', 'x-request-id': 'req-3' });
    await new Promise((r) => setTimeout(r, 20));

    expect(lines.find((l) => l['req_id'] === 'req-1')).toMatchObject({ status: 401, msg: 'webhook rejected', error: { code: 'unauthorized' } });
    expect(lines.find((l) => l['req_id'] === 'req-2')).toMatchObject({ status: 200, path: '/webhook' });
    expect(lines.find((l) => l['req_id'] === 'req-3')).toMatchObject({ status: 200, method: 'GET', path: '/api/subscribers/user_1' });
    expect(JSON.stringify(lines)).not.toMatch(/very-secret|wrong-guess/);
  });

  it('redacts secret-bearing fields even if a caller logs them', () => {
    const { lines, logger } = capture();
    logger.info({ smtp_url: 'smtp://u:p@h', headers: { authorization: 'x' }, config: { slack_webhook_url: 'https://hooks/s' } }, 'oops');
    expect(lines[0]).toMatchObject({ smtp_url: '[redacted]', headers: { authorization: '[redacted]' }, config: { slack_webhook_url: '[redacted]' } });
  });
});
