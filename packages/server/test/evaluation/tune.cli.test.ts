// `tenure tune` as a user runs it: a child process writes the config file, and `tenure backtest
// --config` (another process) reads it and reproduces the holdout figures tune printed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, parseConfigFile, resolveConfigFile, rulesOf, type BacktestReport } from '@tenure/core';

/** The rules and calibration a written config file stands for, as `tenure serve --config` reads it. */
const readBack = (text: string) => {
  const parsed = parseConfigFile(text);
  if (!parsed.ok) return parsed;
  const effective = resolveConfigFile(parsed.value);
  return { ok: true as const, value: { config: rulesOf(effective), calibration: effective.calibration } };
};
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTenure } from '../helpers/runTenure.js';
import { generateHistory, toNdjson } from './history.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenure-tune-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Figures {
  subscribers: number;
  churned: number;
  roc_auc: number | null;
  pr_auc: number | null;
  brier: number | null;
}

/** The figures of a table row (`config  subscribers  churners  ROC AUC  PR AUC  Brier`). */
const rowOf = (stdout: string, label: string) => stdout.split('\n').find((l) => l.startsWith(`  ${label} `))!.trim().split(/\s{2,}/);
const printed = (f: Figures) => [f.subscribers.toLocaleString('en-US'), f.churned.toLocaleString('en-US'), f.roc_auc!.toFixed(3), f.pr_auc!.toFixed(3), f.brier!.toFixed(4)];

describe('tenure tune (process)', () => {
  it('writes a config that backtest --config accepts and that reproduces the holdout figures it printed', { timeout: 120_000 }, async () => {
    const events = join(dir, 'history.ndjson');
    writeFileSync(events, toNdjson(generateHistory(400, 1)));
    const out = join(dir, 'tenure.config.json');
    const tuned = await runTenure(['tune', '--events', events, '--holdout', '25%', '--seed', '3', '--out', out]);
    expect(tuned.code, tuned.stderr).toBe(0);
    expect(tuned.stderr).toBe('');
    expect(tuned.stdout).toMatch(/^Improved: the tuned weights beat default on the holdout/m);

    const text = readFileSync(out, 'utf8');
    const file = JSON.parse(text) as { tuned: { holdout: { start: Figures; tuned: Figures } } };
    const parsed = readBack(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.calibration).not.toBeNull();
    // Its provenance: fitted on the training cutoffs, which end before the holdout begins.
    expect(parsed.value.calibration!.window.to).toBeLessThan(Date.parse(`${/--from (\S+)/.exec(tuned.stdout)![1]!}T00:00:00Z`));
    expect(parsed.value.config).not.toEqual(DEFAULT_CONFIG);
    const { start, tuned: best } = file.tuned.holdout;
    expect(rowOf(tuned.stdout, 'default').slice(1)).toEqual(printed(start));
    expect(rowOf(tuned.stdout, 'tuned').slice(1)).toEqual(printed(best));
    expect(best.roc_auc!).toBeGreaterThan(start.roc_auc!);

    // The printed check: the same holdout cutoffs, scored with the file's weights and calibration.
    const check = /^Check it: tenure (.*)$/m.exec(tuned.stdout)![1]!.split(' ');
    expect(check).toContain('--config');
    const again = await runTenure([...check, '--json']);
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as BacktestReport;
    expect(report.brier_calibration).toBe('given');
    const { subscribers, churned, roc_auc, pr_auc, brier } = report.pooled;
    expect({ subscribers, churned, roc_auc, pr_auc, brier }).toEqual(best);
  });

  it('says plainly when it could not improve, and writes the starting weights with a training calibration', { timeout: 120_000 }, async () => {
    const events = join(dir, 'loyal.ndjson');
    // Only loyal subscribers: nobody churns, so no weighting ranks churners better.
    writeFileSync(events, toNdjson(generateHistory(60, 4, ['loyal'])));
    const out = join(dir, 'loyal.config.json');
    const run = await runTenure(['tune', '--events', events, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Could not improve: No weight change improved the training ROC AUC\.$/m);
    expect(run.stdout).toMatch(/default weights and bands unchanged/);
    expect(rowOf(run.stdout, 'default')).toEqual(['default', expect.stringMatching(/^[\d,]+$/), '0', '–', '–', '0.0000', 'no churner: no ROC or PR AUC']);
    const parsed = readBack(readFileSync(out, 'utf8'));
    expect(parsed.ok && parsed.value.config).toEqual(DEFAULT_CONFIG);
    expect(parsed.ok && parsed.value.calibration?.positives).toBe(0);

    // --json: the same outcome for machines.
    const json = await runTenure(['tune', '--events', events, '--out', out, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ improved: false, reason: 'No weight change improved the training ROC AUC.', out, holdout: { start: { churned: 0, roc_auc: null }, tuned: null } });
  });
});
