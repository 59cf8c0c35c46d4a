// `tenure replay` in one process while a live `tenure serve` on the same SQLite file receives
// webhooks in another: every acknowledged event is applied exactly once, and afterwards every
// subscriber equals the fold of all its events (replay never overwrites a concurrent update).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG, foldEventsByCustomer, recordActivity, type HandledEvent, type Subscriber } from '@tenure/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/openStore.js';
import { DAY, T0 } from './helpers/fixtures.js';
import { runTenure } from './helpers/runTenure.js';
import { answered, sendAll } from './durability/sendAll.js';
import { killServes, startServe } from './durability/serveProcess.js';
import { generateStories, handledEvent, seededRandom, shuffled } from './durability/webhookStream.js';

// Two fixed instants, so each row tells who materialized it last: the service or the replay.
const SERVE_NOW = T0 + 400 * DAY;
const REPLAY_NOW = T0 + 401 * DAY;

const dirs: string[] = [];
afterEach(async () => {
  await killServes();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const eventsOf = (stories: ReturnType<typeof generateStories>) =>
  stories.flatMap((s) => s.bodies.map(handledEvent)).filter((e): e is HandledEvent => e !== undefined);

describe('tenure replay while tenure serve receives webhooks on the same SQLite file', () => {
  it('loses no acknowledged event, applies none twice, and leaves every subscriber equal to the fold of all events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-live-replay-'));
    dirs.push(dir);
    const path = join(dir, 'tenure.db');
    const spec = `sqlite:${path}`;

    // 1. A store with history: enough customers that the replay takes a few seconds.
    const seeded = generateStories({ customers: 10_000, seed: 21, asciiIds: true });
    const seededEvents = eventsOf(seeded);
    const activity = seeded.filter((_, i) => i % 5 === 0).map((s, i) => ({ customer_id: s.customer_id, at: T0 + 200 * DAY + i }));
    const store = await openStore({ kind: 'sqlite', path });
    const ctx = { now: SERVE_NOW, config: DEFAULT_CONFIG };
    for (let i = 0; i < seededEvents.length; i += 1_000) await store.applyEvents(seededEvents.slice(i, i + 1_000), ctx);
    for (const a of activity) await store.recordActivity(a.customer_id, a.at, ctx);
    await store.close();

    // 2. The live stream: new events for the same customers (same ids, other stories) and new customers,
    //    with a tenth of them redelivered (the billing service retries; a retry keeps its id).
    const random = seededRandom(22);
    const live = generateStories({ customers: 12_000, seed: 23, asciiIds: true }).flatMap((s) => s.bodies);
    const stream = shuffled([...live, ...live.filter(() => random() < 0.1)], random);
    const serve = await startServe(['--store', spec, '--clock', new Date(SERVE_NOW).toISOString(), '--no-auto-dispatch']);

    // 3. Replay starts once the stream is flowing, and the stream goes on until the replay has exited.
    const ackedAt: number[] = [];
    let replayExited = false;
    let replay: ReturnType<typeof runTenure> | undefined;
    let replayStarted = 0;
    let replayWriting = Number.POSITIVE_INFINITY;
    let replayEnded = 0;
    const watcher = new Database(path, { readonly: true, fileMustExist: true });
    const countReplayed = watcher.prepare('SELECT count(*) AS n FROM subscribers WHERE assessed_at = ?');
    const poll = setInterval(() => {
      // The first row materialized at the replay's instant: the replay is writing from here on.
      if (replay !== undefined && replayWriting === Number.POSITIVE_INFINITY && (countReplayed.get(REPLAY_NOW) as { n: number }).n > 0) replayWriting = Date.now();
    }, 20);
    const outcomes = await sendAll(
      stream.map((body) => ({ url: `${serve.url}/webhook`, body })),
      16,
      {
        after: (_i, outcome) => {
          if (answered(outcome) && outcome.status === 200) ackedAt.push(Date.now());
          if (replay === undefined && ackedAt.length >= 200) {
            replayStarted = Date.now();
            replay = runTenure(['replay', '--store', spec, '--clock', new Date(REPLAY_NOW).toISOString()]);
            void replay.then(() => {
              replayExited = true;
              replayEnded = Date.now();
            });
          }
        },
        stop: () => replayExited,
      },
    );
    const result = await replay!;
    clearInterval(poll);
    watcher.close();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^replay: [\d,]+ subscribers rebuilt from [\d,]+ events in /m);

    // The two really overlapped: webhooks were acknowledged while the replay was writing.
    expect(replayWriting).toBeGreaterThanOrEqual(replayStarted);
    const during = ackedAt.filter((t) => t >= replayWriting && t <= replayEnded).length;
    const rate = (n: number, ms: number) => Math.round((n * 1_000) / Math.max(ms, 1));
    const before = rate(ackedAt.filter((t) => t < replayStarted).length, replayStarted - ackedAt[0]!);
    const overlap = `${during} webhooks acknowledged in the ${replayEnded - replayWriting} ms the replay was writing (${rate(during, replayEnded - replayWriting)}/s, ${before}/s before it)`;
    expect(during, overlap).toBeGreaterThanOrEqual(1);
    // Replay pauses after each batch so the live writer gets the lock (it starved at 5–16/s before).
    expect(rate(during, replayEnded - replayWriting), overlap).toBeGreaterThanOrEqual(before / 5);
    console.info(`[live replay] ${overlap}`);

    // 4. A webhook not answered 200 (a 503 when the store is busy past its timeout) is retried by the
    //    billing service: so does the test, after the replay. Everything sent must end acknowledged.
    const sent = stream.filter((_, i) => outcomes[i] !== undefined);
    const unacked = sent.filter((_, i) => {
      const o = outcomes[i]!;
      return !(answered(o) && o.status === 200);
    });
    const notOk = unacked.map((b) => JSON.stringify(outcomes[stream.indexOf(b)]));
    const retried = await sendAll(unacked.map((body) => ({ url: `${serve.url}/webhook`, body })), 4);
    expect(retried.map((o) => answered(o) && o.status), notOk.join('\n')).toEqual(unacked.map(() => 200));
    const errors = serve.logs.filter((l) => Number(l['level']) >= 50).slice(0, 3);
    expect(unacked.length, `not acknowledged during the replay: ${notOk.slice(0, 3).join('; ')} ${JSON.stringify(errors)}`).toBeLessThan(sent.length / 20);
    if (unacked.length > 0) console.warn(`[live replay] ${unacked.length} of ${sent.length} webhooks were answered ${[...new Set(notOk)].slice(0, 2).join(', ')} during the replay and retried: ${JSON.stringify(errors)}`);
    expect(await serve.stop()).toBe(0);

    // 5. The store holds each handled event sent exactly once, and nothing else.
    const sentEvents = new Map<string, HandledEvent>();
    for (const body of sent) {
      const event = handledEvent(body);
      if (event !== undefined) sentEvents.set(event.id, event);
    }
    const all = [...seededEvents, ...sentEvents.values()];
    const check = await openStore({ kind: 'sqlite', path });
    try {
      const storedIds: string[] = [];
      for await (const record of check.records()) if (record.kind === 'event') storedIds.push(record.event.id);
      expect(storedIds.length).toBe(new Set(storedIds).size);
      expect(new Set(storedIds)).toEqual(new Set(all.map((e) => e.id)));

      // 6. Every subscriber is the fold of all its events plus its reported activity.
      const want = foldEventsByCustomer(all);
      for (const a of activity) want.set(a.customer_id, recordActivity(want.get(a.customer_id)!, a.at));
      const got = new Map<string, Subscriber>();
      for await (const s of check.list()) got.set(s.customer_id, s);
      expect(got.size).toBe(want.size);
      for (const [id, s] of want) expect(got.get(id), id).toEqual(s);
    } finally {
      await check.close();
    }
  }, 180_000);
});
