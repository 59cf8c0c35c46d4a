/**
 * Store selection: a store spec (`--store` / `DATABASE_URL`) parsed into a typed choice, and the
 * store it names opened. The SQLite and PostgreSQL packages are imported dynamically, so a user who
 * embeds `createRetentionApp` with the memory store never loads a database driver.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SubscriberStore } from '@tenure/core';
import { createMemorySubscriberStore } from './memorySubscriberStore.js';

/** What `tenure serve` uses without `--store` or `DATABASE_URL`: a file beside the working directory. */
export const DEFAULT_STORE_SPEC = 'sqlite:./data/tenure.db';

/**
 * Which store to open. `sqlite` paths are file paths, relative to the working directory or absolute
 * (`:memory:` is SQLite's own in-memory database); `postgres` keeps the URL as given, minus the
 * `schema` parameter, which is tenure's own (pg does not know it).
 */
export type StoreSpec =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; schema?: string };

export type ParsedStoreSpec = { ok: true; spec: StoreSpec } | { ok: false; error: string };

const USAGE = 'use memory, sqlite:PATH or postgres://USER@HOST:PORT/DB';
/** A PostgreSQL identifier tenure creates the schema under (unquoted-safe, at most 63 bytes). */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Given a store spec (`memory`, `sqlite:PATH`, `postgres://…` or `postgresql://…`, optionally with
 * `?schema=NAME`), returns the parsed choice, or an error sentence saying what is wrong. Pure.
 *
 * `sqlite://…` is refused rather than guessed at: URL-style SQLite specs disagree between tools on
 * how many slashes make a path absolute, and a wrong guess silently writes the database elsewhere.
 *
 * @example
 * parseStoreSpec('sqlite:./data/tenure.db'); // { ok: true, spec: { kind: 'sqlite', path: './data/tenure.db' } }
 * parseStoreSpec('postgres://app@db:5432/tenure?schema=tenure'); // { ok: true, spec: { kind: 'postgres', url: 'postgres://app@db:5432/tenure', schema: 'tenure' } }
 */
export function parseStoreSpec(text: string): ParsedStoreSpec {
  const spec = text.trim();
  if (spec === 'memory') return { ok: true, spec: { kind: 'memory' } };
  if (spec.startsWith('sqlite://')) return { ok: false, error: 'write sqlite:PATH (e.g. sqlite:./data/tenure.db or sqlite:/var/lib/tenure/tenure.db), not a sqlite:// URL' };
  if (spec.startsWith('sqlite:')) {
    const path = spec.slice('sqlite:'.length);
    return path === '' ? { ok: false, error: 'sqlite: needs a file path, e.g. sqlite:./data/tenure.db' } : { ok: true, spec: { kind: 'sqlite', path } };
  }
  if (/^postgres(ql)?:\/\//.test(spec)) return parsePostgres(spec);
  return { ok: false, error: `unknown store kind: ${USAGE}` };
}

function parsePostgres(spec: string): ParsedStoreSpec {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    return { ok: false, error: `malformed PostgreSQL URL: ${USAGE}` };
  }
  const schema = url.searchParams.get('schema');
  if (schema === null) return { ok: true, spec: { kind: 'postgres', url: spec } };
  if (!SCHEMA_NAME.test(schema)) return { ok: false, error: `schema "${schema}" is not a plain identifier (letters, digits, _; at most 63)` };
  url.searchParams.delete('schema');
  return { ok: true, spec: { kind: 'postgres', url: url.toString(), schema } };
}

/**
 * Given a spec, returns how to name it in logs and errors, with any password replaced by `***`. Pure.
 *
 * @example
 * describeStoreSpec({ kind: 'postgres', url: 'postgres://app:s3cret@db/tenure' }); // 'postgres://app:***@db/tenure'
 */
export function describeStoreSpec(spec: StoreSpec): string {
  switch (spec.kind) {
    case 'memory':
      return 'memory';
    case 'sqlite':
      return `sqlite:${spec.path}`;
    case 'postgres':
      return `${redactStoreText(spec.url)}${spec.schema === undefined ? '' : ` (schema ${spec.schema})`}`;
  }
}

/**
 * Given any store spec text, even an unparsable one, returns it fit for a log line: the password of
 * a URL replaced by `***`. Pure.
 *
 * @example
 * redactStoreText('postgres://app:s3cret@db/x'); // 'postgres://app:***@db/x'
 */
