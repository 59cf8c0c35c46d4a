import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTE_LABELS, routeIndexOf, STATUS_CLASSES, statusClassIndex } from '../src/metrics/routeLabel.js';

const label = (path: string) => ROUTE_LABELS[routeIndexOf(path)];

describe('routeIndexOf', () => {
  it('names each route by its pattern, whatever the ids in the path', () => {
    expect(label('/webhook')).toBe('/webhook');
    expect(label('/api/subscribers/cus_1')).toBe('/api/subscribers/:customer_id');
    expect(label('/api/subscribers/%E2%9C%93/recommend')).toBe('/api/subscribers/:customer_id/recommend');
    expect(label('/api/subscribers/x/activity')).toBe('/api/subscribers/:customer_id/activity');
    expect(label('/api/dashboard/subscribers/x')).toBe('/api/dashboard/subscribers/:customer_id');
    expect(label('/dashboard/app.js')).toBe('/dashboard/:file');
  });

  it('puts every path that is no route under other: empty ids, extra segments, __proto__ tails', () => {
    for (const path of ['/api/subscribers/', '/api/subscribers//recommend', '/api/subscribers/x/y/z', '/api/subscribers/x/__proto__', '/webhook/', '/constructor', '']) {
      expect(label(path)).toBe('other');
    }
  });

  it('always returns a position in ROUTE_LABELS (the label set is bounded whatever the path)', () => {
    fc.assert(
      fc.property(fc.string(), (path) => {
        const i = routeIndexOf(path);
        expect(Number.isInteger(i) && i >= 0 && i < ROUTE_LABELS.length).toBe(true);
      }),
    );
  });
});

describe('statusClassIndex', () => {
  it('maps a status to its class, and anything out of range to 5xx', () => {
    expect([101, 200, 302, 404, 503, 99, 600].map((s) => STATUS_CLASSES[statusClassIndex(s)])).toEqual(['1xx', '2xx', '3xx', '4xx', '5xx', '5xx', '5xx']);
  });
});
