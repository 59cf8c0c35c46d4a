// A generated population (issue #12 §3) reaches the retention service every way it can: its data
// export imported gives the same subscribers as its webhooks delivered (the harness of the
// simulator's export-import model test), and `tenure import` reads its records file (webhooks and
// activity, as `tenure export` writes them) with nothing rejected.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportCsvHeader, exportLines, exportPeriods, DEFAULT_POPULATION_MODEL, generatePopulation, populationWindow, recordText, webhookLines } from '@tenure/billing-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { factsByImport, factsByWebhooks } from './exportImportHarness.js';

const options = { customers: 1500, months: 12, seed: 'import' };
const population = [...generatePopulation(options)];
const { end } = populationWindow(options);
const dir = mkdtempSync(join(tmpdir(), 'population-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the `tenure` CLI from source in its own process; resolves with its exit code and output. */
function tenure(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
  const cli = join(repoRoot, 'packages/server/src/cli.ts');
  const child = spawn(process.execPath, ['--conditions=@tenure/source', '--import', 'tsx', cli, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a generated population, delivered by webhooks, imported from its export, and read by tenure import', () => {
  it('gives the same subscribers from its export as from its webhooks', async () => {
    const periods = exportPeriods(DEFAULT_POPULATION_MODEL);
    const csv = exportCsvHeader() + population.flatMap((c) => exportLines(c, periods)).join('');
    const byImport = await factsByImport(csv, end);
    expect(byImport.rejections).toEqual([]);
    const byWebhooks = await factsByWebhooks(population.flatMap((c) => c.events), end);
    expect(byImport.facts).toHaveLength(options.customers);
    expect(byImport.facts).toEqual(byWebhooks);
  }, 120_000);

  it('is read by tenure import: every event new, every activity report applied, nothing rejected', async () => {
    const file = join(dir, 'records.ndjson');
    writeFileSync(file, population.map((c) => recordText(c, webhookLines(c))).join(''));
    const result = await tenure(['import', file, '--store', `sqlite:${join(dir, 'tenure.db')}`, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { new: number; duplicate: number; activity: number; rejected: number };
    expect(report).toMatchObject({
      new: population.reduce((n, c) => n + c.events.length, 0),
      duplicate: 0,
      activity: population.reduce((n, c) => n + c.activity.length, 0),
      rejected: 0,
    });
  }, 120_000);
});
