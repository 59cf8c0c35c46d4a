// `tenure backfill` into PostgreSQL (TEST_DATABASE_URL; skipped with a notice otherwise): the same
// subscribers as the simulator's webhooks, the checkpoint kept in the schema across a --max-pages
// stop, sandbox subscriptions in the sandbox schema, and a second run that stores nothing new.
import type { RunningBillingSim } from '@tenure/billing-sim';
import { describe, expect, it } from 'vitest';
import { checkpointName } from '../../src/backfill/backfill.js';
import { runCli } from '../../src/cli/runCli.js';
import { TEST_DATABASE_URL, testSchema, warnIfNoPostgres } from '../durability/postgresSchema.js';
import { withStoreAt } from '../helpers/storeAt.js';
import { byWebhooks, factsOf, populate, startSim } from './simPopulation.js';

warnIfNoPostgres('the PostgreSQL run of tenure backfill');


describe.skipIf(TEST_DATABASE_URL === undefined)('tenure backfill on PostgreSQL', () => {
  it('resumes from its checkpoint in the schema and builds the webhooks\' subscribers', async () => {
    const schema = testSchema('backfill');
    let running: RunningBillingSim | undefined;
    try {
      running = await startSim(10_000, 60_000);
      populate(running, 9);
      const bought = running.sim.dispatch({ type: 'purchase', project_id: 'proj_sim', customer_id: 'sbx1', product_id: 'monthly_plain', trial: false, presented_offering_id: null, country_code: null, environment: 'SANDBOX' });
      if (!bought.ok) throw new Error(JSON.stringify(bought));
      const io = { stdout: () => undefined, stderr: () => undefined, handleSignals: false, progressTty: false };
      const args = ['backfill', '--project', 'proj_sim', '--base-url', `${running.url}/v2`, '--store', schema.spec, '--page-size', '4', '--clock', new Date(running.sim.now()).toISOString()];
      const env = { REVENUECAT_API_KEY: 'sk_test' };
      expect((await runCli([...args, '--max-pages', '1'], env, io)).code).toBe(0);
      expect(await withStoreAt(schema.spec, (s) => s.checkpoints.get(checkpointName('proj_sim', 'production')))).toContain('"starting_after":"c003"');
      expect((await runCli(args, env, io)).code).toBe(0);
      expect((await runCli([...args, '--environment', 'sandbox'], env, io)).code).toBe(0);
      const webhooks = (await factsOf(await byWebhooks(running))).filter((f) => f.customer_id !== 'sbx1');
      expect(await withStoreAt(schema.spec, factsOf)).toEqual(webhooks);
      const sandbox = schema.spec.replace(/schema=([^&]+)/, (_, name: string) => `schema=${name}_sandbox`);
      expect((await withStoreAt(sandbox, factsOf)).map((f) => f.customer_id)).toEqual(['sbx1']);
      const out: string[] = [];
      expect((await runCli([...args, '--json'], env, { ...io, stdout: (t: string) => void out.push(t) })).code).toBe(0);
      expect(JSON.parse(out.join(''))).toMatchObject({ complete: true, new: 0 });
    } finally {
      await running?.stop();
      await schema.drop();
      await schema.query(`DROP SCHEMA IF EXISTS "${schema.name}_sandbox" CASCADE`);
    }
  });
});
