/** The qualified names of the store's tables in one schema, quoted once. */
import { quoteIdent } from './quoteIdent.js';

export interface Tables {
  schema: string;
  /**
   * SQL that takes the transaction's advisory lock of one customer, given the SQL of its id. The
   * hash is seeded with the schema name, so two tenure schemas in one database never share a lock.
   */
  customerLock: (idSql: string) => string;
  events: string;
  subscribers: string;
  /** Insert-only changes of (state, score) → count and monthly value; see migrations.ts, version 2. */
  atRiskDeltas: string;
  meta: string;
  dispatches: string;
  cooldowns: string;
  /** Named progress markers (version 3). */
  checkpoints: string;
  /** Applied TRANSFER events (version 3). */
  transfers: string;
  /** Every id a person's events name, to its record's key (version 4). */
  identities: string;
  /** One DailySnapshot per UTC day (version 5). */
  dailySnapshots: string;
  /** Persons an import session stored events of and has not folded yet (version 6). */
  importPending: string;
  /** Subscriptions a TRANSFER moved, to their receiving id (version 7). */
  movedSubscriptions: string;
}

/** Given a schema name, returns its tables' qualified names. Pure. */
export function tablesOf(schema: string): Tables {
  const s = quoteIdent(schema);
  const seed = fnv1a(schema);
  return {
    schema: s,
    customerLock: (idSql) => `pg_advisory_xact_lock(hashtextextended(${idSql}, ${seed}))`,
    events: `${s}.events`,
    subscribers: `${s}.subscribers`,
    atRiskDeltas: `${s}.at_risk_deltas`,
    meta: `${s}.meta`,
    dispatches: `${s}.dispatches`,
    cooldowns: `${s}.cooldowns`,
    checkpoints: `${s}.checkpoints`,
    transfers: `${s}.transfers`,
    identities: `${s}.identities`,
    dailySnapshots: `${s}.daily_snapshots`,
    importPending: `${s}.import_pending`,
    movedSubscriptions: `${s}.moved_subscriptions`,
  };
}

/** The 32-bit FNV-1a hash of a text's UTF-16 units: a stable number per schema name. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
