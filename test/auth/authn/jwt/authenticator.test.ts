import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticators, type JwtAuthenticatorOptions, type JwtAuthenticators } from '../../../../src/auth/authn/jwt/index.js';
import { toInternalAuthenticationConfiguration, type JWTAuthenticatorInput } from '../../../../src/config/authentication/index.js';
import { generateServingCertificate } from '../../../../src/pki/self-signed.js';
import { CompactSign } from 'jose';
import { sign, signingKey, startProvider, type OidcProvider, type SigningKey } from './oidc-server.js';

const T0 = Date.UTC(2026, 0, 1);
let clock = T0;
const now = () => clock;
const seconds = (ms: number) => Math.floor(ms / 1000);

let provider: OidcProvider;
let rsa: SigningKey;
let ec: SigningKey;
let open: JwtAuthenticators[] = [];

beforeAll(async () => {
  rsa = await signingKey('RS256', 'rsa-1');
  ec = await signingKey('ES256', 'ec-1');
  provider = await startProvider([rsa.jwk, ec.jwk]);
});
afterAll(() => provider.close());
afterEach(() => {
  open.forEach((a) => a.close());
  open = [];
  clock = T0;
  provider.behaviour.keys = [rsa.jwk, ec.jwk];
  provider.behaviour.discovery = undefined;
  provider.behaviour.discoveredIssuer = undefined;
  provider.behaviour.hangDiscovery = false;
  provider.behaviour.jwksCacheControl = undefined;
  provider.behaviour.jwks = undefined;
});

function jwt(more: Partial<JWTAuthenticatorInput> = {}, issuer: Partial<NonNullable<JWTAuthenticatorInput['issuer']>> = {}): JWTAuthenticatorInput {
  return {
    issuer: { url: provider.url, audiences: ['memkube'], certificateAuthority: provider.ca, ...issuer },
    claimMappings: { username: { claim: 'sub', prefix: 'oidc:' } },
    ...more,
  };
}

async function authenticators(list: JWTAuthenticatorInput[], options: JwtAuthenticatorOptions = {}): Promise<JwtAuthenticators> {
  const config = toInternalAuthenticationConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration', jwt: list });
  const a = createJwtAuthenticators(config, { now, jwksMinRefreshIntervalMs: 0, ...options });
  open.push(a);
  await a.settled();
  return a;
}

function claims(more: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: provider.url, aud: 'memkube', sub: 'alice', iat: seconds(clock), exp: seconds(clock) + 3600, ...more };
}

async function refusal(a: JwtAuthenticators, token: string): Promise<string> {
  try {
    const r = await a.authenticateToken(token);
    throw new Error(`accepted: ${JSON.stringify(r)}`);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return (e as Error).message;
  }
}

