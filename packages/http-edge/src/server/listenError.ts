/**
 * Which setting a failed `listen()` blames, so each CLI can say in one line what to change: a port
 * in use (or one the process may not bind) is the port's fault; a host name that does not resolve,
 * or an address this machine does not have, is the host's.
 */

/** The setting a listen error blames. */
export type ListenSetting = 'host' | 'port';

// Errors of `listen` itself, by code; any other code of a listen (EADDRNOTAVAIL, EINVAL,
// EAFNOSUPPORT) is about the address, so the host's.
const PORT_CODES: ReadonlySet<string> = new Set(['EADDRINUSE', 'EACCES']);

/**
 * Given what `server.listen(port, host)` rejected with and the host it was given, returns the
 * setting at fault: `port` for EADDRINUSE and EACCES, `host` for another listen error or a failed
 * lookup of that host (getaddrinfo ENOTFOUND, EAI_AGAIN); null for an error that is not the listen's
 * (a store or a lookup of another name), which the caller reports as it did. Pure.
 *
 * @example
 * listenErrorSetting(Object.assign(new Error('getaddrinfo ENOTFOUND db'), { syscall: 'getaddrinfo', hostname: 'db' }), 'db'); // 'host'
 */
export function listenErrorSetting(error: unknown, host: string): ListenSetting | null {
  if (typeof error !== 'object' || error === null) return null;
  const { syscall, code, hostname } = error as { syscall?: unknown; code?: unknown; hostname?: unknown };
  if (syscall === 'listen') return typeof code === 'string' && PORT_CODES.has(code) ? 'port' : 'host';
  if (syscall === 'getaddrinfo' && hostname === host) return 'host';
  return null;
}
