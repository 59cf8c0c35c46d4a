import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeStoreSpec, errorLine, openStore, parseStoreSpec, redactStoreText, sandboxStoreSpec } from './openStore.js';

describe('parseStoreSpec', () => {
  it.each([
    ['memory', { kind: 'memory' }],
    ['sqlite:./data/tenure.db', { kind: 'sqlite', path: './data/tenure.db' }],
    ['sqlite:/var/lib/tenure/tenure.db', { kind: 'sqlite', path: '/var/lib/tenure/tenure.db' }],
    ['sqlite::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['  memory  ', { kind: 'memory' }],
    ['postgres://app@db:5432/tenure', { kind: 'postgres', url: 'postgres://app@db:5432/tenure' }],
    ['postgresql://app:pw@db/tenure?sslmode=require', { kind: 'postgres', url: 'postgresql://app:pw@db/tenure?sslmode=require' }],
    ['postgres://app@db/tenure?schema=tenure_1&sslmode=disable', { kind: 'postgres', url: 'postgres://app@db/tenure?sslmode=disable', schema: 'tenure_1' }],
  ])('reads %j', (text, spec) => {
    expect(parseStoreSpec(text)).toEqual({ ok: true, spec });
  });

  it.each([
    ['', /unknown store kind/],
    ['mysql://u@h/db', /unknown store kind: use memory, sqlite:PATH or postgres:/],
    ['./data/tenure.db', /unknown store kind/],
    ['sqlite:', /needs a file path/],
    ['sqlite:///var/lib/tenure.db', /write sqlite:PATH/],
    ['postgres://[::1', /malformed PostgreSQL URL/],
    ['postgres://h:99999/db', /malformed PostgreSQL URL/],
    ['postgres://h/db?schema=a;drop', /not a plain identifier/],
  ])('refuses %j with a sentence naming the problem', (text, message) => {
    const parsed = parseStoreSpec(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('sandboxStoreSpec', () => {
  it('names a second namespace of the same kind for SANDBOX events', () => {
    expect(sandboxStoreSpec({ kind: 'memory' })).toEqual({ ok: true, spec: { kind: 'memory' } });
    expect(sandboxStoreSpec({ kind: 'sqlite', path: './data/tenure.db' })).toEqual({ ok: true, spec: { kind: 'sqlite', path: './data/tenure.sandbox.db' } });
    expect(sandboxStoreSpec({ kind: 'sqlite', path: '/var/lib/v1.2/tenure' })).toEqual({ ok: true, spec: { kind: 'sqlite', path: '/var/lib/v1.2/tenure.sandbox' } });
    expect(sandboxStoreSpec({ kind: 'sqlite', path: './.tenure' })).toEqual({ ok: true, spec: { kind: 'sqlite', path: './.tenure.sandbox' } });
    expect(sandboxStoreSpec({ kind: 'sqlite', path: ':memory:' })).toEqual({ ok: true, spec: { kind: 'sqlite', path: ':memory:' } });
    const url = 'postgres://app@db/tenure';
    expect(sandboxStoreSpec({ kind: 'postgres', url, schema: 'tenure' })).toEqual({ ok: true, spec: { kind: 'postgres', url, schema: 'tenure_sandbox' } });
    expect(sandboxStoreSpec({ kind: 'postgres', url })).toEqual({ ok: true, spec: { kind: 'postgres', url, schema: 'public_sandbox' } });
    expect(sandboxStoreSpec({ kind: 'postgres', url, schema: 'x'.repeat(60) })).toMatchObject({ ok: false });
  });
});

describe('describeStoreSpec and redactStoreText', () => {
  it('never shows a password', () => {
    expect(describeStoreSpec({ kind: 'postgres', url: 'postgres://app:s3cret@db/tenure' })).toBe('postgres://app:***@db/tenure');
    expect(describeStoreSpec({ kind: 'postgres', url: 'postgres://app@db/tenure', schema: 's' })).toBe('postgres://app@db/tenure (schema s)');
    expect(describeStoreSpec({ kind: 'sqlite', path: 'x.db' })).toBe('sqlite:x.db');
    expect(redactStoreText('mysql://root:hunter2@h/db')).toBe('mysql://root:***@h/db');
    expect(redactStoreText('sqlite:./a:b@c.db')).toBe('sqlite:./a:b@c.db');
  });
});

describe('errorLine', () => {
  it('gives one line, falling back to the first inner error of an AggregateError', () => {
    expect(errorLine(new Error('first\n  second'))).toBe('first second');
    expect(errorLine(new AggregateError([new Error('connect ECONNREFUSED ::1:1')], ''))).toBe('connect ECONNREFUSED ::1:1');
    expect(errorLine('plain')).toBe('plain');
  });
});

describe('openStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenure-open-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the memory store without a driver', async () => {
    const store = await openStore({ kind: 'memory' });
    expect(store.kind).toBe('memory');
    await store.close();
  });

  it('creates the directory of a SQLite file on first run', async () => {
    const path = join(dir, 'nested', 'deeper', 'tenure.db');
    const store = await openStore({ kind: 'sqlite', path });
    try {
      expect(store.kind).toBe(`sqlite:${path}`);
      expect(await store.count()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('rejects with one line naming the store when the path cannot be created', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const error = await openStore({ kind: 'sqlite', path: join(file, 'x.db') }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(new RegExp(`^cannot open store sqlite:${file}/x\\.db: .+`));
    expect(error?.message).not.toContain('\n');
  });
});
