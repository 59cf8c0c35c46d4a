/**
 * The simulator bench's local month alone, for before/after comparisons (issue #10): 100 k monthly
 * subscriptions with a cycle grant, one `advanceBy('P1M')`, delivered to an in-process sink; prints
 * one JSON line with the advance's CPU time and the CPU time of JSON.stringify of the same bodies.
 * Run from packages/bench:
 *   taskset -c 1 node --max-old-space-size=8192 --expose-gc --conditions=@tenure/source --import tsx src/simMonth.ts
 * Env: SIM_PATH (another copy of billing-sim's src/index.ts, e.g. a `git archive` of an older commit),
 * N (subscriptions), FAST_SETUP (build the world with dispatch instead of POST /sim/purchases),
 * PURE (time `transition` alone), PROF=file (CPU profile of the advance, with the sources of the
 * simulator's and the core's scripts in file.src.json to name anonymous functions; with HEAP, heap
 * sampling of what it allocated and kept, and with ALLOC also of what it allocated and the collector
 * freed), TRACE (markers around the advance for --trace-gc), SETTLE=ms (wait that long after the
 * forced gc() before the advance: the concurrent sweeping that gc() leaves is otherwise counted in
 * the advance's CPU time, ~0.1 s with a 500 MB heap).
 */
import { performance } from 'node:perf_hooks';
const path = process.env.SIM_PATH ?? '@tenure/billing-sim';
const { createBillingSimulator, createRequestHandler } = await import(path);
const subscriptions = Number(process.env.N ?? 100_000);
const sim = createBillingSimulator({ seed: 'bench', webhook: { url: 'http://sink.local/webhook', retry_schedule: 'fast' }, transport: async () => ({ status: 200 }) });
const handle = createRequestHandler(sim);
const post = (p: string, body: unknown) => {
  const res = handle({ method: 'POST', path: p, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${p}: ${res.status}`);
};
const t0 = performance.now();
post('/sim/products', { id: 'pro_monthly', type: 'subscription', period: 'P1M', price: 9.99 });
post('/v2/projects/proj_sim/virtual_currencies', { code: 'CRD', name: 'Credits', product_grants: [{ product_ids: ['pro_monthly'], amount: 100, expire_at_cycle_end: true }] });
for (let i = 0; i < subscriptions; i += 1) {
  if (process.env.FAST_SETUP) {
    const r = sim.dispatch({ type: 'purchase', project_id: 'proj_sim', customer_id: `user_${i}`, product_id: 'pro_monthly', trial: false, presented_offering_id: null, country_code: null, environment: null, store: null });
    if (!r.ok) throw new Error('purchase');
    if (i % 1000 === 999) await sim.outbox.idle();
  } else post('/sim/purchases', { customer_id: `user_${i}`, product_id: 'pro_monthly' });
}
await sim.outbox.idle();
const setupMs = performance.now() - t0;
const before = sim.eventCount();
(globalThis as any).gc?.();
if (process.env.SETTLE) await new Promise((resolve) => setTimeout(resolve, Number(process.env.SETTLE)));
const cpuStart = process.cpuUsage();
const start = performance.now();
const inspector = process.env.PROF ? await import('node:inspector') : null;
const session = inspector ? new inspector.Session() : null;
const postS = (m: string, params?: object) => new Promise<any>((res, rej) => session!.post(m, params ?? {}, (e: any, r: any) => (e ? rej(e) : res(r))));
if (session && process.env.HEAP) { session.connect(); await postS('HeapProfiler.enable'); await postS('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: !!process.env.ALLOC, includeObjectsCollectedByMinorGC: !!process.env.ALLOC }); }
else if (session) { session.connect(); await postS('Profiler.enable'); await postS('Profiler.setSamplingInterval', { interval: 200 }); await postS('Profiler.start'); }
if (process.env.PURE) {
  const { transition } = await import(path);
  const w = sim.world();
  const c0 = process.cpuUsage(); const t1 = performance.now();
  if (process.env.TRACE) console.log('=== ADVANCE START');
  const out = transition(w, { type: 'advance' }, w.now + 31 * 86400000, { grants: false });
  const c1 = process.cpuUsage(c0);
  if (process.env.TRACE) console.log('=== ADVANCE END');
  console.log(JSON.stringify({ pure: true, ms: Math.round(performance.now() - t1), cpuMs: Math.round((c1.user + c1.system) / 1000), events: out.events.length }));
  const s2 = process.cpuUsage(); let b = 0; for (const e of out.events) b += JSON.stringify(e).length; const s3 = process.cpuUsage(s2); console.log('stringify cpu', Math.round((s3.user + s3.system) / 1000));
  process.exit(0);
}
if (process.env.TRACE) console.log('=== ADVANCE START');
const advanced = sim.advanceBy('P1M');
if (process.env.TRACE) console.log('=== ADVANCE END');
if (session && process.env.HEAP) { const { profile } = await postS('HeapProfiler.getSamplingProfile'); (await import('node:fs')).writeFileSync(process.env.PROF!, JSON.stringify(profile)); }
else if (session) {
  const { profile } = await postS('Profiler.stop');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(process.env.PROF!, JSON.stringify(profile));
  await postS('Debugger.enable');
  const sources: Record<string, string> = {};
  for (const node of profile.nodes) {
    const { scriptId, url } = node.callFrame;
    if (scriptId in sources || !/billing-sim|core\/src/.test(url)) continue;
    sources[scriptId] = (await postS('Debugger.getScriptSource', { scriptId })).scriptSource;
  }
  writeFileSync(`${process.env.PROF!}.src.json`, JSON.stringify(sources));
}
if (!advanced.ok) throw new Error('advance failed');
const advanceMs = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
await sim.outbox.idle();
const deliveredMs = performance.now() - start;
const deliverCpu = process.cpuUsage(cpuStart);
const bodies = sim.eventsSince(before);
const sc = process.cpuUsage();
const s = performance.now();
let bytes = 0;
for (const b of bodies) bytes += JSON.stringify(b).length;
const stringifyMs = performance.now() - s;
const scu = process.cpuUsage(sc); const stringifyCpu = (scu.user + scu.system) / 1000;
console.log(JSON.stringify({ setupMs: Math.round(setupMs), advanceMs: Math.round(advanceMs), cpuMs: Math.round((cpu.user + cpu.system) / 1000), userMs: Math.round(cpu.user / 1000), sysMs: Math.round(cpu.system / 1000), deliveredCpuMs: Math.round((deliverCpu.user + deliverCpu.system) / 1000), deliveredMs: Math.round(deliveredMs), stringifyMs: Math.round(stringifyMs), events: bodies.length, bytes, stringifyCpu: Math.round(stringifyCpu), ratio: +(stringifyCpu / ((cpu.user + cpu.system) / 1000)).toFixed(3) }));
