/** Go's words for certificate and connection failures. */
import { describe, expect, it } from 'vitest';
import { goConnectionError, goHostnameError, goValidityError, joinHostPort } from '../../src/webhook/go-errors.js';

describe('goHostnameError', () => {
  it('matches IP SANs for an address and DNS SANs (one wildcard label) for a name', () => {
    expect(goHostnameError('IP Address:127.0.0.1', undefined, '127.0.0.1')).toBeUndefined();
    expect(goHostnameError('IP Address:0:0:0:0:0:0:0:1', undefined, '::1')).toBeUndefined();
    expect(goHostnameError('DNS:*.ns.svc', undefined, 'hook.ns.svc')).toBeUndefined();
    expect(goHostnameError('DNS:Hook.NS.svc', undefined, 'hook.ns.svc.')).toBeUndefined();
    expect(goHostnameError('DNS:*.ns.svc', undefined, 'a.hook.ns.svc')).toBe('x509: certificate is valid for *.ns.svc, not a.hook.ns.svc');
  });

  it('words each refusal as x509.HostnameError does', () => {
    expect(goHostnameError('DNS:a.example, DNS:b.example', undefined, '127.0.0.1')).toBe(
      "x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs",
    );
    expect(goHostnameError('IP Address:10.0.0.1, IP Address:10.0.0.2', undefined, '127.0.0.1')).toBe(
      'x509: certificate is valid for 10.0.0.1, 10.0.0.2, not 127.0.0.1',
    );
    expect(goHostnameError('DNS:a.example, DNS:b.example', undefined, 'c.example')).toBe('x509: certificate is valid for a.example, b.example, not c.example');
    expect(goHostnameError('IP Address:10.0.0.1', undefined, 'c.example')).toBe('x509: certificate is not valid for any names, but wanted to match c.example');
    expect(goHostnameError('', 'c.example', 'c.example')).toBe('x509: certificate relies on legacy Common Name field, use SANs instead');
  });
});

describe('goValidityError', () => {
  it('names the current time and the bound it is outside of, in RFC 3339', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-02-01T00:00:00Z');
    expect(goValidityError(from, to, new Date('2026-01-15T00:00:00Z'))).toBeUndefined();
    expect(goValidityError(from, to, new Date('2025-12-31T23:59:59.500Z'))).toBe(
      'x509: certificate has expired or is not yet valid: current time 2025-12-31T23:59:59Z is before 2026-01-01T00:00:00Z',
    );
    expect(goValidityError(from, to, new Date('2026-03-01T00:00:00Z'))).toBe(
      'x509: certificate has expired or is not yet valid: current time 2026-03-01T00:00:00Z is after 2026-02-01T00:00:00Z',
    );
  });
});

describe('goConnectionError', () => {
  it('maps Node error codes to Go texts', () => {
    expect(goConnectionError({ code: 'ECONNREFUSED', address: '::1', port: 8443 })).toBe('dial tcp [::1]:8443: connect: connection refused');
    expect(goConnectionError({ code: 'ENOTFOUND', hostname: 'x.invalid' })).toBe('dial tcp: lookup x.invalid: no such host');
    expect(goConnectionError({ code: 'ECONNRESET', message: 'socket hang up' })).toBe('EOF');
    expect(goConnectionError({ code: 'ERR_SSL_WRONG_VERSION_NUMBER' })).toBe('http: server gave HTTP response to HTTPS client');
    expect(goConnectionError(new Error('odd'))).toBe('odd');
    expect(goConnectionError('text')).toBe('text');
  });

  it('joins hosts and ports as net.JoinHostPort', () => {
    expect(joinHostPort('10.0.0.1', 443)).toBe('10.0.0.1:443');
    expect(joinHostPort('fd00::1', 443)).toBe('[fd00::1]:443');
  });
});
