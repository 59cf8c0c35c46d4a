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
import { measureInterleaved, report, type Measurement, type MeasureSpec } from './measure.js';
import { syntheticWebhookStrings } from './syntheticEvents.js';

export interface CoreBenchResult {
  baseline: Measurement;
  rows: Measurement[];
  /** The rows issue #21 sets goals for, by name. */
  named: { applyScore: Measurement; applyScoreHot: Measurement; pipeline: Measurement };
  bars: { name: string; value: number; bar: number; unit: string; ok: boolean; ratio: number; ratioBar: number; ratioOk: boolean }[];
}

/**
 * Processes `total` events per measurement: `distinct` real-format bodies, `total / distinct` passes.
 * A working set of 100 k bodies keeps the heap small; holding 1 M strings, bodies and events at once
 * (several GB) makes every GC pause dominate and distorts even the JSON.parse baseline.
 */
export function runCoreBench(
  total = Number(process.env.BENCH_EVENTS ?? 1_000_000),
  distinct = Math.min(total, Number(process.env.BENCH_DISTINCT ?? 100_000)),
  { rounds = 5, print = true }: { rounds?: number; print?: boolean } = {},
): CoreBenchResult {
  const log = print ? console.log : () => {};
  const passes = Math.max(1, Math.round(total / distinct));
  const count = distinct;
  const ops = count * passes;
  log(`core: generating ${count.toLocaleString('en')} distinct webhook bodies (${passes} passes = ${ops.toLocaleString('en')} events per measurement)…`);
  const strings = syntheticWebhookStrings(count);
  const avgBytes = strings.reduce((n, s) => n + s.length, 0) / strings.length;
  const bodies: unknown[] = strings.map((s) => JSON.parse(s) as unknown);
  const events: HandledEvent[] = bodies.map((b) => {
    const parsed = parseWebhook(b);
    if (!parsed.ok || !parsed.value.handled) throw new Error('synthetic event did not parse');
    return parsed.value.event;
  });
  // A new customer starts wherever app_user_id changes (events are grouped per customer).
  const firstOfCustomer = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) firstOfCustomer[i] = i === 0 || events[i]!.app_user_id !== events[i - 1]!.app_user_id ? 1 : 0;
  log(`core: ${count.toLocaleString('en')} events, ${avgBytes.toFixed(0)} bytes per body on average`);

  const spec = (name: string, specOps: number, fn: () => unknown): MeasureSpec => ({ name, ops: specOps, fn });
  const baselineSpec = spec('JSON.parse (baseline)', ops, () => {
    let last: unknown;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) last = JSON.parse(strings[i]!);
    return last;
  });

  const parseSpec = spec('parseWebhook (zod) on parsed JSON', ops, () => {
    let ok = 0;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) if (parseWebhook(bodies[i]).ok) ok += 1;
    return ok;
  });

  const applyScoreSpec = spec('applyEvent + scoreSubscriber', ops, () => {
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

  const withRecommendSpec = spec('applyEvent + scoreSubscriber + recommend', ops, () => {
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

  const pipelineSpec = spec('JSON.parse → parseWebhook → apply → score → recommend', ops, () => {
    let s: Subscriber | undefined;
    let total = 0;
    for (let p = 0; p < passes; p += 1) for (let i = 0; i < count; i += 1) {
      const parsed = parseWebhook(JSON.parse(strings[i]!));
      if (!parsed.ok || !parsed.value.handled) continue;
      if (firstOfCustomer[i] === 1) s = undefined;
      const e = parsed.value.event;
      s = applyEvent(s, e);
      const risk = scoreSubscriber(s, e.event_timestamp_ms);
      total += recommend(s, risk, e.event_timestamp_ms).length;
    }
    return total;
  });

  // The same fold over a cache-resident working set (2,000 events): in a live receiver the event was
  // parsed a moment before, so it is in cache; the 100 k replay above reads every event from memory.
  const hot = Math.min(2_000, count);
  const hotPasses = Math.max(1, Math.round(ops / hot));
  const applyScoreHotSpec = spec(`applyEvent + scoreSubscriber, ${hot.toLocaleString('en')} cache-resident events`, hot * hotPasses, () => {
    let s: Subscriber | undefined;
    let total = 0;
    for (let p = 0; p < hotPasses; p += 1) for (let i = 0; i < hot; i += 1) {
      if (firstOfCustomer[i] === 1 || i === 0) s = undefined;
      const e = events[i]!;
      s = applyEvent(s, e);
      total += scoreSubscriber(s, e.event_timestamp_ms).score;
    }
    return total;
  });

  // Every row in turn, round after round, so each ratio is to a baseline taken in the same stretches.
  const [baseline, parse, applyScore, withRecommend, pipeline, applyScoreHot] = measureInterleaved(
    [baselineSpec, parseSpec, applyScoreSpec, withRecommendSpec, pipelineSpec, applyScoreHotSpec],
    rounds,
  ) as [Measurement, Measurement, Measurement, Measurement, Measurement, Measurement];
  const rows = [parse, applyScore, applyScoreHot, withRecommend, pipeline];
  const named = { applyScore, applyScoreHot, pipeline };
  if (!print) return { baseline, rows, named, bars: [] };
  report(`core (${ops.toLocaleString('en')} events per measurement, ~${avgBytes.toFixed(0)} B each, one core)`, baseline, rows);
  // Issue #2 states its bars on a machine where JSON.parse of a 1 KB body runs at ~300 k/s; as ratios
  // to JSON.parse they are 5 M/300 k = 16.7 × and 1 M/300 k = 3.3 ×, comparable across machines.
  const REFERENCE_JSON_PARSE = 300_000;
  const bar = (name: string, m: Measurement, absolute: number) => {
    const ratio = m.perSecond / baseline.perSecond;
    const ratioBar = absolute / REFERENCE_JSON_PARSE;
    return { name, value: m.perSecond / 1e6, bar: absolute / 1e6, unit: 'M events/s', ok: m.perSecond >= absolute, ratio, ratioBar, ratioOk: ratio >= ratioBar };
  };
  const bars = [
    bar('applyEvent + scoreSubscriber (100 k replay)', applyScore, 5e6),
    bar('applyEvent + scoreSubscriber (cache-resident)', applyScoreHot, 5e6),
    bar('+ recommend (100 k replay)', withRecommend, 1e6),
  ];
  console.log(`\nbars (absolute, and as a ratio to JSON.parse against the issue's reference of ${REFERENCE_JSON_PARSE / 1000} k/s):`);
  for (const b of bars) {
    console.log(
      `  ${b.ok ? 'MET ' : 'MISS'} ${b.name}: ${b.value.toFixed(2)} ${b.unit} (bar ${b.bar}); ratio ${b.ratio.toFixed(1)} × JSON.parse: ${b.ratioOk ? 'MET ' : 'MISS'} (bar ${b.ratioBar.toFixed(1)} ×)`,
    );
  }
  const pipelineRatio = pipeline.perSecond / baseline.perSecond;
  console.log(`  ${pipelineRatio >= 0.5 ? 'MET ' : 'MISS'} whole pipeline / JSON.parse: ${pipelineRatio.toFixed(2)} × (bar 0.5 ×)`);
  return { baseline, rows, named, bars };
}
