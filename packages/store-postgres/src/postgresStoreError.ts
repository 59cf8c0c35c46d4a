/**
 * Why the PostgreSQL store could not open or could not run a step, in one line that names the
 * problem (bad URL, unreachable server, refused login, failed migration), with the driver's error
 * as `cause`. A CLI prints `message` and stops; no stack trace is needed to act on it.
 *
 * @example
 * try { await openPostgresStore({ connectionString }); }
 * catch (error) { if (error instanceof PostgresStoreError) console.error(error.message); }
 */
export class PostgresStoreError extends Error {
  override readonly name = 'PostgresStoreError';
}
