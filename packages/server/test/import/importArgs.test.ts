import { describe, expect, it } from 'vitest';
import { parseDataArgs } from '../../src/cli/storeData/dataArgs.js';

describe('tenure import --format', () => {
  it('reads ndjson by default and revenuecat-export with --include-sandbox and --as-of', () => {
    expect(parseDataArgs('import', ['f'], {})).toMatchObject({ ok: true, args: { format: 'ndjson', includeSandbox: false, asOf: null } });
    expect(parseDataArgs('import', ['f.csv.gz', '--format', 'revenuecat-export', '--include-sandbox', '--as-of', '2026-03-01T00:00:00Z'], {})).toMatchObject({
      ok: true,
      args: { format: 'revenuecat-export', includeSandbox: true, asOf: Date.parse('2026-03-01T00:00:00Z') },
    });
  });

  it('takes 10,000 events per batch for an export (1,000 for NDJSON) unless --batch-size says otherwise', () => {
    expect(parseDataArgs('import', ['f.csv.gz', '--format', 'revenuecat-export'], {})).toMatchObject({ ok: true, args: { batchSize: 10_000 } });
    expect(parseDataArgs('import', ['f.csv.gz', '--format', 'revenuecat-export', '--batch-size', '500'], {})).toMatchObject({ ok: true, args: { batchSize: 500 } });
    expect(parseDataArgs('import', ['f'], {})).toMatchObject({ ok: true, args: { batchSize: 1_000 } });
  });

  it('refuses an unknown format, a bad --as-of, and export flags without the export format', () => {
    expect(parseDataArgs('import', ['f', '--format', 'csv'], {})).toEqual({ ok: false, error: '--format must be ndjson or revenuecat-export, got "csv"' });
    expect(parseDataArgs('import', ['f', '--format', 'revenuecat-export', '--as-of', 'soon'], {})).toMatchObject({ ok: false, error: expect.stringContaining('--as-of') });
    expect(parseDataArgs('import', ['f', '--format', 'revenuecat-export', '--as-of', '1970-01-01T00:00:00Z'], {})).toMatchObject({ ok: false, error: expect.stringContaining('--as-of') });
    expect(parseDataArgs('import', ['f', '--include-sandbox'], {})).toMatchObject({ ok: false, error: expect.stringContaining('revenuecat-export only') });
  });
});
