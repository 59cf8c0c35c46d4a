import fc from 'fast-check';
import { DAY_MS } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import { defaultWindow, parseEvaluationArgs, parseHoldout } from '../../src/evaluation/evaluationArgs.js';
import { formatDurationText, formatInstant, parseDateText, parseDurationText } from '../../src/evaluation/timeText.js';

const ok = (argv: string[], command: 'backtest' | 'tune' = 'backtest') => {
  const parsed = parseEvaluationArgs(command, argv);
  if (!parsed.ok || parsed.help) throw new Error(JSON.stringify(parsed));
  return parsed.args;
};
const error = (argv: string[], command: 'backtest' | 'tune' = 'backtest') => {
  const parsed = parseEvaluationArgs(command, argv);
  return parsed.ok ? null : parsed.error;
};

describe('parseEvaluationArgs', () => {
  it('defaults: 30-day horizon, 7-day step, window from the history, NDJSON, 25 % holdout, seed 1, 4 rounds', () => {
    expect(ok(['--events', 'h.ndjson'])).toMatchObject({ events: 'h.ndjson', format: 'ndjson', horizonMs: 30 * DAY_MS, stepMs: 7 * DAY_MS, from: null, to: null, json: false, holdout: 0.25, seed: 1, rounds: 4 });
  });

  it('reads every flag', () => {
    const args = ok(['--events', 'x.csv', '--format', 'revenuecat-export', '--horizon', '2w', '--step', '36h', '--from', '2026-03-01', '--to', '2026-06-01T12:00:00Z', '--config', 'c.json', '--json', '--html', 'r.html', '--lapse', '0d']);
    expect(args).toMatchObject({ format: 'revenuecat-export', horizonMs: 14 * DAY_MS, stepMs: 36 * 3_600_000, from: Date.UTC(2026, 2, 1), to: Date.UTC(2026, 5, 1, 12), config: 'c.json', json: true, html: 'r.html', lapseMs: 0 });
    expect(ok(['--events', 'h', '--holdout', '30%', '--seed', '7', '--rounds', '2', '--out', 'o.json'], 'tune')).toMatchObject({ holdout: 0.3, seed: 7, rounds: 2, out: 'o.json' });
  });

  it('refuses each bad input with one line naming the flag', () => {
    const cases: [string[], RegExp, ('backtest' | 'tune')?][] = [
      [['--events', 'h', '--bogus'], /Unknown option '--bogus'/],
      [[], /name the history file \(--events FILE, or FILE\)/],
      [['a.ndjson', 'b.ndjson'], /one history file at a time, got 2: a.ndjson, b.ndjson/],
      [['--events', 'a.ndjson', 'b.ndjson'], /the history is given twice \(--events a.ndjson and b.ndjson\): give it once/],
      [['--events', 'h', '--format', 'csv'], /--format must be ndjson or revenuecat-export/],
      [['--events', 'h', '--horizon', '30'], /--horizon must be a duration/],
      [['--events', 'h', '--step', '0d'], /--step must be a duration/],
      [['--events', 'h', '--from', '2026-02-30'], /--from must be a date/],
      [['--events', 'h', '--to', 'yesterday'], /--to must be a date/],
      [['--events', 'h', '--from', '2026-05-01', '--to', '2026-04-01'], /window is empty/],
      [['--events', 'h', '--holdout', '0%', '--out', 'o'], /--holdout must be a share .* between 0 and 100%/, 'tune'],
      [['--events', 'h', '--holdout', '100%', '--out', 'o'], /--holdout/, 'tune'],
      [['--events', 'h', '--holdout', '1.5', '--out', 'o'], /--holdout/, 'tune'],
      [['--events', 'h', '--rounds', '0', '--out', 'o'], /--rounds must be a whole number from 1 to 50/, 'tune'],
      [['--events', 'h'], /--out is required/, 'tune'],
      [['--events', 'h', '--html', 'r.html', '--out', 'o'], /Unknown option '--html'/, 'tune'],
    ];
    for (const [argv, pattern, command] of cases) {
      const line = error(argv, command);
      expect(line, argv.join(' ')).toMatch(pattern);
      expect(line!.includes('\n')).toBe(false);
    }
  });

  it('takes the history as --events FILE or as the one argument, as tenure import takes it', () => {
    expect(ok(['h.ndjson', '--horizon', '2w'])).toMatchObject({ events: 'h.ndjson', horizonMs: 14 * DAY_MS });
    expect(ok(['--format', 'revenuecat-export', 'x.csv.gz', '--out', 'o.json'], 'tune')).toMatchObject({ events: 'x.csv.gz', format: 'revenuecat-export', out: 'o.json' });
    expect(ok(['h.ndjson'])).toEqual(ok(['--events', 'h.ndjson']));
  });

  it('takes a holdout as a percentage or a share, strictly inside (0, 1)', () => {
    expect(parseHoldout('25%')).toBe(0.25);
    expect(parseHoldout('0.4')).toBe(0.4);
    expect([parseHoldout('0'), parseHoldout('100%'), parseHoldout('-5%'), parseHoldout('abc')]).toEqual([null, null, null, null]);
  });
});

describe('defaultWindow', () => {
  it('starts at the first midnight UTC one horizon into the history and ends one horizon before its end', () => {
    const span = { first: Date.UTC(2026, 0, 1, 9, 30), last: Date.UTC(2026, 11, 31, 18) };
    expect(defaultWindow(span, 30 * DAY_MS)).toEqual({ from: Date.UTC(2026, 1, 1), to: span.last - 30 * DAY_MS });
  });

  it('falls back to one horizon after the first record when no midnight fits', () => {
    const span = { first: Date.UTC(2026, 0, 1, 9), last: Date.UTC(2026, 0, 31, 12) };
    expect(defaultWindow(span, 30 * DAY_MS)).toEqual({ from: span.first + 30 * DAY_MS, to: span.last - 30 * DAY_MS });
  });
});

describe('time texts', () => {
  it('formatInstant reads back through parseDateText, for any instant from 2000 to 2099', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }), fc.boolean(), (at, midnight) => {
        const instant = midnight ? Math.floor(at / DAY_MS) * DAY_MS : at;
        expect(parseDateText(formatInstant(instant))).toBe(instant);
      }),
    );
  });

  it('formatDurationText reads back through parseDurationText for whole hours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (hours) => {
        expect(parseDurationText(formatDurationText(hours * 3_600_000))).toBe(hours * 3_600_000);
      }),
    );
  });
});

describe('help', () => {
  it('tenure --help lists backtest and tune; each prints its own help and exits 0', async () => {
    let out = '';
    const io = { stdout: (t: string) => void (out += t), stderr: (t: string) => void (out += t) };
    expect((await runCli(['--help'], {}, io)).code).toBe(0);
    expect(out).toMatch(/^  backtest {4}Measure the risk score/m);
    expect(out).toMatch(/^  tune {8}Tune the weights/m);
    for (const command of ['backtest', 'tune']) {
      out = '';
      expect((await runCli([command, '--help'], {}, io)).code).toBe(0);
      expect(out.startsWith(`Usage: tenure ${command} (--events <file> | <file>)`)).toBe(true);
    }
  });
});
