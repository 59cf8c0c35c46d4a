// `tenure-billing-sim population`: bad flags exit 2 with one line and write nothing; the outputs
// are the generator's customers in each format (files, gzip, stdout); HTTP delivery reaches a real
// receiver on 127.0.0.1 through the simulator's outbox, retries included.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { EXPORT_V5_COLUMNS } from '@tenure/core';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cliMain.js';
import { generatePopulation } from '../../src/population/generatePopulation.js';
import { populationMain } from '../../src/population/populationMain.js';
import { startReceiver } from '../helpers.js';

const root = mkdtempSync(join(tmpdir(), 'sim-population-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const freshDir = () => mkdtempSync(join(root, 'run-'));

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('tenure-billing-sim population', () => {
  it.each([
    [['--customers', '0']],
    [['--customers', '2.5']],
    [['--months', '121']],
    [['--seed', '']],
    [['--start', 'yesterday']],
    [['--start', '2026-01-01T00:00:00']],
    [['--start', '2026-01-01T00:00:30Z']],
    [['--start', '2097-06-01T00:00:00Z']],
    [['--unknown', 'x']],
    [['stray']],
    [['--webhooks', 'SAME', '--truth', 'SAME']],
    [['--webhook-url', 'ftp://example.com/hook']],
    [['--webhook-auth', 'Bearer x']],
    [['--webhook-url', 'http://127.0.0.1:1/webhook', '--concurrency', '0']],
    [['--truth', '/nonexistent-dir/truth.ndjson']],
  ])('exits 2 with one line for %j and writes nothing', async (argv) => {
    const dir = freshDir();
    const c = capture();
    const args = argv.map((a) => (a === 'SAME' ? join(dir, 'same.ndjson') : a));
    const outputs = ['--webhooks', join(dir, 'w.ndjson')];
    const hasOutput = args.some((a) => a === '--webhooks' || a === '--truth' || a === '--webhook-url');
    expect((await main(['population', ...args, ...(hasOutput ? [] : outputs)], {}, c.io)).code).toBe(2);
    expect(c.err).toHaveLength(1);
    expect(c.err[0]).not.toContain('\n');
    expect(c.out).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('prints its help with --help and exits 0; the main help names the command', async () => {
    const c = capture();
    expect((await main(['population', '--help'], {}, c.io)).code).toBe(0);
    expect(c.out.join('\n')).toMatch(/--customers <n>[\s\S]*--webhook-url URL/);
    const top = capture();
    expect((await main(['--help'], {}, top.io)).code).toBe(0);
    expect(top.out.join('\n')).toContain('tenure-billing-sim population');
  });

  it('exits 2 without an output', async () => {
    const c = capture();
    expect((await main(['population', '--customers', '10'], {}, c.io)).code).toBe(2);
    expect(c.err).toEqual(['population needs an output: --webhooks, --activity, --records, --export, --truth (FILE or -) or --webhook-url']);
  });

  it("writes the generator's customers: webhooks, activity, records, a gzip export and the truth, and a summary line", async () => {
    const dir = freshDir();
    const file = (name: string) => join(dir, name);
    const c = capture();
    const argv = ['population', '--customers', '60', '--months', '6', '--seed', 'cli', '--webhooks', file('w.ndjson'), '--activity', file('a.ndjson')];
    argv.push('--records', file('r.ndjson'), '--export', file('e.csv.gz'), '--truth', file('t.ndjson'));
    expect((await main(argv, {}, c.io)).code).toBe(0);
    const customers = [...generatePopulation({ customers: 60, months: 6, seed: 'cli' })];
    const events = customers.flatMap((x) => x.events.map((b) => JSON.stringify(b)));
    const activity = customers.flatMap((x) => x.activity.map((at) => JSON.stringify({ activity: { customer_id: x.customer_id, at } })));
    expect(lines(readFileSync(file('w.ndjson'), 'utf8'))).toEqual(events);
    expect(lines(readFileSync(file('a.ndjson'), 'utf8'))).toEqual(activity);
    expect(lines(readFileSync(file('r.ndjson'), 'utf8')).sort()).toEqual([...events, ...activity].sort());
    expect(lines(readFileSync(file('t.ndjson'), 'utf8')).map((l) => JSON.parse(l))).toEqual(customers.map((x) => x.truth));
    const csv = lines(gunzipSync(readFileSync(file('e.csv.gz'))).toString('utf8'));
    expect(csv[0]).toBe(EXPORT_V5_COLUMNS.join(','));
    const purchases = events.filter((e) => /"type":"(INITIAL_PURCHASE|RENEWAL)"/.test(e)).length;
    expect(csv.length - 1).toBe(purchases);
    expect(c.err).toHaveLength(1);
    expect(c.err[0]).toMatch(new RegExp(`^population: 60 customers over 6 months from 2026-01-01T00:00:00.000Z \\(seed cli\\): ${events.length} webhooks, ${activity.length} activity reports, ${purchases} export rows`));
  });

  it('writes an output to stdout with -', async () => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const c = capture();
    expect(await populationMain(['--customers', '20', '--seed', 'stdout', '--truth', '-'], c.io, stdout)).toBe(0);
    expect(lines(text).map((l) => JSON.parse(l).customer_id)).toEqual(Array.from({ length: 20 }, (_, i) => `user_${String(i + 1).padStart(6, '0')}`));
  });

  it('delivers every webhook over HTTP with its Authorization value, retrying failed attempts', async () => {
    // The first 50 events fail once each: the outbox retries them on the fast schedule.
    const failedOnce = new Set<string>();
    const answered: unknown[] = [];
    const receiver = await startReceiver((_n, body) => {
      const id = (body as { event: { id: string } }).event.id;
      if (!failedOnce.has(id) && failedOnce.size < 50) {
        failedOnce.add(id);
        return 503;
      }
      answered.push(body);
      return 200;
    });
    try {
      const c = capture();
      const argv = ['population', '--customers', '300', '--months', '3', '--seed', 'http', '--webhook-url', receiver.url, '--webhook-auth', 'Bearer population'];
      expect((await main(argv, {}, c.io)).code).toBe(0);
      const events = [...generatePopulation({ customers: 300, months: 3, seed: 'http' })].flatMap((x) => x.events);
      const byId = (a: unknown, b: unknown) => ((a as { event: { id: string } }).event.id < (b as { event: { id: string } }).event.id ? -1 : 1);
      expect(failedOnce.size).toBe(50);
      expect(answered.sort(byId)).toEqual(JSON.parse(JSON.stringify(events)).sort(byId));
      expect(receiver.received.every((r) => r.headers.authorization === 'Bearer population')).toBe(true);
      expect(c.err[0]).toContain(`; delivered ${events.length}, failed 0;`);
    } finally {
      await receiver.close();
    }
  });

  it('exits 1 when webhooks fail every retry, and says how many', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const c = capture();
      expect((await main(['population', '--customers', '2', '--months', '1', '--seed', 'down', '--webhook-url', receiver.url], {}, c.io)).code).toBe(1);
      const events = [...generatePopulation({ customers: 2, months: 1, seed: 'down' })].flatMap((x) => x.events).length;
      expect(c.err[0]).toContain(`; delivered 0, failed ${events};`);
      expect(receiver.received).toHaveLength(events * 6);
    } finally {
      await receiver.close();
    }
  });

  it('names the files it was asked for, nothing else', async () => {
    const dir = freshDir();
    expect((await main(['population', '--customers', '5', '--truth', join(dir, 'only.ndjson')], {}, capture().io)).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['only.ndjson']);
    expect(existsSync(join(dir, 'w.ndjson'))).toBe(false);
  });
});
