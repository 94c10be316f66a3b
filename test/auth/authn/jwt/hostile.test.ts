import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticators, type JwtAuthenticators } from '../../../../src/auth/authn/jwt/index.js';
import { toInternalAuthenticationConfiguration } from '../../../../src/config/authentication/index.js';
import { sign, signingKey, startProvider, type OidcProvider, type SigningKey } from './oidc-server.js';

const T0 = Date.UTC(2026, 0, 1);
let provider: OidcProvider;
let key: SigningKey;
let a: JwtAuthenticators;

beforeAll(async () => {
  key = await signingKey('RS256', 'k');
  provider = await startProvider([key.jwk]);
  const config = toInternalAuthenticationConfiguration({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AuthenticationConfiguration',
    jwt: [
      {
        issuer: { url: provider.url, audiences: ['memkube'], certificateAuthority: provider.ca },
        claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { expression: 'claims.?groups.orValue([])' } },
        claimValidationRules: [{ expression: "claims.?tier.orValue('') != 'blocked'", message: 'blocked' }],
      },
    ],
  });
  a = createJwtAuthenticators(config, { now: () => T0, jwksMinRefreshIntervalMs: 60_000 });
  await a.settled();
});
afterAll(async () => {
  a.close();
  await provider.close();
});

/** Never a user; undefined or an Error with a message. */
async function neverAccepted(token: string): Promise<void> {
  let result;
  try {
    result = await a.authenticateToken(token);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toMatch(/^oidc: |^expression '/);
    return;
  }
  expect(result).toBeUndefined();
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('JWT authenticator: hostile tokens', () => {
  it('never accepts arbitrary strings', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 300 }), neverAccepted), { numRuns: 300 });
  });

  it('never accepts our issuer with arbitrary headers and signatures', async () => {
    const payload = b64(JSON.stringify({ iss: provider.url, aud: 'memkube', sub: 'mallory', exp: T0 / 1000 + 60 }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json().map(b64), fc.constant(b64('{"alg":"RS256","kid":"k"}'))), fc.string(), async (header, signature) => {
        await neverAccepted(`${header}.${payload}.${signature}`);
        await neverAccepted(`${header}.${payload}.${b64(signature)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts arbitrary claims signed by a key the issuer does not publish', async () => {
    const forger = await signingKey('RS256', 'k');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (extra) => {
        await neverAccepted(await sign(forger, { ...extra, iss: provider.url, aud: 'memkube', sub: 'mallory', exp: T0 / 1000 + 60 }));
      }),
      { numRuns: 100 },
    );
  });

  it('answers validly signed tokens with hostile claims with a user or a clear error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (extra) => {
        const token = await sign(key, { ...extra, iss: provider.url, aud: 'memkube', exp: T0 / 1000 + 60 });
        try {
          const r = await a.authenticateToken(token);
          expect(r?.user.username).toBeTypeOf('string');
          for (const g of r?.user.groups ?? []) expect(g).toBeTypeOf('string');
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect((e as Error).message).toMatch(/^oidc: /);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('answers oversized and deeply nested tokens quickly', async () => {
    const started = Date.now();
    await neverAccepted(`${b64('{"alg":"RS256"}')}.${b64(JSON.stringify({ iss: provider.url, pad: 'x'.repeat(3 << 20) }))}.sig`);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    await neverAccepted(`${b64('{"alg":"RS256","kid":"k"}')}.${b64(`{"iss":${JSON.stringify(provider.url)},"x":${deep}}`)}.sig`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps the claim type errors of a valid token', async () => {
    await expect(a.authenticateToken(await sign(key, { iss: provider.url, aud: 'memkube', exp: T0 / 1000 + 60, sub: 'x', groups: [1] }))).rejects.toThrow(
      'oidc: error evaluating group claim expression: expression must return a string or a list of strings',
    );
    await expect(a.authenticateToken(await sign(key, { iss: provider.url, aud: 'memkube', exp: T0 / 1000 + 60, sub: 'x', tier: 'blocked' }))).rejects.toThrow(
      "oidc: error evaluating claim validation expression: validation expression 'claims.?tier.orValue('') != 'blocked'' failed: blocked",
    );
  });
});
