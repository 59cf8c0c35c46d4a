// Bad input to `tenure backtest` and `tenure tune`: each run is a real process on real files, and
// exits 2 with ONE line on stderr saying what is wrong, nothing on stdout, no file written.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate, DAY_MS, emptyHistogram, historySpan, toConfigFile, DEFAULT_CONFIG } from '@tenure/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runTenure, type TenureRun } from '../helpers/runTenure.js';
import { toCsv, txRow } from '../import/exportCsv.js';
import { generateExportCsv, generateHistory, toNdjson } from './history.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-evaluation-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const records = generateHistory(40, 8);
const span = historySpan(records)!;
const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const history = write('history.ndjson', toNdjson(records));
const csv = write('export.csv', generateExportCsv(5, 3));
const otherCsv = write('other.csv', toCsv([txRow()], ['customer', 'amount', 'date']));
const empty = write('empty.ndjson', '\n\n');
const folder = join(dir, 'folder');
mkdirSync(folder);
const badConfig = write('bad.config.json', JSON.stringify({ bands: { high: 'x' }, risk: { renewal_points: 5 }, colour: 'red' }));
const notJson = write('notjson.config.json', 'bands: high');
const sixtyDays = write('sixty.config.json', JSON.stringify(toConfigFile(DEFAULT_CONFIG, { ...calibrate(emptyHistogram(), 60 * DAY_MS), window: { from: 1_767_225_600_000, to: 1_767_225_600_000 } })));
const out = join(dir, 'never.config.json');

const CASES: [string, string[], RegExp][] = [
  ['an unknown flag', ['backtest', '--events', history, '--bogus'], /^tenure backtest: Unknown option '--bogus'/],
  ['no history file', ['backtest'], /^tenure backtest: name the history file \(--events FILE, or FILE\)/],
  ['a missing file given as the argument', ['tune', join(dir, 'nope.ndjson'), '--out', out], /^tenure tune: cannot read .*nope\.ndjson: .*ENOENT/],
  ['a missing file', ['backtest', '--events', join(dir, 'nope.ndjson')], /^tenure backtest: cannot read .*nope\.ndjson: .*ENOENT/],
  ['a folder', ['backtest', '--events', folder], /^tenure backtest: cannot read .*folder: .*EISDIR/],
  ['a CSV given as NDJSON', ['backtest', '--events', csv], /^tenure backtest: .*export\.csv is not NDJSON as `tenure export` writes it: line 1 is not JSON/],
  ['NDJSON given as an export', ['backtest', '--events', history, '--format', 'revenuecat-export'], /^tenure backtest: .*history\.ndjson: not a RevenueCat data export \(version 5\): missing columns/],
  ['a CSV that is not a version 5 export', ['tune', '--events', otherCsv, '--format', 'revenuecat-export', '--out', out], /^tenure tune: .*other\.csv: not a RevenueCat data export \(version 5\)/],
  ['a file with no event', ['backtest', '--events', empty], /^tenure backtest: .*empty\.ndjson holds no events$/],
  ['an empty window (flags)', ['backtest', '--events', history, '--from', '2026-05-01', '--to', '2026-04-01'], /^tenure backtest: the window is empty: --from 2026-05-01 is after --to 2026-04-01/],
  ['an empty window (after the history)', ['backtest', '--events', history, '--from', day(span.last)], /^tenure backtest: --from: The window is empty: from is after to$/],
  ['a horizon longer than the history', ['backtest', '--events', history, '--horizon', '400d'], /^tenure backtest: --horizon: The horizon \(400 days\) is longer than the history \(\d+\.\d days\)$/],
  ['a cutoff whose outcome is unknown', ['backtest', '--events', history, '--to', day(span.last)], /^tenure backtest: --to: A cutoff's horizon passes the history's last record/],
  ['a bad duration', ['backtest', '--events', history, '--step', '1 week'], /^tenure backtest: --step must be a duration such as 30d, 12h or 2w, got "1 week"/],
  ['a bad date', ['backtest', '--events', history, '--from', '2026-13-01'], /^tenure backtest: --from must be a date/],
  ['a holdout of 0', ['tune', '--events', history, '--holdout', '0%', '--out', out], /^tenure tune: --holdout must be a share of the cutoffs strictly between 0 and 100%/],
  ['a holdout of 100 %', ['tune', '--events', history, '--holdout', '100%', '--out', out], /^tenure tune: --holdout must be a share/],
  ['a holdout that leaves no training cutoff', ['tune', '--events', history, '--holdout', '99%', '--out', out], /^tenure tune: --holdout: No training cutoff ends \(horizon included\) before the holdout/],
  ['a config file with several problems', ['backtest', '--events', history, '--config', badConfig], /^tenure backtest: .*bad\.config\.json: (?=.*risk\.renewal_points: Too big)(?=.*bands\.high: Invalid input)(?=.*colour: unknown key)/],
  ['a config file that is not JSON', ['tune', '--events', history, '--config', notJson, '--out', out], /^tenure tune: .*notjson\.config\.json: file: not JSON: /],
  ['a calibration for another horizon', ['backtest', '--events', history, '--config', sixtyDays], /^tenure backtest: the calibration in .* gives the chance of churning within 60d, not 30d: run with --horizon 60d$/],
];

/** Runs the cases three at a time (each is a process). */
async function runAll(): Promise<TenureRun[]> {
  const results: TenureRun[] = new Array(CASES.length);
  let next = 0;
  await Promise.all(
    [0, 1, 2].map(async () => {
      for (let i = next++; i < CASES.length; i = next++) results[i] = await runTenure(CASES[i]![1]);
    }),
  );
  return results;
}

describe('tenure backtest and tune: bad input', () => {
  it('exits 2 with one line saying what is wrong, for each case, and writes nothing', { timeout: 240_000 }, async () => {
    const results = await runAll();
    CASES.forEach(([name, , pattern], i) => {
      const run = results[i]!;
      expect({ name, code: run.code, stdout: run.stdout }).toEqual({ name, code: 2, stdout: '' });
      expect(run.stderr.endsWith('\n') && run.stderr.indexOf('\n') === run.stderr.length - 1, `${name}: ${JSON.stringify(run.stderr)}`).toBe(true);
      expect(run.stderr.trimEnd(), name).toMatch(pattern);
    });
    expect(existsSync(out)).toBe(false);
  });
});
