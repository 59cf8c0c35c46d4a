/**
 * Which configuration the stored at-risk rows were built with. The fingerprint is kept in the
 * `meta` table, so a restart with changed rules re-materializes every row once, and a replica that
 * finds the rows already rebuilt by another skips the work.
 */
import { configFingerprint, type ProgressListener, type StoreContext, type TenureConfig } from '@tenure/core';
import type pg from 'pg';
import type { Tables } from './tables.js';

const FINGERPRINT_KEY = 'config_fingerprint';

export class ConfigGuard {
  /** The configuration last seen equal to the stored fingerprint: the common case is one `===`. */
  #current: TenureConfig | undefined;
  #fingerprint: string | undefined;
  #pending: Promise<number | null> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly t: Tables,
    /** Re-materializes every row for `ctx.config`; resolves with how many. */
    private readonly rebuild: (ctx: StoreContext, onProgress?: ProgressListener) => Promise<number>,
  ) {}

  get #lockName(): string {
    return `tenure:rebuild:${this.t.schema}`;
  }

  /** Reads the stored fingerprint (at open). */
  async load(): Promise<void> {
    this.#fingerprint = await this.#read(this.pool);
  }

  /**
   * Resolves once the rows are built with `ctx.config`: at once with null when they are, else after
   * re-materializing every row at `ctx.now` (one replica at a time; the others wait, then find it
   * done and resolve with null) with how many rows this call rebuilt.
   */
  ensure(ctx: StoreContext, onProgress?: ProgressListener): Promise<number | null> {
    const { config } = ctx;
    if (config === this.#current) return Promise.resolve(null);
    const fingerprint = configFingerprint(config);
    if (fingerprint === this.#fingerprint) {
      this.#current = config;
      return Promise.resolve(null);
    }
    // One switch at a time in this process: a caller queued behind a switch to the same
    // configuration finds it done.
    const next = (this.#pending ?? Promise.resolve()).catch(() => undefined).then(() => this.#switchTo(ctx, fingerprint, onProgress));
    this.#pending = next;
    return next;
  }

  /** Records that the rows are built with `config` (after a replay rebuilt them all). */
  async mark(config: TenureConfig): Promise<void> {
    const fingerprint = configFingerprint(config);
    await this.#write(this.pool, fingerprint);
    this.#fingerprint = fingerprint;
    this.#current = config;
  }

  async #switchTo(ctx: StoreContext, fingerprint: string, onProgress: ProgressListener | undefined): Promise<number | null> {
    const { config } = ctx;
    if (fingerprint === this.#fingerprint) {
      this.#current = config;
      return null;
    }
    const client = await this.pool.connect();
    try {
      let rebuilt: number | null = null;
      // A session lock per schema, held while every row is rebuilt for the new configuration.
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [this.#lockName]);
      try {
        if ((await this.#read(client)) !== fingerprint) {
          rebuilt = await this.rebuild(ctx, onProgress);
          await this.#write(client, fingerprint);
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this.#lockName]);
      }
      this.#fingerprint = fingerprint;
      this.#current = config;
      return rebuilt;
    } finally {
      client.release();
    }
  }

  async #read(db: pg.Pool | pg.ClientBase): Promise<string | undefined> {
    const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${this.t.meta} WHERE key = $1`, [FINGERPRINT_KEY]);
    return rows[0]?.value;
  }

  async #write(db: pg.Pool | pg.ClientBase, fingerprint: string): Promise<void> {
    await db.query(`INSERT INTO ${this.t.meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [FINGERPRINT_KEY, fingerprint]);
  }
}
