/**
 * Billing simulator benchmark: one clock advance through the renewals of many monthly subscriptions
 * (grants, cycle-end credit expiry and webhook bodies built, every event delivered to a local sink),
 * beside JSON.stringify of the same bodies (the floor of building them) measured in the same run.
 * Then the same month delivered over real HTTP, one delivery at a time beside several in flight: to
 * a bare loopback receiver and to a real `tenure serve` (memory store).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createBillingSimulator, createRequestHandler, DEFAULT_CONCURRENCY, type Transport } from '@tenure/billing-sim';
import { startServe } from './http/serveTarget.js';
import { WEBHOOK_AUTH } from './http/webhookLoad.js';

/** One month of `runMonth`: its set-up, advance and delivery times, and `JSON.stringify` of its bodies. */
export interface SimRun {
  subscriptions: number;
  setupMs: number;
  advanceMs: number;
  /** CPU time of the process during the advance: steadier than wall time on a shared machine. */
  advanceCpuMs: number;
  deliveredMs: number;
  events: number;
  stringifyMs: number;
}

/**
 * Given a number of monthly subscriptions and where to deliver, buys them, advances the clock one
 * month and waits until every event is delivered; returns the times and the baseline's.
 */
export async function runMonth(subscriptions: number, transport: Transport, url: string, concurrency = DEFAULT_CONCURRENCY, authorization: string | null = null): Promise<SimRun> {
  const sim = createBillingSimulator({ seed: 'bench', webhook: { url, retry_schedule: 'fast', concurrency, authorization }, transport });
  const handle = createRequestHandler(sim);
  const post = (path: string, body: unknown) => {
    const res = handle({ method: 'POST', path, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const setupStart = performance.now();
  post('/sim/products', { id: 'pro_monthly', type: 'subscription', period: 'P1M', price: 9.99 });
  post('/v2/projects/proj_sim/virtual_currencies', {
    code: 'CRD',
    name: 'Credits',
    product_grants: [{ product_ids: ['pro_monthly'], amount: 100, expire_at_cycle_end: true }],
  });
  for (let i = 0; i < subscriptions; i += 1) post('/sim/purchases', { customer_id: `user_${i}`, product_id: 'pro_monthly' });
  await sim.outbox.idle();
  const setupMs = performance.now() - setupStart;

  // Counted, not read: reading the history builds its bodies.
  const before = sim.eventCount();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const advanced = sim.advanceBy('P1M');
  if (!advanced.ok) throw new Error('advance failed');
  const advanceMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const advanceCpuMs = (cpu.user + cpu.system) / 1000;
  await sim.outbox.idle();
  const deliveredMs = performance.now() - start;
  const bodies = sim.eventsSince(before);
  const undelivered = sim.deliveries().filter((d) => d.state !== 'delivered');
  if (undelivered.length > 0) throw new Error(`${undelivered.length} events not delivered, e.g. ${JSON.stringify(undelivered[0]?.attempts)}`);

  const stringifyStart = performance.now();
  let bytes = 0;
  for (const body of bodies) bytes += JSON.stringify(body).length;
  const stringifyMs = performance.now() - stringifyStart;
  if (bytes === 0) throw new Error('no bodies');
  sim.close();
  return { subscriptions, setupMs, advanceMs, advanceCpuMs, deliveredMs, events: bodies.length, stringifyMs };
}

const rate = (events: number, ms: number) => `${((events / ms) * 1000).toFixed(0)} events/s`;

export async function runSimBench(): Promise<void> {
  const subscriptions = Number(process.env.BENCH_SIM_SUBSCRIPTIONS ?? 100_000);
  let delivered = 0;
  const sink: Transport = async () => {
    delivered += 1;
    return { status: 200 };
  };
  console.log(`\nsim: ${subscriptions.toLocaleString('en')} monthly subscriptions with a 100-credit cycle grant; advance P1M`);
  const local = await runMonth(subscriptions, sink, 'http://sink.local/webhook');
  console.log(`  setup (purchases + initial events delivered): ${(local.setupMs / 1000).toFixed(1)} s`);
  console.log(`  JSON.stringify of the month's ${local.events.toLocaleString('en')} bodies (baseline): ${local.stringifyMs.toFixed(0)} ms, ${rate(local.events, local.stringifyMs)}`);
  console.log(`  advance P1M (renewals, grants, expiries, events logged): ${local.advanceMs.toFixed(0)} ms (CPU ${local.advanceCpuMs.toFixed(0)} ms), ${rate(local.events, local.advanceMs)}, ${(local.stringifyMs / local.advanceMs).toFixed(2)} × baseline`);
  console.log(`  … and every event delivered to an in-process sink:        ${local.deliveredMs.toFixed(0)} ms, ${rate(local.events, local.deliveredMs)}, ${(local.stringifyMs / local.deliveredMs).toFixed(2)} × baseline`);
  if (delivered === 0) throw new Error('nothing was delivered');

  // Real HTTP: one delivery at a time (the simulator before issue #10) beside several in flight.
  const httpSubscriptions = Number(process.env.BENCH_SIM_HTTP_SUBSCRIPTIONS ?? 5_000);
  const { httpTransport } = await import('@tenure/billing-sim');
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const line = (target: string, concurrency: number, run: SimRun, base: SimRun | null) =>
    console.log(
      `  ${target}, ${concurrency === 1 ? 'one at a time' : `${concurrency} in flight`}: ${run.events.toLocaleString('en')} events in ${run.deliveredMs.toFixed(0)} ms, ${rate(run.events, run.deliveredMs)}` +
        (base === null ? '' : `, ${(base.deliveredMs / run.deliveredMs).toFixed(2)} × one at a time`),
    );
  console.log(`  real HTTP delivery of the month of ${httpSubscriptions.toLocaleString('en')} subscriptions (setup events first, then the advance):`);
  const serial = await runMonth(httpSubscriptions, httpTransport(), `http://127.0.0.1:${port}/webhook`, 1);
  line('loopback receiver', 1, serial, null);
  line('loopback receiver', DEFAULT_CONCURRENCY, await runMonth(httpSubscriptions, httpTransport(), `http://127.0.0.1:${port}/webhook`), serial);
  receiver.close();
  if (received === 0) throw new Error('the receiver got nothing');

  // A real `tenure serve` (memory store, its own core) as the receiver.
  let serveSerial: SimRun | null = null;
  for (const concurrency of [1, DEFAULT_CONCURRENCY]) {
    const serve = await startServe({ store: 'memory', cores: 0, clock: 'event' });
    try {
      const run = await runMonth(httpSubscriptions, httpTransport(), `${serve.url}/webhook`, concurrency, WEBHOOK_AUTH);
      line('tenure serve (memory)', concurrency, run, serveSerial);
      serveSerial ??= run;
    } finally {
      await serve.stop();
    }
  }
}
