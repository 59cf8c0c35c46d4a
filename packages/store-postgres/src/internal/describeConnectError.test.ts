import { describe, expect, it } from 'vitest';
import { describeConnectError, parseConnectionString, redact } from './describeConnectError.js';

const target = { address: 'db:5432', user: 'app', database: 'tenure' };

describe('parseConnectionString', () => {
  it('reads host, port, user and database, with the defaults libpq uses', () => {
    expect(parseConnectionString('postgres://app:pw@db:6543/tenure')).toEqual({ address: 'db:6543', user: 'app', database: 'tenure' });
    expect(parseConnectionString('postgresql://db')).toEqual({ address: 'db:5432', user: 'postgres', database: 'postgres' });
    expect(parseConnectionString('postgres://%C3%A9mile@[::1]/t%20x')).toEqual({ address: '[::1]:5432', user: 'émile', database: 't x' });
  });

  it.each([
    ['not a url', 'malformed PostgreSQL URL "not a url": expected postgres://user[:password]@host[:port]/database'],
    ['postgres://app:pw@db:99999/x', 'malformed PostgreSQL URL "postgres://app:***@db:99999/x": expected postgres://user[:password]@host[:port]/database'],
    ['http://db/x', 'malformed PostgreSQL URL "http://db/x": the scheme is http, expected postgres://user[:password]@host[:port]/database'],
    ['postgres:///x', 'malformed PostgreSQL URL "postgres:///x": no host, expected postgres://user[:password]@host[:port]/database'],
    ['postgres://%E0%A4%A@db/x', 'malformed PostgreSQL URL "postgres://%E0%A4%A@db/x": bad %-escape in the user or database name'],
  ])('refuses %s with one line', (url, message) => {
    expect(() => parseConnectionString(url)).toThrow(message);
  });
});

describe('redact', () => {
  it('hides the password and nothing else', () => {
    expect(redact('postgres://app:s3cret@db/x')).toBe('postgres://app:***@db/x');
    expect(redact('postgres://app@db/x')).toBe('postgres://app@db/x');
  });
});

describe('describeConnectError', () => {
  const message = (error: unknown) => describeConnectError(error, target, 5000).message;

  it('says the server cannot be reached, and why, for network failures', () => {
    expect(message(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(
      'cannot reach PostgreSQL at db:5432: connection refused (is PostgreSQL running and listening there?)',
    );
    expect(message(Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND' }))).toBe('cannot reach PostgreSQL at db:5432: host not found');
    expect(message(new Error('Connection terminated due to connection timeout'))).toBe('cannot reach PostgreSQL at db:5432: no answer within 5 s');
  });

  it('names the refused user and the missing database', () => {
    expect(message(Object.assign(new Error('password authentication failed for user "app"'), { code: '28P01' }))).toBe(
      'PostgreSQL at db:5432 refused user "app": password authentication failed for user "app"',
    );
    expect(message(Object.assign(new Error('database "tenure" does not exist'), { code: '3D000' }))).toBe('PostgreSQL at db:5432 has no database "tenure"');
  });

  it('keeps the driver error as the cause', () => {
    const cause = Object.assign(new Error('x'), { code: 'ECONNRESET' });
    expect(describeConnectError(cause, target, 5000).cause).toBe(cause);
  });
});
