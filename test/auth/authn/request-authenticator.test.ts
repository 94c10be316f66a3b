import { describe, expect, it } from 'vitest';
import { AuthenticationError, bearerToken, createRequestAuthenticator, type ClientCertificate } from '../../../src/auth/authn/request-authenticator.js';
import { staticTokenAuthenticator } from '../../../src/auth/authn/token-file.js';
import { unionTokenAuthenticator } from '../../../src/auth/authn/token-union.js';
import type { TokenAuthenticator } from '../../../src/machinery/auth.js';

const tokens = staticTokenAuthenticator([{ token: 'good', user: { username: 'alice', uid: '1', groups: ['dev'] } }]);
const refusing: TokenAuthenticator = {
  authenticateToken: (t) => (t.startsWith('eyJ') ? Promise.reject(new Error('token is expired')) : Promise.resolve(undefined)),
};
const request = (headers: Record<string, string>, path = '/api', clientCertificate?: ClientCertificate) => ({
  header: (name: string) => headers[name] ?? null,
  path,
  clientCertificate,
});
const cert = (o: Partial<ClientCertificate>): ClientCertificate => ({ verified: true, commonName: 'carol', organizations: ['ops', 'qa'], ...o });

describe('authenticating a request', () => {
  const authenticate = createRequestAuthenticator({ anonymous: { enabled: true }, tokens: unionTokenAuthenticator([tokens, refusing]) });

  it('takes the CommonName and Organizations of a verified client certificate, adding system:authenticated', async () => {
    expect(await authenticate(request({}, '/api', cert({})))).toEqual({ username: 'carol', groups: ['ops', 'qa', 'system:authenticated'] });
  });

  it("gives a certificate's user its credential id and the uid of its subject's UID attribute (x509.CommonNameUserConversion)", async () => {
    expect(await authenticate(request({}, '/api', cert({ sha256: 'ab12', uids: ['u-1'] })))).toEqual({
      username: 'carol',
      uid: 'u-1',
      groups: ['ops', 'qa', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': ['X509SHA256=ab12'] },
    });
    expect(() => authenticate(request({}, '/api', cert({ uids: ['a', 'b'] })))).toThrow('expected 1 UID, but found multiple: [a b]');
    expect(() => authenticate(request({}, '/api', cert({ uids: [''] })))).toThrow('UID cannot be an empty string');
    // A failed conversion is a failure like any other: a token sent along still counts.
    expect((await authenticate(request({ authorization: 'Bearer good' }, '/api', cert({ uids: [''] })))).username).toBe('alice');
  });

  it('refuses a certificate that did not verify or is not for client authentication, even with anonymous on', async () => {
    expect(() => authenticate(request({}, '/api', cert({ verified: false, error: 'x509: certificate signed by unknown authority' })))).toThrow(
      AuthenticationError,
    );
    expect(() => authenticate(request({}, '/api', cert({ extendedKeyUsage: ['1.3.6.1.5.5.7.3.1'] })))).toThrow('incompatible key usage');
  });

  it('goes on to a bearer token sent with a certificate that does not verify, and refuses when both fail', async () => {
    const untrusted = cert({ verified: false, error: 'x509: certificate signed by unknown authority' });
    expect((await authenticate(request({ authorization: 'Bearer good' }, '/api', untrusted))).username).toBe('alice');
    expect((await authenticate(request({ authorization: 'Bearer good' }, '/api', cert({ extendedKeyUsage: ['1.3.6.1.5.5.7.3.1'] })))).username).toBe('alice');
    await expect(authenticate(request({ authorization: 'Bearer nope' }, '/api', untrusted))).rejects.toThrow(
      '[verifying certificate: x509: certificate signed by unknown authority, invalid bearer token]',
    );
  });

  it('goes on to the token when a certificate has no CommonName', async () => {
    expect((await authenticate(request({ authorization: 'Bearer good' }, '/api', cert({ commonName: '' })))).username).toBe('alice');
  });

  it('accepts a known bearer token and refuses an unknown or refused one with 401 even when anonymous requests are allowed', async () => {
    expect(await authenticate(request({ authorization: 'Bearer good' }))).toEqual({ username: 'alice', uid: '1', groups: ['dev', 'system:authenticated'] });
    await expect(authenticate(request({ authorization: 'Bearer nope' }))).rejects.toThrow('invalid bearer token');
    await expect(authenticate(request({ authorization: 'bearer eyJhbGc' }))).rejects.toThrow('token is expired');
  });

  it('serves requests without credentials as system:anonymous', async () => {
    expect(await authenticate(request({}))).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    // Not a bearer header: as if there were no credentials.
    expect((await authenticate(request({ authorization: 'Basic YTpi' }))).username).toBe('system:anonymous');
  });

  it('refuses requests without credentials when anonymous requests are off, or off for the path', async () => {
    expect(() => createRequestAuthenticator({ anonymous: { enabled: false } })(request({}))).toThrow(AuthenticationError);
    const onlyHealth = createRequestAuthenticator({ anonymous: { enabled: true, conditions: [{ path: '/healthz' }] } });
    expect((await onlyHealth(request({}, '/healthz'))).username).toBe('system:anonymous');
    expect(() => onlyHealth(request({}, '/healthz/etcd'))).toThrow(AuthenticationError);
  });

  it('answers at once without a bearer token, and by a promise when a token is checked', async () => {
    const anonymous = authenticate(request({}));
    expect(anonymous).not.toBeInstanceOf(Promise);
    expect(anonymous).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    const byToken = authenticate(request({ authorization: 'Bearer good' }));
    expect(byToken).toBeInstanceOf(Promise);
    expect((await byToken).username).toBe('alice');
  });

  it('reads the token of a bearer header as kube-apiserver does', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('  BEARER abc extra')).toBe('abc');
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Token abc')).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
  });
});

describe('why a request is refused', () => {
  const closed = createRequestAuthenticator({ anonymous: { enabled: false }, tokens: unionTokenAuthenticator([tokens, refusing]) });
  const reason = async (req: ReturnType<typeof request>) => {
    try {
      await closed(req);
    } catch (e) {
      expect(e).toBeInstanceOf(AuthenticationError);
      return (e as AuthenticationError).noCredentials;
    }
    throw new Error('accepted');
  };

  it('says "no credentials" only when nothing was refused (the metrics count a failure, not an error)', async () => {
    expect(await reason(request({}))).toBe(true);
    expect(await reason(request({ authorization: 'Basic abc' }))).toBe(true);
    // A certificate without a CommonName names no user: as if there were none.
    expect(await reason(request({}, '/api', cert({ commonName: '' })))).toBe(true);
    expect(await reason(request({ authorization: 'Bearer nope' }))).toBe(false);
    expect(await reason(request({ authorization: 'Bearer eyJexpired' }))).toBe(false);
    expect(await reason(request({}, '/api', cert({ verified: false })))).toBe(false);
  });
});
