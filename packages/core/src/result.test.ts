import { describe, expect, it } from 'vitest';
import { parseWebhook } from './events/parseWebhook.js';
import { err, ok } from './result.js';
import { parseExportLine } from './store/exportLine.js';

describe('Result', () => {
  it('builds a success carrying its value and a failure carrying its errors', () => {
    expect(ok(1)).toEqual({ ok: true, value: 1 });
    expect(err({ field: 'a', message: 'm' }, { field: 'b', message: 'n' })).toEqual({
      ok: false,
      errors: [{ field: 'a', message: 'm' }, { field: 'b', message: 'n' }],
    });
  });

  it('is the one outcome shape of the parsers: value on success, a non-empty errors list on failure', () => {
    for (const outcome of [
      parseWebhook({ event: { type: 'TEST' } }),
      parseWebhook({ event: { type: 'bad' } }),
      parseExportLine({ activity: { customer_id: 'u1', at: 1_762_000_000_000 } }),
      parseExportLine({ activity: { customer_id: '', at: 1 } }),
    ]) {
      expect(Object.keys(outcome).sort()).toEqual(outcome.ok ? ['ok', 'value'] : ['errors', 'ok']);
      if (!outcome.ok) expect(outcome.errors.length).toBeGreaterThan(0);
    }
  });
});
