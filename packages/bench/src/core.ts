/**
 * Core microbenchmarks over synthetic webhook traffic in the real format, each beside JSON.parse of
 * the same strings (the floor of any receiver) measured in the same run.
 *
 * Bars (issue #2): applyEvent + scoreSubscriber ≥ 5 M events/s; with recommend ≥ 1 M/s; the whole
 * pipeline from a JSON string ≥ 0.5 × JSON.parse alone.
 */
import {
  applyEvent,
  parseWebhook,
  recommend,
  scoreSubscriber,
  type HandledEvent,
  type Subscriber,
} from '@tenure/core';
import { measure, report, type Measurement } from './measure.js';
import { syntheticWebhookStrings } from './syntheticEvents.js';

export interface CoreBenchResult {
  baseline: Measurement;
  rows: Measurement[];
  bars: { name: string; value: number; bar: number; unit: string; ok: boolean }[];
}

/**
 * Processes `total` events per measurement: `distinct` real-format bodies, `total / distinct` passes.
 * A working set of 100 k bodies keeps the heap small; holding 1 M strings, bodies and events at once
 * (several GB) makes every GC pause dominate and distorts even the JSON.parse baseline.
 */
export function runCoreBench(
  total = Number(process.env.BENCH_EVENTS ?? 1_000_000),
  distinct = Math.min(total, Number(process.env.BENCH_DISTINCT ?? 100_000)),
): CoreBenchResult {
  const passes = Math.max(1, Math.round(total / distinct));
  const count = distinct;
  const ops = count * passes;
  console.log(`core: generating ${count.toLocaleString('en')} distinct webhook bodies (${passes} passes = ${ops.toLocaleString('en')} events per measurement)…`);
  const strings = syntheticWebhookStrings(count);
  const avgBytes = strings.reduce((n, s) => n + s.length, 0) / strings.length;
  const bodies: unknown[] = strings.map((s) => JSON.parse(s) as unknown);
  const events: HandledEvent[] = bodies.map((b) => {
    const parsed = parseWebhook(b);
    if (!parsed.ok || !parsed.handled) throw new Error('synthetic event did not parse');
    return parsed.event;
  });
  // A new customer starts wherever app_user_id changes (events are grouped per customer).
  const firstOfCustomer = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) firstOfCustomer[i] = i === 0 || events[i]!.app_user_id !== events[i - 1]!.app_user_id ? 1 : 0;
  console.log(`core: ${count.toLocaleString('en')} events, ${avgBytes.toFixed(0)} bytes per body on average`);

  const baseline = measure('JSON.parse (baseline)', ops, () => {
    let last: unknown;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) last = JSON.parse(strings[i]!);
    return last;
  });

  const parse = measure('parseWebhook (zod) on parsed JSON', ops, () => {
    let ok = 0;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) if (parseWebhook(bodies[i]).ok) ok += 1;
    return ok;
  });

  const applyScore = measure('applyEvent + scoreSubscriber', ops, () => {
    let s: Subscriber | undefined;
    let total = 0;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) {
      if (firstOfCustomer[i] === 1) s = undefined;
      const e = events[i]!;
      s = applyEvent(s, e);
      total += scoreSubscriber(s, e.event_timestamp_ms).score;
    }
    return total;
  });

  const withRecommend = measure('applyEvent + scoreSubscriber + recommend', ops, () => {
    let s: Subscriber | undefined;
    let total = 0;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) {
      if (firstOfCustomer[i] === 1) s = undefined;
      const e = events[i]!;
      s = applyEvent(s, e);
      const risk = scoreSubscriber(s, e.event_timestamp_ms);
      total += recommend(s, risk, e.event_timestamp_ms).length;
    }
    return total;
  });

  const pipeline = measure('JSON.parse → parseWebhook → apply → score → recommend', ops, () => {
    let s: Subscriber | undefined;
    let total = 0;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) {
      const parsed = parseWebhook(JSON.parse(strings[i]!));
      if (!parsed.ok || !parsed.handled) continue;
      if (firstOfCustomer[i] === 1) s = undefined;
      const e = parsed.event;
      s = applyEvent(s, e);
      const risk = scoreSubscriber(s, e.event_timestamp_ms);
      total += recommend(s, risk, e.event_timestamp_ms).length;
    }
    return total;
  });

  const rows = [parse, applyScore, withRecommend, pipeline];
  report(`core (${ops.toLocaleString('en')} events per measurement, ~${avgBytes.toFixed(0)} B each, one core)`, baseline, rows);
  const bars = [
    { name: 'applyEvent + scoreSubscriber', value: applyScore.perSecond / 1e6, bar: 5, unit: 'M events/s', ok: applyScore.perSecond >= 5e6 },
    { name: '+ recommend', value: withRecommend.perSecond / 1e6, bar: 1, unit: 'M events/s', ok: withRecommend.perSecond >= 1e6 },
    { name: 'whole pipeline / JSON.parse', value: pipeline.perSecond / baseline.perSecond, bar: 0.5, unit: '×', ok: pipeline.perSecond >= 0.5 * baseline.perSecond },
  ];
  console.log('\nbars:');
  for (const b of bars) console.log(`  ${b.ok ? 'MET ' : 'MISS'} ${b.name}: ${b.value.toFixed(2)} ${b.unit} (bar ${b.bar} ${b.unit})`);
  return { baseline, rows, bars };
}
