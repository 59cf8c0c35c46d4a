/**
 * The v1 bench's handler alone, for before/after comparisons (issue #20): `GET /v1/subscribers/{id}`
 * through `createRequestHandler` in process (no HTTP), then `JSON.stringify` of the answer as
 * `sendJson` does, over the v1 world's customers round robin; prints a hash of every answer (status,
 * headers, body: equal hashes, equal answers) and the CPU time per request (min and median of 5
 * rounds). Run from packages/bench:
 *   taskset -c 1 node --conditions=@tenure/source --import tsx src/v1InProcess.ts
 * Env: SIM_PATH (another copy of billing-sim's src/index.ts, e.g. a `git archive` of an older commit
 * inside the repository), N (customers, 10,000), KEY (`sk_bench`: the secret key; `test_bench`: a
 * public key), PASSES (over every customer per round, 10).
 */
import { createHash } from 'node:crypto';
import { buildV1World, V1_PRODUCTS } from './http/targets/v1World.js';

const { createBillingSimulator, createRequestHandler } = (await import(process.env['SIM_PATH'] ?? '@tenure/billing-sim')) as typeof import('@tenure/billing-sim');
const customers = Number(process.env['N'] ?? 10_000);
const passes = Number(process.env['PASSES'] ?? 10);
const sim = createBillingSimulator({ seed: 'bench', products: V1_PRODUCTS });
buildV1World(sim, customers);
const handle = createRequestHandler(sim);
const headers = { authorization: `Bearer ${process.env['KEY'] ?? 'sk_bench'}`, host: '127.0.0.1' };
const requests = Array.from({ length: customers }, (_, i) => ({ method: 'GET', path: `/v1/subscribers/user_${i}`, query: {}, search: '', headers, rawBody: '' }));

const hash = createHash('sha256');
for (const req of requests) {
  const res = handle(req);
  hash.update(`${res.status} ${JSON.stringify(res.headers)} ${JSON.stringify(res.body)}\n`);
}
const perRequest: number[] = [];
let bytes = 0;
for (let round = 0; round < 5; round += 1) {
  const start = process.cpuUsage();
  for (let p = 0; p < passes; p += 1) for (const req of requests) bytes += JSON.stringify(handle(req).body).length;
  const cpu = process.cpuUsage(start);
  perRequest.push((cpu.user + cpu.system) / (passes * customers));
}
perRequest.sort((a, b) => a - b);
console.log(JSON.stringify({ answers: hash.digest('hex').slice(0, 16), bytes, cpuMicrosPerRequest: { min: +perRequest[0]!.toFixed(2), median: +perRequest[2]!.toFixed(2) } }));
