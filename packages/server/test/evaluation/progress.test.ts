// The progress bar of `tenure backtest` and `tenure tune`: drawn on stderr only when it is a
// terminal, while reading and while evaluating, and cleared before the summary lines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import type { DataIo } from '../../src/cli/storeData/dataIo.js';
import { generateHistory, toNdjson } from './history.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-evaluation-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'history.ndjson');
writeFileSync(file, toNdjson(generateHistory(120, 6)));

async function run(argv: string[], progressTty: boolean) {
  let stdout = '';
  let stderr = '';
  const io: DataIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), progressTty };
  const { code } = await runCli(argv, {}, io);
  return { code, stdout, stderr };
}

describe('evaluation progress', () => {
  it('on a terminal: a bar redrawn in place while reading and evaluating, then one summary line each; stdout unchanged', async () => {
    const tty = await run(['backtest', '--events', file, '--json'], true);
    const plain = await run(['backtest', '--events', file, '--json'], false);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(plain.stdout);
    expect(tty.stderr).toMatch(/\rbacktest: reading \[[#-]{24}\] +\d+%/);
    expect(tty.stderr).toMatch(/\rbacktest: evaluating \[[#-]{24}\] +\d+% [\d,]+\/[\d,]+ customers/);
    const summaries = tty.stderr.split('\n').filter((l) => l !== '').map((l) => l.slice(l.lastIndexOf('\x1b[K') + 3));
    expect(summaries).toEqual([expect.stringMatching(/^backtest: read [\d,]+ lines of .* in [\d.]+s: [\d,]+ records$/), expect.stringMatching(/^backtest: \d+ cutoffs evaluated in [\d.]+s$/)]);
  });

  it('elsewhere (a log, a pipe): nothing on stderr but the results', async () => {
    expect((await run(['backtest', '--events', file], false)).stderr).toBe('');
    const tune = await run(['tune', '--events', file, '--out', join(dir, 'c.json')], false);
    expect(tune.code).toBe(0);
    expect(tune.stderr).toBe('');
  });

  it('tune draws its search on a terminal', async () => {
    const tune = await run(['tune', '--events', file, '--out', join(dir, 'c.json')], true);
    expect(tune.code).toBe(0);
    expect(tune.stderr).toMatch(/\rtune: searching \[[#-]{24}\]/);
    expect(tune.stderr).toMatch(/tune: \d+ weightings scored in [\d.]+s\n$/);
  });
});
