import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenErrorSetting } from '../src/index.js';

/** What `listen(port, host)` rejects with (nothing is left listening). */
const listenError = (port: number, host: string) =>
  new Promise<unknown>((resolve, reject) => {
    const server = createServer();
    server.once('error', resolve);
    server.listen(port, host, () => server.close(() => reject(new Error(`listened on ${host}:${port}`))));
  });

describe('listenErrorSetting', () => {
  it('blames the port for an address in use', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const { port } = taken.address() as AddressInfo;
      expect(listenErrorSetting(await listenError(port, '127.0.0.1'), '127.0.0.1')).toBe('port');
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('blames the host for a name that does not resolve', async () => {
    expect(listenErrorSetting(await listenError(0, 'not-a-host'), 'not-a-host')).toBe('host');
  });

  it('blames the host for an address this machine does not have, the port for one it may not bind', () => {
    const listen = (code: string) => Object.assign(new Error(`listen ${code}`), { code, syscall: 'listen' });
    expect(listenErrorSetting(listen('EADDRNOTAVAIL'), '192.0.2.1')).toBe('host');
    expect(listenErrorSetting(listen('EACCES'), '127.0.0.1')).toBe('port');
  });

  it('blames neither for an error that is not the listen (a lookup of another name, a connect)', () => {
    const lookup = Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'db' });
    expect(listenErrorSetting(lookup, '127.0.0.1')).toBeNull();
    expect(listenErrorSetting(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' }), '127.0.0.1')).toBeNull();
    expect(listenErrorSetting('boom', '127.0.0.1')).toBeNull();
  });
});
