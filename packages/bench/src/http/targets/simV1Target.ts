/**
 * The v1 bench's target: the billing simulator served by `startBillingSim` (its node:http server, in
 * development mode: no API key), holding the world of `v1World.ts` (BENCH_V1_CUSTOMERS customers,
 * default 10,000) built before the first request is answered.
 * Run by src/v1.ts: `node --import tsx simV1Target.ts` with PORT set. BENCH_V1_SIM: another copy of
 * billing-sim's `src/index.ts` to serve instead (e.g. a `git archive` of an older commit, inside the
 * repository so it resolves the workspace's packages), for before/after comparisons.
 */
import { buildV1World, V1_PRODUCTS } from './v1World.js';

const { startBillingSim } = (await import(process.env['BENCH_V1_SIM'] ?? '@tenure/billing-sim')) as typeof import('@tenure/billing-sim');

// BENCH_V1_FOLLOW_WALL_CLOCK=1: as `npm start` serves it, the virtual clock at the wall clock's now and following it.
const follow = process.env['BENCH_V1_FOLLOW_WALL_CLOCK'] === '1' ? { followWallClock: true, now: Date.now() } : {};
const running = await startBillingSim({ port: Number(process.env['PORT']), host: '127.0.0.1', seed: 'bench', log: () => undefined, products: V1_PRODUCTS, ...follow });
// Synchronous, right after `listen`: no request (the bench's readiness probe included) is answered
// before the world is built.
buildV1World(running.sim, Number(process.env['BENCH_V1_CUSTOMERS'] ?? 10_000));
// A graceful exit on SIGTERM, so `--cpu-prof` (BENCH_V1_PROFILE) writes its profile.
process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