export function redactStoreText(text: string): string {
  // Without a parser's help: anything between "//user:" and "@" is a password.
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

/** The longest PostgreSQL identifier, in bytes. */
const MAX_SCHEMA = 63;

/**
 * Given the spec of the production store, returns the spec of the store SANDBOX events are kept in,
 * apart from production (decision: a second namespace of the same kind): memory → memory; a SQLite
 * file → a file beside it with `.sandbox` before the extension (`:memory:` stays); PostgreSQL → the
 * same database, schema `<schema>_sandbox` (`public_sandbox` without one). Pure.
 *
 * @example
 * sandboxStoreSpec({ kind: 'sqlite', path: './data/tenure.db' }); // { kind: 'sqlite', path: './data/tenure.sandbox.db' }
 * sandboxStoreSpec({ kind: 'postgres', url, schema: 'tenure' }); // { kind: 'postgres', url, schema: 'tenure_sandbox' }
 */
export function sandboxStoreSpec(spec: StoreSpec): ParsedStoreSpec {
  switch (spec.kind) {
    case 'memory':
      return { ok: true, spec };
    case 'sqlite': {
      if (spec.path === ':memory:') return { ok: true, spec };
      const slash = Math.max(spec.path.lastIndexOf('/'), spec.path.lastIndexOf('\\'));
      const dot = spec.path.lastIndexOf('.');
      const path = dot > slash + 1 ? `${spec.path.slice(0, dot)}.sandbox${spec.path.slice(dot)}` : `${spec.path}.sandbox`;
      return { ok: true, spec: { kind: 'sqlite', path } };
    }
    case 'postgres': {
      const schema = `${spec.schema ?? 'public'}_sandbox`;
      if (schema.length > MAX_SCHEMA) return { ok: false, error: `the sandbox schema "${schema}" would be longer than ${MAX_SCHEMA} characters: use a shorter schema` };
      return { ok: true, spec: { kind: 'postgres', url: spec.url, schema } };
    }
  }
}

/** Options of `openStore` that only some stores use. */
export interface OpenStoreOptions {
  /** PostgreSQL `application_name` (shown in `pg_stat_activity`); default the driver's. */
  applicationName?: string;
}

/**
 * Given a parsed spec, opens the store it names: the memory store at once; SQLite after creating the
 * file's directory (schema migrated on open); PostgreSQL after connecting and migrating. Rejects with
 * an Error whose message is one line, `cannot open store <spec>: <reason>` (password redacted).
 *
 * @example
 * const parsed = parseStoreSpec(process.env.DATABASE_URL ?? DEFAULT_STORE_SPEC);
 * if (parsed.ok) app.use('/retention', createRetentionApp({ store: await openStore(parsed.spec) }));
 */
export async function openStore(spec: StoreSpec, options: OpenStoreOptions = {}): Promise<SubscriberStore> {
  try {
    switch (spec.kind) {
      case 'memory':
        return createMemorySubscriberStore();
      case 'sqlite': {
        if (spec.path !== ':memory:') mkdirSync(dirname(spec.path), { recursive: true });
        const { openSqliteStore } = await import('@tenure/store-sqlite');
        return await openSqliteStore({ path: spec.path });
      }
      case 'postgres': {
        const { openPostgresStore } = await import('@tenure/store-postgres');
        return await openPostgresStore({
          connectionString: spec.url,
          ...(spec.schema === undefined ? {} : { schema: spec.schema }),
          ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName }),
        });
      }
    }
  } catch (error) {
    throw new Error(`cannot open store ${describeStoreSpec(spec)}: ${errorLine(error)}`, { cause: error });
  }
}

/**
 * Given anything thrown, returns one line describing it (whitespace collapsed, passwords in URLs
 * redacted). Node's connect errors to a host with several addresses are AggregateErrors with an
 * empty message: their first inner error speaks. Pure.
 *
 * @example
 * io.stderr(`tenure export: ${errorLine(error)}\n`);
 */
export function errorLine(error: unknown): string {
  const text = (e: unknown): string => {
    if (!(e instanceof Error)) return String(e);
    if (e.message !== '') return e.message;
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) return text(inner[0]);
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? code : e.name;
  };
  return redactStoreText(text(error)).replace(/\s+/g, ' ').trim();
}
