/** The qualified names of the store's tables in one schema, quoted once. */
import { quoteIdent } from './quoteIdent.js';

export interface Tables {
  schema: string;
  events: string;
  subscribers: string;
  meta: string;
  dispatches: string;
  cooldowns: string;
}

/** Given a schema name, returns its tables' qualified names. Pure. */
export function tablesOf(schema: string): Tables {
  const s = quoteIdent(schema);
  return {
    schema: s,
    events: `${s}.events`,
    subscribers: `${s}.subscribers`,
    meta: `${s}.meta`,
    dispatches: `${s}.dispatches`,
    cooldowns: `${s}.cooldowns`,
  };
}