describe('JWT authenticator: tokens', () => {
  it('accepts RS256 and ES256 tokens and maps the username claim with its prefix', async () => {
    const a = await authenticators([jwt()]);
    expect(a.healthCheck()).toEqual([]);
    expect(await a.authenticateToken(await sign(rsa, claims()))).toEqual({ user: { username: 'oidc:alice', groups: [] } });
    expect(await a.authenticateToken(await sign(ec, claims({ sub: 'bob', jti: 'j-1' })))).toEqual({
      user: { username: 'oidc:bob', groups: [], extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j-1'] } },
    });
  });

  it('answers undefined for tokens of other issuers and for what is not a JWT', async () => {
    const a = await authenticators([jwt()]);
    expect(await a.authenticateToken(await sign(rsa, claims({ iss: 'https://elsewhere' })))).toBeUndefined();
    expect(await a.authenticateToken('not-a-jwt')).toBeUndefined();
    expect(await a.authenticateToken('{"iss":"x"}')).toBeUndefined();
    expect(await a.authenticateToken('x'.repeat(2 << 20))).toBeUndefined();
  });

  it('refuses expired and not-yet-valid tokens by the injected clock', async () => {
    const a = await authenticators([jwt()]);
    expect(await refusal(a, await sign(rsa, claims({ exp: seconds(T0) - 3600 })))).toBe(
      'oidc: verify token: oidc: token is expired (Token Expiry: 2025-12-31 23:00:00 +0000 UTC)',
    );
    const { exp: _exp, ...noExp } = claims();
    expect(await refusal(a, await sign(rsa, noExp))).toBe('oidc: verify token: oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)');
    expect(await refusal(a, await sign(rsa, claims({ nbf: seconds(T0) + 300 })))).toBe(
      'oidc: verify token: oidc: current time 2026-01-01 00:00:00 +0000 UTC before the nbf (not before) time: 2026-01-01 00:05:00 +0000 UTC',
    );
    // One minute of leeway for nbf; a token whose exp has not passed is fine.
    expect(await a.authenticateToken(await sign(rsa, claims({ nbf: seconds(T0) + 50 })))).toBeDefined();
    const token = await sign(rsa, claims({ exp: seconds(T0) + 10 }));
    expect(await a.authenticateToken(token)).toBeDefined();
    clock = T0 + 11_000;
    expect(await refusal(a, token)).toBe('oidc: verify token: oidc: token is expired (Token Expiry: 2026-01-01 00:00:10 +0000 UTC)');
  });

  it('checks the audience, one or any of several', async () => {
    const one = await authenticators([jwt()]);
    expect(await refusal(one, await sign(rsa, claims({ aud: ['other', 'x'] })))).toBe(
      'oidc: verify token: oidc: expected audience "memkube" got ["other" "x"]',
    );
    expect(await one.authenticateToken(await sign(rsa, claims({ aud: ['other', 'memkube'] })))).toBeDefined();
    const any = await authenticators([jwt({}, { audiences: ['b-aud', 'a-aud'], audienceMatchPolicy: 'MatchAny' })]);
    expect(await any.authenticateToken(await sign(rsa, claims({ aud: 'b-aud' })))).toBeDefined();
    expect(await refusal(any, await sign(rsa, claims({ aud: 'c' })))).toBe('oidc: verify token: oidc: expected audience in ["a-aud" "b-aud"] got ["c"]');
  });

  it('refuses bad signatures, unsupported algorithms and claims of the wrong type', async () => {
    const a = await authenticators([jwt()]);
    const forger = await signingKey('RS256', 'rsa-1');
    expect(await refusal(a, await sign(forger, claims()))).toBe('oidc: verify token: failed to verify signature: failed to verify id token signature');
    const good = await sign(rsa, claims());
    const [h, p] = good.split('.');
    expect(await refusal(a, `${h}.${p}.${Buffer.from('nope').toString('base64url')}`)).toBe(
      'oidc: verify token: failed to verify signature: failed to verify id token signature',
    );
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect(await refusal(a, none)).toBe(
      'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["ES256" "ES384" "ES512" "PS256" "PS384" "PS512" "RS256" "RS384" "RS512"] got "none"',
    );
    const hs = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${p}.${Buffer.from('x').toString('base64url')}`;
    expect(await refusal(a, hs)).toMatch(/unsupported algorithm, expected .* got "HS256"$/);
    expect(await refusal(a, await sign(rsa, claims({ exp: 'soon' })))).toBe(
      'oidc: verify token: oidc: failed to unmarshal claims: json: invalid number literal, trying to unmarshal "\\"soon\\"" into Number',
    );
    expect(await refusal(a, await sign(rsa, claims({ aud: 5 })))).toBe(
      'oidc: verify token: oidc: failed to unmarshal claims: json: cannot unmarshal number into Go value of type []string',
    );
    expect(await refusal(a, await sign(rsa, claims({ sub: 5 })))).toBe(
      'oidc: verify token: oidc: failed to unmarshal claims: json: cannot unmarshal number into Go struct field idToken.sub of type string',
    );
    expect(await refusal(a, `!!.${p}.sig`)).toBe('oidc: verify token: oidc: malformed jwt: illegal base64 data at input byte 0');
  });

  it('fetches the key set again for an unknown key (rotation), at most once per interval', async () => {
    const a = await authenticators([jwt()], { jwksMinRefreshIntervalMs: 10_000 });
    expect(await a.authenticateToken(await sign(rsa, claims()))).toBeDefined();
    const fetched = provider.requests.jwks;
    const rotated = await signingKey('RS256', 'rsa-2');
    provider.behaviour.keys = [rotated.jwk];
    const newToken = await sign(rotated, claims());
    // Too soon after the last fetch: refused without asking the issuer, however many tokens come.
    for (let i = 0; i < 20; i++) {
      expect(await refusal(a, newToken)).toBe('oidc: verify token: failed to verify signature: failed to verify id token signature');
    }
    expect(provider.requests.jwks).toBe(fetched);
    clock += 10_000;
    expect(await a.authenticateToken(newToken)).toEqual({ user: { username: 'oidc:alice', groups: [] } });
    expect(provider.requests.jwks).toBe(fetched + 1);
    // A stream of tokens signed by unknown keys makes one fetch per interval.
    const stranger = await signingKey('ES256', 'unknown');
    clock += 10_000;
    await Promise.all(Array.from({ length: 10 }, async () => refusal(a, await sign(stranger, claims()))));
    expect(provider.requests.jwks).toBe(fetched + 2);
    // The old key is gone with the rotation.
    expect(await refusal(a, await sign(rsa, claims()))).toBe('oidc: verify token: failed to verify signature: failed to verify id token signature');
  });

  it('says why the key set could not be fetched', async () => {
    const a = await authenticators([jwt()]);
    provider.behaviour.jwks = { status: 503, body: 'down' };
    expect(await refusal(a, await sign(rsa, claims()))).toBe(
      'oidc: verify token: failed to verify signature: fetching keys oidc: get keys failed: 503 Service Unavailable down',
    );
    provider.behaviour.jwks = { status: 200, body: '<html>' };
    expect(await refusal(a, await sign(rsa, claims()))).toBe(
      "oidc: verify token: failed to verify signature: fetching keys oidc: failed to decode keys: got Content-Type = application/json, but could not unmarshal as JSON: invalid character '<' looking for beginning of value <html>",
    );
    provider.behaviour.jwks = undefined;
    expect(await a.authenticateToken(await sign(rsa, claims()))).toBeDefined();
  });

  it('connects through the agent it is given', async () => {
    const { Agent } = await import('node:https');
    const seen: string[] = [];
    const agent = new Agent({ keepAlive: false });
    const a = await authenticators([jwt({}, { egressSelectorType: 'cluster' })], {
      agentFor: (url, egress) => {
        seen.push(`${egress} ${url.pathname}`);
        return agent;
      },
    });
    expect(await a.authenticateToken(await sign(rsa, claims()))).toBeDefined();
    expect(seen).toEqual(['cluster /.well-known/openid-configuration', 'cluster /jwks']);
    agent.destroy();
  });

  it('keeps keys for as long as Cache-Control says', async () => {
    provider.behaviour.jwksCacheControl = 'public, max-age=3600';
    const a = await authenticators([jwt()]);
    expect(await a.authenticateToken(await sign(rsa, claims()))).toBeDefined();
    const fetched = provider.requests.jwks;
    const stranger = await signingKey('RS256', 'other');
    await refusal(a, await sign(stranger, claims()));
    expect(provider.requests.jwks).toBe(fetched);
    clock += 3600_000;
    await refusal(a, await sign(stranger, claims()));
    expect(provider.requests.jwks).toBe(fetched + 1);
  });
});

describe('JWT authenticator: claims to user', () => {
  it('maps groups and uid claims, and checks required claims', async () => {
    const a = await authenticators([
      jwt({
        claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: 'g:' }, uid: { claim: 'oid' } },
        claimValidationRules: [{ claim: 'hd', requiredValue: 'example.com' }],
      }),
    ]);
    expect(await a.authenticateToken(await sign(rsa, claims({ groups: ['a', 'b'], oid: 'u-1', hd: 'example.com' })))).toEqual({
      user: { username: 'alice', groups: ['g:a', 'g:b'], uid: 'u-1' },
    });
    expect(await a.authenticateToken(await sign(rsa, claims({ groups: 'solo', oid: 'u-1', hd: 'example.com' })))).toEqual({
      user: { username: 'alice', groups: ['g:solo'], uid: 'u-1' },
    });
    expect(await refusal(a, await sign(rsa, claims({ oid: 'u-1' })))).toBe('oidc: required claim hd not present in ID token');
    expect(await refusal(a, await sign(rsa, claims({ oid: 'u-1', hd: 'evil.com' })))).toBe(
      'oidc: required claim hd value does not match. Got = evil.com, want = example.com',
    );
    expect(await refusal(a, await sign(rsa, claims({ hd: 'example.com' })))).toBe('oidc: parse uid claim "oid": claim not present');
    expect(await refusal(a, await sign(rsa, claims({ oid: 'u', hd: 'example.com', groups: 7 })))).toBe(
      'oidc: parse groups claim "groups": json: cannot unmarshal number into Go value of type string',
    );
    expect(await refusal(a, await sign(rsa, claims({ sub: undefined, oid: 'u', hd: 'example.com' })))).toBe(
      'oidc: parse username claims "sub": claim not present',
    );
  });

  it('maps username, groups, uid and extra with CEL, dropping empty values', async () => {
    const a = await authenticators([
      jwt({
        claimMappings: {
          username: { expression: "'cel:' + claims.sub" },
          groups: { expression: "claims.roles.map(r, r == 'skip' ? '' : 'role:' + r)" },
          uid: { expression: 'string(claims.num)' },
          extra: [
            { key: 'example.org/tenant', valueExpression: 'claims.tenant' },
            { key: 'example.org/empty', valueExpression: "''" },
            { key: 'example.org/dotted', valueExpression: 'claims.a__dot__b' },
          ],
        },
      }),
    ]);
    expect(await a.authenticateToken(await sign(rsa, claims({ roles: ['admin', 'skip', 'dev'], num: 42, tenant: 't1', 'a.b': ['x', ''] })))).toEqual({
      user: {
        username: 'cel:alice',
        groups: ['role:admin', 'role:dev'],
        uid: '42',
        extra: { 'example.org/tenant': ['t1'], 'example.org/dotted': ['x'] },
      },
    });
    expect(await refusal(a, await sign(rsa, claims({ num: 1, tenant: 't', 'a.b': 'y' })))).toBe(
      "oidc: error evaluating group claim expression: expression 'claims.roles.map(r, r == 'skip' ? '' : 'role:' + r)' resulted in error: no such key: roles",
    );
    expect(await refusal(a, await sign(rsa, claims({ roles: [], num: 1, tenant: 5, 'a.b': 'y' })))).toBe(
      'oidc: error evaluating extra claim expression: claims.tenant: expression must return a string or a list of strings',
    );
  });

  it('gives CEL the integers a token writes as ints, other numbers as doubles', async () => {
    const a = await authenticators([
      jwt({
        claimMappings: {
          username: { expression: "claims.sub + ':' + string(claims.level + 1)" },
          uid: { expression: 'string(claims.big)' },
          extra: [{ key: 'example.org/types', valueExpression: "[claims.level, claims.ratio, claims.nested.n].map(v, type(v) == int ? 'int' : 'double')" }],
        },
      }),
    ]);
    // Written by hand: JSON.stringify never writes 1.0, which Go reads as a float64.
    const payload = `{"iss":${JSON.stringify(provider.url)},"aud":"memkube","sub":"alice","exp":${seconds(clock) + 60},"level":41,"ratio":1.0,"nested":{"n":7},"big":9007199254740993}`;
    const token = await new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader({ alg: 'RS256', kid: rsa.kid }).sign(rsa.privateKey);
    expect(await a.authenticateToken(token)).toEqual({
      user: { username: 'alice:42', groups: [], uid: '9007199254740993', extra: { 'example.org/types': ['int', 'double', 'int'] } },
    });
    // A double plus an int has no overload, in Kubernetes as here.
    expect(await refusal(a, await sign(rsa, claims({ level: 1.5, ratio: 1, nested: { n: 1 }, big: 1 })))).toBe(
      "oidc: error evaluating username claim expression: expression 'claims.sub + ':' + string(claims.level + 1)' resulted in error: no such overload",
    );
  });

  it('refuses CEL results of the wrong type and empty usernames', async () => {
    const a = await authenticators([jwt({ claimMappings: { username: { expression: 'claims.n' }, uid: { expression: 'claims.u' } } })]);
    expect(await refusal(a, await sign(rsa, claims({ n: 5, u: 'x' })))).toBe(
      'oidc: error evaluating username claim expression: username claim expression must return a string',
    );
    expect(await refusal(a, await sign(rsa, claims({ n: '', u: 'x' })))).toBe('oidc: empty username via CEL expression is not allowed');
    expect(await refusal(a, await sign(rsa, claims({ n: 'bob', u: 1 })))).toBe(
      'oidc: error evaluating uid claim expression: uid claim expression must return a string',
    );
  });

  it('stops an expression that runs past the cost limit', async () => {
    const expression = "claims.items.map(a, claims.items.map(b, a + b)).size() > 0 ? 'busy' : 'idle'";
    const a = await authenticators([jwt({ claimMappings: { username: { expression } } })]);
    const items = Array.from({ length: 2000 }, (_, i) => `i${i}`);
    expect(await refusal(a, await sign(rsa, claims({ items })))).toBe(
      `oidc: error evaluating username claim expression: expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`,
    );
    expect(await a.authenticateToken(await sign(rsa, claims({ items: ['a'] })))).toEqual({ user: { username: 'busy', groups: [] } });
  });

  it('applies the email_verified rule to an email username claim', async () => {
    const a = await authenticators([jwt({ claimMappings: { username: { claim: 'email', prefix: '' } } })]);
    expect(await a.authenticateToken(await sign(rsa, claims({ email: 'a@example.com', email_verified: true })))).toEqual({
      user: { username: 'a@example.com', groups: [] },
    });
    // Absent email_verified is not checked.
    expect(await a.authenticateToken(await sign(rsa, claims({ email: 'a@example.com' })))).toBeDefined();
    expect(await refusal(a, await sign(rsa, claims({ email: 'a@example.com', email_verified: false })))).toBe('oidc: email not verified');
    expect(await refusal(a, await sign(rsa, claims({ email: 'a@example.com', email_verified: 'true' })))).toBe(
      "oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool",
    );
  });

  it('evaluates claim validation expressions with their messages', async () => {
    const a = await authenticators([
      jwt({
        claimValidationRules: [
          { expression: 'claims.exp - claims.iat <= 86400', message: 'token lives too long' },
          { expression: 'claims.?email_verified.orValue(false) == true', message: 'email must be verified' },
        ],
        claimMappings: { username: { expression: 'claims.email' } },
      }),
    ]);
    expect(await a.authenticateToken(await sign(rsa, claims({ email: 'a@x', email_verified: true })))).toEqual({ user: { username: 'a@x', groups: [] } });
    expect(await refusal(a, await sign(rsa, claims({ email: 'a@x', email_verified: true, exp: seconds(T0) + 90000 })))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.exp - claims.iat <= 86400' failed: token lives too long",
    );
    expect(await refusal(a, await sign(rsa, claims({ email: 'a@x' })))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.?email_verified.orValue(false) == true' failed: email must be verified",
    );
    expect(await refusal(a, await sign(rsa, claims({ email: 'a@x', email_verified: true, iat: 'x' })))).toBe(
      'oidc: verify token: oidc: failed to unmarshal claims: json: invalid number literal, trying to unmarshal "\\"x\\"" into Number',
    );
  });

  it('evaluates user validation rules over the mapped user', async () => {
    const a = await authenticators([
      jwt({
        claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: '' } },
        userValidationRules: [
          { expression: "!user.username.startsWith('system:')", message: 'username cannot use reserved system: prefix' },
          { expression: "user.groups.all(g, !g.startsWith('system:'))", message: 'groups cannot use reserved system: prefix' },
        ],
      }),
    ]);
    expect(await a.authenticateToken(await sign(rsa, claims({ groups: ['dev'] })))).toEqual({ user: { username: 'alice', groups: ['dev'] } });
    expect(await refusal(a, await sign(rsa, claims({ sub: 'system:admin' })))).toBe(
      "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('system:')' failed: username cannot use reserved system: prefix",
    );
    expect(await refusal(a, await sign(rsa, claims({ groups: ['system:masters'] })))).toBe(
      "oidc: error evaluating user info validation rule: validation expression 'user.groups.all(g, !g.startsWith('system:'))' failed: groups cannot use reserved system: prefix",
    );
  });

  it('refuses an invalid authenticator configuration when building it', () => {
    const config = toInternalAuthenticationConfiguration({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthenticationConfiguration',
      jwt: [{ issuer: { url: 'http://x', audiences: ['a'] }, claimMappings: { username: { claim: 'sub', prefix: '' } } }],
    });
    expect(() => createJwtAuthenticators(config)).toThrow('issuer.url: Invalid value: "http://x": URL scheme must be https');
  });
});

describe('JWT authenticator: discovery', () => {
  it('refuses tokens until discovery succeeds, retrying on schedule', async () => {
    provider.behaviour.discovery = { status: 500, body: 'boom' };
    const scheduled: (() => void)[] = [];
    const a = await authenticators([jwt()], {
      schedule: (fn) => {
        scheduled.push(fn);
        return () => undefined;
      },
    });
    const token = await sign(rsa, claims());
    expect(await refusal(a, token)).toBe('oidc: authenticator not initialized');
    expect(a.healthCheck()).toEqual([`oidc: authenticator for issuer "${provider.url}" is not healthy: 500 Internal Server Error: boom`]);
    expect(scheduled).toHaveLength(1);
    provider.behaviour.discovery = undefined;
    scheduled.shift()!();
    await a.settled();
    expect(a.healthCheck()).toEqual([]);
    expect(await a.authenticateToken(token)).toBeDefined();
  });

  it('says why a discovery document is refused', async () => {
    provider.behaviour.discovery = { status: 200, body: 'garbage', contentType: 'text/plain' };
    let a = await authenticators([jwt()], { schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toBe(
      `oidc: authenticator for issuer "${provider.url}" is not healthy: oidc: failed to decode provider discovery object: expected Content-Type = application/json, got "text/plain": invalid character 'g' looking for beginning of value`,
    );
    provider.behaviour.discovery = { status: 200, body: '{"issuer": ', contentType: 'application/json' };
    a = await authenticators([jwt()], { schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toMatch(
      /oidc: failed to decode provider discovery object: got Content-Type = application\/json, but could not unmarshal as JSON: unexpected end of JSON input$/,
    );
    provider.behaviour.discovery = { status: 200, body: '{"issuer": 5}', contentType: 'application/json' };
    a = await authenticators([jwt()], { schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toMatch(
      /oidc: failed to decode provider discovery object: got Content-Type = application\/json, but could not unmarshal as JSON: json: cannot unmarshal number into Go struct field providerJSON.issuer of type string$/,
    );
    provider.behaviour.discovery = { status: 200, body: `{"issuer": "${provider.url}"}`, contentType: 'application/json' };
    a = await authenticators([jwt()], { schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toMatch(/is not healthy: provider did not return JWKS URL$/);
    provider.behaviour.discovery = undefined;
    provider.behaviour.discoveredIssuer = 'https://evil.example.com';
    a = await authenticators([jwt()], { schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toMatch(
      new RegExp(
        `oidc: issuer did not match the issuer returned by provider, expected "${provider.url.replace(/\./g, '\\.')}" got "https://evil\\.example\\.com"$`,
      ),
    );
    expect(await refusal(a, await sign(rsa, claims()))).toBe('oidc: authenticator not initialized');
  });

  it('times out a discovery server that does not answer', async () => {
    provider.behaviour.hangDiscovery = true;
    const a = await authenticators([jwt()], { timeoutMs: 200, schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toBe(
      `oidc: authenticator for issuer "${provider.url}" is not healthy: Get "${provider.url}/.well-known/openid-configuration": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
  });

  it('trusts only the configured certificate authority', async () => {
    const { ca: other } = await generateServingCertificate({ hosts: ['127.0.0.1'] });
    const a = await authenticators([jwt({}, { certificateAuthority: other.cert })], { schedule: () => () => undefined });
    expect(a.healthCheck()[0]).toBe(
      `oidc: authenticator for issuer "${provider.url}" is not healthy: Get "${provider.url}/.well-known/openid-configuration": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('reads the discovery document from discoveryURL when set', async () => {
    const before = provider.requests.custom;
    const a = await authenticators([jwt({}, { discoveryURL: `${provider.url}/custom-discovery` })]);
    expect(provider.requests.custom).toBe(before + 1);
    expect(await a.authenticateToken(await sign(rsa, claims()))).toBeDefined();
  });

  it('picks the authenticator by the token issuer, in order', async () => {
    const second = await signingKey('ES256', 'p2');
    const other = await startProvider([second.jwk]);
    try {
      const a = await authenticators([
        jwt(),
        { issuer: { url: other.url, audiences: ['memkube'], certificateAuthority: other.ca }, claimMappings: { username: { claim: 'sub', prefix: 'two:' } } },
      ]);
      expect(await a.authenticateToken(await sign(second, claims({ iss: other.url })))).toEqual({ user: { username: 'two:alice', groups: [] } });
      expect(await a.authenticateToken(await sign(rsa, claims()))).toEqual({ user: { username: 'oidc:alice', groups: [] } });
      // A key of one issuer does not sign for the other.
      expect(await refusal(a, await sign(rsa, claims({ iss: other.url })))).toBe(
        'oidc: verify token: failed to verify signature: failed to verify id token signature',
      );
    } finally {
      await other.close();
    }
  });
});
