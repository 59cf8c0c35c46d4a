/**
 * A strict parser of the Prometheus text exposition format (0.0.4), for tests that read a
 * service's `/metrics`: it throws on anything a Prometheus server would reject or that a careless
 * exporter gets wrong (a sample before its `# TYPE`, a bad name or escape, a duplicate series, a
 * histogram whose buckets are not cumulative or whose `+Inf` bucket differs from `_count`).
 */

export interface PromSample {
  /** The sample's own name (`x_bucket`, `x_sum`, … for a histogram). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: PromSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count', ''] };

function parseValue(text: string, line: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN' || text === 'Nan') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad sample value "${text}" in: ${line}`);
  return Number(text);
}

/** Reads `{a="1",b="x\"y"}` from `text` at `start` (just after the name); returns labels and the index after `}`. */
function parseLabels(text: string, start: number, line: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = Object.create(null);
  let i = start + 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    const name = eq === -1 ? '' : text.slice(i, eq);
    if (!LABEL.test(name) || text[eq + 1] !== '"') throw new Error(`bad label at ${i} in: ${line}`);
    if (name in labels) throw new Error(`duplicate label ${name} in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') value += text[j];
      else {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape \\${next} in: ${line}`);
      }
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`expected , or } at ${i} in: ${line}`);
  }
}

/**
 * Given an exposition text, returns its metric families by name; throws an Error naming the line
 * on any violation of the format. Pure.
 *
 * @example
 * const families = parsePrometheusText(await (await fetch(url + '/metrics')).text());
 * sampleValue(families, 'tenure_webhooks_received_total', { type: 'RENEWAL', outcome: 'applied' }); // 3
 */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  const familyOf = (sampleName: string): PromFamily | undefined => {
    const own = families.get(sampleName);
    if (own !== undefined && !(own.type in SUFFIXES && !SUFFIXES[own.type]!.includes(''))) return own;
    for (const suffix of ['_bucket', '_sum', '_count']) {
      if (!sampleName.endsWith(suffix)) continue;
      const family = families.get(sampleName.slice(0, -suffix.length));
      if (family !== undefined && SUFFIXES[family.type]?.includes(suffix)) return family;
    }
    return undefined;
  };
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (m === null) continue; // a plain comment
      const [, kind, name, rest = ''] = m as unknown as [string, string, string, string | undefined];
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type in: ${line}`);
        if (family.samples.length > 0) throw new Error(`# TYPE after samples in: ${line}`);
        family.type = rest as PromFamily['type'];
      } else family.help = rest;
      families.set(name, family);
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`bad sample line: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
    let labels: Record<string, string> = {};
    let i = nameEnd;
    if (line[i] === '{') ({ labels, end: i } = parseLabels(line, i, line));
    if (line[i] !== ' ') throw new Error(`expected a space before the value in: ${line}`);
    const [valueText, timestamp, extra] = line.slice(i + 1).split(' ');
    if (valueText === undefined || extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) throw new Error(`bad value part in: ${line}`);
    const family = familyOf(name);
    if (family === undefined) throw new Error(`sample without a # TYPE of its family: ${line}`);
    const key = name + JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (seen.has(key)) throw new Error(`duplicate series: ${line}`);
    seen.add(key);
    family.samples.push({ name, labels: { ...labels }, value: parseValue(valueText, line) });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** Buckets cumulative in `le` order, a `+Inf` bucket equal to `_count`, per label set. */
function checkHistogram(family: PromFamily): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  const keyOf = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).filter(([k]) => k !== 'le').sort());
  for (const s of family.samples) {
    const entry = series.get(keyOf(s.labels)) ?? { buckets: [] };
    series.set(keyOf(s.labels), entry);
    if (s.name.endsWith('_bucket')) {
      const le = s.labels['le'];
      if (le === undefined) throw new Error(`${s.name} without le`);
      entry.buckets.push([parseValue(le, s.name), s.value]);
    } else if (s.name.endsWith('_count')) entry.count = s.value;
  }
  for (const [key, { buckets, count }] of series) {
    buckets.sort((a, b) => a[0] - b[0]);
    const last = buckets[buckets.length - 1];
    if (last === undefined || last[0] !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
    if (last[1] !== count) throw new Error(`${family.name}${key}: +Inf bucket ${last[1]} != _count ${count}`);
    buckets.forEach(([, v], i) => {
      if (i > 0 && v < buckets[i - 1]![1]) throw new Error(`${family.name}${key}: buckets not cumulative`);
    });
  }
}

/**
 * Given parsed families, a sample name and labels, returns the value of the one sample whose
 * labels are exactly those (0 when absent: a counter not yet incremented is not listed). Pure.
 *
 * @example
 * sampleValue(families, 'tenure_http_request_duration_seconds_count', { route: '/webhook', status_class: '2xx' });
 */
export function sampleValue(families: Map<string, PromFamily>, name: string, labels: Record<string, string> = {}): number {
  const base = [name, name.replace(/_(bucket|sum|count)$/, '')];
  const family = base.map((n) => families.get(n)).find((f) => f !== undefined);
  const wanted = Object.entries(labels);
  const match = family?.samples.find(
    (s) => s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v),
  );
  return match?.value ?? 0;
}
