// `tenure backtest` as a user runs it: a child process on history files written to disk.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backtest, DAY_MS, historySpan, type BacktestReport } from '@tenure/core';
import { hasChromium, launchChromium } from '@tenure/testkit/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTenure } from '../helpers/runTenure.js';
import { checkSelfContained } from './htmlCheck.js';
import { generateExportCsv, generateHistory, toNdjson } from './history.js';

let dir: string;
const records = generateHistory(300, 5);
let file: string;
/** The window the docs promise by default: the first midnight UTC one horizon in, to one horizon before the end. */
const span = historySpan(records)!;
const expectedWindow = { from: Math.ceil((span.first + 30 * DAY_MS) / DAY_MS) * DAY_MS, to: span.last - 30 * DAY_MS, step_ms: 7 * DAY_MS, horizon_ms: 30 * DAY_MS };
const core = backtest(records, expectedWindow);
if (!core.ok) throw new Error(JSON.stringify(core.errors));
const expected: BacktestReport = JSON.parse(JSON.stringify(core.value)) as BacktestReport;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenure-backtest-'));
  file = join(dir, 'history.ndjson');
  writeFileSync(file, toNdjson(records));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tenure backtest (process)', () => {
  it('--json prints the core backtest of the same records, over the documented default window', async () => {
    const run = await runTenure(['backtest', '--events', file, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected);
    expect(expected.cutoffs[0]!.at % DAY_MS).toBe(0);
  });

  it('takes the history as the one argument too, as tenure import takes it', async () => {
    const run = await runTenure(['backtest', file, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  it('prints the table: pooled figures, lift per band, a row per cutoff with the too-few-churners warning beside its numbers; writes the HTML report', async () => {
    const html = join(dir, 'report.html');
    const run = await runTenure(['backtest', '--events', file, '--horizon', '30d', '--step', '7d', '--html', html]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`tenure backtest: wrote ${html}\n`);
    const lines = run.stdout.split('\n');
    const pooled = lines[lines.findIndex((l) => l.startsWith('Pooled over')) + 2]!;
    const p = expected.pooled;
    expect(pooled.trim().split(/\s{2,}/).slice(1, 7)).toEqual([
      p.subscribers.toLocaleString('en-US'),
      p.churned.toLocaleString('en-US'),
      `${(p.base_rate! * 100).toFixed(1)}%`,
      p.roc_auc!.toFixed(3),
      p.pr_auc!.toFixed(3),
      p.brier!.toFixed(4),
    ]);
    expect(pooled).toMatch(/Brier in-sample/);
    for (const band of ['critical', 'high', 'medium', 'low']) expect(lines.some((l) => new RegExp(`^  ${band}\\s+[\\d,]+\\s+[\\d,]+`).test(l))).toBe(true);
    // One row per cutoff, the warning beside every figure with under 30 churners.
    for (const cutoff of expected.cutoffs) {
      const day = new Date(cutoff.at).toISOString().slice(0, 10);
      const row = lines.find((l) => l.startsWith(`  ${day} `));
      expect(row, day).toBeDefined();
      expect(row!.includes(cutoff.metrics.roc_auc === null ? '–' : cutoff.metrics.roc_auc.toFixed(3))).toBe(true);
      expect(row!.endsWith('under 30 churners: figure not meaningful')).toBe(cutoff.metrics.churned > 0 && cutoff.metrics.churned < 30);
    }
    expect(expected.cutoffs.some((c) => c.metrics.churned < 30)).toBe(true);
    expect(run.stdout).toMatch(/Calibration \(pooled\)/);
    expect(run.stdout).toMatch(/- The Brier score is in-sample/);

    const page = readFileSync(html, 'utf8');
    checkSelfContained(page);
    const distinct = p.histogram.churned.filter((c, s) => c + p.histogram.stayed[s]! > 0).length;
    expect(page).toMatch(new RegExp(`<polyline class="curve" data-series="score \\(AUC [\\d.]+\\)" data-points="${distinct + 1}"`));
    expect(page).toMatch(new RegExp(`<polyline class="curve" data-series="score \\(PR AUC [\\d.]+\\)" data-points="${distinct}"`));
    const deciles = p.calibration_table.filter((d) => d.subscribers > 0).length;
    expect(page).toMatch(new RegExp(`<g class="observed" data-series="score deciles" data-points="${deciles}">`));
    expect(page.match(/<tr><td>\d{4}-\d{2}-\d{2}<\/td>/g)?.length).toBe(expected.cutoffs.length);
  });

  it.skipIf(!hasChromium)('the HTML report renders in Chromium with no request but the file, each chart titled and described, the curves with their points', async () => {
    const html = join(dir, 'report.html');
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`file://${html}`);
      expect(requests).toEqual([`file://${html}`]);
      const charts = await page.$$eval('svg[role="img"]', (svgs) => svgs.map((s) => ({ id: s.id, title: s.querySelector('title')?.textContent ?? '', desc: s.querySelector('desc')?.textContent ?? '' })));
      expect(charts.map((c) => c.id)).toEqual(['roc', 'pr', 'calibration', 'lift']);
      for (const c of charts) expect(c.title.length * c.desc.length).toBeGreaterThan(0);
      const rocPoints = await page.$eval('#roc polyline.curve', (l) => l.getAttribute('points')!.split(' ').length);
      const distinct = expected.pooled.histogram.churned.filter((c, s) => c + expected.pooled.histogram.stayed[s]! > 0).length;
      expect(rocPoints).toBe(distinct + 1);
      expect(await page.$$eval('#lift rect.bar', (bars) => bars.length)).toBe(4);
      await page.screenshot({ path: join(dir, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('reads a RevenueCat export as tenure import does: the backtest of the CSV equals the backtest of what import stored and export wrote back', async () => {
    const csv = join(dir, 'export.csv');
    writeFileSync(csv, generateExportCsv(200, 9));
    const store = `sqlite:${join(dir, 'tenure.db')}`;
    const imported = await runTenure(['import', csv, '--format', 'revenuecat-export', '--store', store, '--clock', '2030-01-01T00:00:00Z']);
    expect(imported.code, imported.stderr).toBe(0);
    const ndjson = join(dir, 'exported.ndjson');
    expect((await runTenure(['export', '--store', store, '--out', ndjson])).code).toBe(0);
    const [fromCsv, fromNdjson] = await Promise.all([
      runTenure(['backtest', '--events', csv, '--format', 'revenuecat-export', '--json']),
      runTenure(['backtest', '--events', ndjson, '--json']),
    ]);
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    const report = JSON.parse(fromCsv.stdout) as BacktestReport;
    expect(report.pooled.churned).toBeGreaterThan(30);
    expect(report).toEqual(JSON.parse(fromNdjson.stdout));
  });
});
