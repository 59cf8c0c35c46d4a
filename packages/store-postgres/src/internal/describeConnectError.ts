/**
 * Turning the driver's connection failures into one clear line, and checking a connection URL
 * before the driver sees it (the driver reads a malformed URL as a socket path or a host name and
 * fails later with a puzzling message).
 */
import { PostgresStoreError } from '../postgresStoreError.js';

/** Where the store connects, for messages: host:port and user, never the password. */
export interface ConnectTarget {
  address: string;
  user: string;
  database: string;
}

/**
 * Given a connection string, returns where it points, or throws a `PostgresStoreError` saying what
 * is wrong with it. Pure.
 */
export function parseConnectionString(connectionString: string): ConnectTarget {
  const shape = 'expected postgres://user[:password]@host[:port]/database';
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new PostgresStoreError(`malformed PostgreSQL URL "${redact(connectionString)}": ${shape}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new PostgresStoreError(`malformed PostgreSQL URL "${redact(connectionString)}": the scheme is ${url.protocol.replace(/:$/, '')}, ${shape}`);
  }
  if (url.hostname === '' && !url.searchParams.has('host')) {
    throw new PostgresStoreError(`malformed PostgreSQL URL "${redact(connectionString)}": no host, ${shape}`);
  }
  let user: string;
  let database: string;
  try {
    user = decodeURIComponent(url.username) || 'postgres';
    database = decodeURIComponent(url.pathname.slice(1)) || user;
  } catch {
    throw new PostgresStoreError(`malformed PostgreSQL URL "${redact(connectionString)}": bad %-escape in the user or database name`);
  }
  const host = url.hostname || (url.searchParams.get('host') ?? '');
  return { address: `${host}:${url.port || '5432'}`, user, database };
}

/** The URL with its password replaced, for messages and logs. */
export function redact(connectionString: string): string {
  return connectionString.replace(/^([a-z]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
}

/** Error codes of PostgreSQL (SQLSTATE) and of Node's sockets that have a plainer explanation. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is PostgreSQL running and listening there?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset by the server',
};

/**
 * Given a failure to connect (or to run the first statement) and where the store was connecting,
 * returns a `PostgresStoreError` with one line naming the problem. Pure.
 */
export function describeConnectError(error: unknown, target: ConnectTarget, timeoutMs: number): PostgresStoreError {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(error);
  const network = NETWORK_REASONS[code];
  if (network !== undefined) return new PostgresStoreError(`cannot reach PostgreSQL at ${target.address}: ${network}`, { cause: error });
  if (/timeout/i.test(message)) {
    return new PostgresStoreError(`cannot reach PostgreSQL at ${target.address}: no answer within ${timeoutMs / 1000} s`, { cause: error });
  }
  if (code === '28P01' || code === '28000') {
    return new PostgresStoreError(`PostgreSQL at ${target.address} refused user "${target.user}": ${message}`, { cause: error });
  }
  if (code === '3D000') return new PostgresStoreError(`PostgreSQL at ${target.address} has no database "${target.database}"`, { cause: error });
  if (code === '53300') return new PostgresStoreError(`PostgreSQL at ${target.address} has no free connection: ${message}`, { cause: error });
  return new PostgresStoreError(`cannot connect to PostgreSQL at ${target.address}: ${message}`, { cause: error });
}
