import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '@tenure/core';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDataArgs } from '../src/cli/storeData/dataArgs.js';
import { EXPORT_HELP, IMPORT_HELP, REPLAY_HELP } from '../src/cli/storeData/dataHelp.js';
import { runDataCommand } from '../src/cli/dataCommands.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false } };
}

const dir = mkdtempSync(join(tmpdir(), 'tenure-data-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseDataArgs', () => {
  it('defaults to the serve default store, the wall clock and batches of 1 000', () => {
    expect(parseDataArgs('replay', [], {})).toEqual({
      ok: true,
      help: false,
      args: {
        store: 'sqlite:./data/tenure.db',
        clock: { kind: 'wall' },
        configFile: undefined,
        config: DEFAULT_CONFIG,
        out: undefined,
        input: '-',
        json: false,
        batchSize: 1_000,
        format: 'ndjson',
        includeSandbox: false,
        asOf: null,
      },
    });
  });

  it('takes the configuration file of replay and import from --config or TENURE_CONFIG (a flag wins); export scores nothing', () => {
    expect(parseDataArgs('replay', ['--config', 'flag.json'], { TENURE_CONFIG: 'env.json' })).toMatchObject({ ok: true, args: { configFile: 'flag.json' } });
    expect(parseDataArgs('import', ['x.ndjson'], { TENURE_CONFIG: 'env.json' })).toMatchObject({ ok: true, args: { configFile: 'env.json' } });
    expect(parseDataArgs('export', [], { TENURE_CONFIG: 'env.json' })).toMatchObject({ ok: true, args: { configFile: undefined } });
    expect(parseDataArgs('export', ['--config', 'x.json'], {}).ok).toBe(false);
  });

  it('reads DATABASE_URL and TENURE_CLOCK, and a flag wins over its variable', () => {
    const env = { DATABASE_URL: 'postgres://app@db/tenure', TENURE_CLOCK: '2026-01-12T00:00:00Z' };
    expect(parseDataArgs('replay', [], env)).toMatchObject({ ok: true, args: { store: 'postgres://app@db/tenure', clock: { kind: 'fixed', at: Date.parse('2026-01-12T00:00:00Z') } } });
    expect(parseDataArgs('replay', ['--store', 'sqlite:x.db', '--clock', 'wall'], env)).toMatchObject({ ok: true, args: { store: 'sqlite:x.db', clock: { kind: 'wall' } } });
  });

  it('takes the import file (or -) as its one positional, with --json and --batch-size', () => {
    expect(parseDataArgs('import', ['-', '--json', '--batch-size', '250'], {})).toMatchObject({ ok: true, args: { input: '-', json: true, batchSize: 250 } });
    expect(parseDataArgs('import', [], {})).toEqual({ ok: false, error: 'name the file to import (FILE or --events FILE; - for stdin)' });
    // As tenure backtest and tenure tune take it.
    expect(parseDataArgs('import', ['--events', 'x.csv', '--format', 'revenuecat-export'], {})).toMatchObject({ ok: true, args: { input: 'x.csv', format: 'revenuecat-export' } });
    expect(parseDataArgs('import', ['--events', 'a', 'b'], {})).toEqual({ ok: false, error: 'the file is given twice (--events a and b): give it once' });
    expect(parseDataArgs('export', ['--events', 'a'], {}).ok).toBe(false);
    expect(parseDataArgs('import', ['a', 'b'], {})).toEqual({ ok: false, error: 'one file at a time, got 2' });
    expect(parseDataArgs('import', ['a', '--batch-size', '0'], {})).toMatchObject({ ok: false, error: expect.stringContaining('--batch-size') });
  });

  it('refuses flags a command does not take, and positionals outside import', () => {
    expect(parseDataArgs('export', ['--json'], {}).ok).toBe(false);
    expect(parseDataArgs('replay', ['--out', 'x'], {}).ok).toBe(false);
    expect(parseDataArgs('export', ['file.ndjson'], {}).ok).toBe(false);
    expect(parseDataArgs('replay', ['--clock', 'yesterday'], {})).toMatchObject({ ok: false, error: expect.stringContaining('TENURE_CLOCK') });
  });

  it('answers --help and -h', () => {
    expect(parseDataArgs('export', ['-h'], {})).toEqual({ ok: true, help: true });
  });
});

describe('runDataCommand', () => {
  it('prints each command help on --help and exits 0', async () => {
    for (const [command, help] of [['replay', REPLAY_HELP], ['export', EXPORT_HELP], ['import', IMPORT_HELP]] as const) {
      const c = capture();
      expect((await runDataCommand(command, ['--help'], {}, c.io)).code).toBe(0);
      expect(c.out).toEqual([help]);
    }
  });

  it('documents the flags, variables, line format and exit codes in the help', () => {
    for (const help of [REPLAY_HELP, EXPORT_HELP, IMPORT_HELP]) expect(help).toMatch(/--store[\s\S]*DATABASE_URL[\s\S]*Exit status/);
    expect(EXPORT_HELP).toContain('{"activity":{"customer_id":"...","at":<epoch ms>}}');
    expect(EXPORT_HELP).toContain('{"moved_subscription":{"original_transaction_id":"...","receiver":\n"..."}}');
    expect(IMPORT_HELP).toMatch(/1 some lines were rejected/);
  });

  it('exits 2 with the usage pointer on flags that do not parse', async () => {
    const c = capture();
    expect((await runDataCommand('export', ['--bogus'], {}, c.io)).code).toBe(2);
    expect(c.err[0]).toMatch(/^tenure export: .*\nSee: tenure export --help\n$/);
  });

  it('exits 1 with one line, worded like serve, on a malformed store spec (password redacted)', async () => {
    const c = capture();
    expect((await runDataCommand('replay', [], { DATABASE_URL: 'mysql://root:hunter2@db/x' }, c.io)).code).toBe(1);
    expect(c.err).toEqual(['tenure replay: cannot open store mysql://root:***@db/x: unknown store kind: use memory, sqlite:PATH or postgres://USER@HOST:PORT/DB\n']);
  });

  it('refuses a store that lives inside one process', async () => {
    const c = capture();
    expect((await runDataCommand('import', ['-', '--store', 'memory'], {}, c.io)).code).toBe(1);
    expect((await runDataCommand('export', ['--store', 'sqlite::memory:'], {}, c.io)).code).toBe(1);
    expect(c.err.every((e) => e.includes('inside one process'))).toBe(true);
  });

  it('exports or replays no database it would have to create: one line, exit 1, no file made', async () => {
    const c = capture();
    const path = join(dir, 'missing', 'tenure.db');
    expect((await runDataCommand('export', ['--store', `sqlite:${path}`], {}, c.io)).code).toBe(1);
    expect((await runDataCommand('replay', [], { DATABASE_URL: `sqlite:${path}` }, c.io)).code).toBe(1);
    expect(c.err).toEqual([`tenure export: no database at ${path} (set --store or DATABASE_URL)\n`, `tenure replay: no database at ${path} (set --store or DATABASE_URL)\n`]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names an unreadable import file in one line, exit 1, before opening the store', async () => {
    const c = capture();
    const store = join(dir, 'never', 'tenure.db');
    expect((await runDataCommand('import', [join(dir, 'nope.ndjson'), '--store', `sqlite:${store}`], {}, c.io)).code).toBe(1);
    expect(c.err[0]).toMatch(/^tenure import: cannot read .*nope\.ndjson: ENOENT: no such file or directory.*\n$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports an unreachable PostgreSQL in one line and exits 1', async () => {
    const c = capture();
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    expect((await runDataCommand('replay', ['--store', 'postgres://tenure:s3cret@127.0.0.1:1/tenure'], {}, c.io)).code).toBe(1);
    expect(c.err).toHaveLength(1);
    expect(c.err[0]).toMatch(/^tenure replay: cannot open store postgres:\/\/tenure:\*\*\*@127\.0\.0\.1:1\/tenure: .*connection refused.*\n$/);
    expect(c.err[0]).not.toContain('s3cret');
  });
});
