// `tenure-billing-sim --version` as a real process (from source): the version of package.json on
// stdout and exit 0, as `tenure --version`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCliProcess } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('tenure-billing-sim --version (process)', () => {
  it.each([['--version'], ['-v']])('%s prints the package version and exits 0', async (flag) => {
    const run = await runCliProcess({ cli, args: [flag], timeoutMs: 45_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
    expect(run.stderr).toBe('');
  }, 60_000);
});
