/**
 * The JWT authenticators' metrics against a real OIDC provider on 127.0.0.1: the latency of the
 * tokens of the issuer (success and failure, by hashed issuer; other issuers' tokens uncounted),
 * and each key set fetch, its time by result and the hash of the keys fetched.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJwtAuthenticators, type JwtAuthenticators } from '../../../../src/auth/authn/jwt/index.js';
import { authenticationMetrics } from '../../../../src/auth/metrics/index.js';
import { toInternalAuthenticationConfiguration } from '../../../../src/config/authentication/index.js';
import { MetricsRegistry } from '../../../../src/metrics/registry.js';
import { sign, signingKey, startProvider, type OidcProvider, type SigningKey } from './oidc-server.js';

const LATENCY = 'apiserver_authentication_jwt_authenticator_latency_seconds';
const FETCH_TIME = 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds';
const KEY_SET = 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info';
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

const T0 = Date.UTC(2026, 0, 1);
let clock = T0;
const now = () => clock;

let provider: OidcProvider;
let rsa: SigningKey;
let other: SigningKey;
let registry: MetricsRegistry;
let open: JwtAuthenticators[] = [];

beforeAll(async () => {
  rsa = await signingKey('RS256', 'rsa-1');
  other = await signingKey('RS256', 'rsa-2');
  provider = await startProvider([rsa.jwk]);
});
afterAll(() => provider.close());
beforeEach(() => {
  registry = new MetricsRegistry();
});
afterEach(() => {
  open.forEach((a) => a.close());
  open = [];
  clock = T0;
  provider.behaviour.keys = [rsa.jwk];
  provider.behaviour.jwks = undefined;
});

async function authenticators(): Promise<JwtAuthenticators> {
  const config = toInternalAuthenticationConfiguration({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AuthenticationConfiguration',
    jwt: [
      { issuer: { url: provider.url, audiences: ['memkube'], certificateAuthority: provider.ca }, claimMappings: { username: { claim: 'sub', prefix: '' } } },
    ],
  });
  const a = createJwtAuthenticators(config, { now, jwksMinRefreshIntervalMs: 0, metrics: authenticationMetrics(registry, 'apiserver-test', now) });
  open.push(a);
  await a.settled();
  return a;
}

const claims = (more: Record<string, unknown> = {}) => ({ iss: provider.url, aud: 'memkube', sub: 'alice', exp: Math.floor(clock / 1000) + 3600, ...more });

describe('apiserver_authentication_jwt_authenticator_latency_seconds', () => {
  it('observes the tokens of its issuer, verified or refused, under the hashed issuer', async () => {
    const a = await authenticators();
    expect(await a.authenticateToken(await sign(rsa, claims()))).toEqual({ user: { username: 'alice', groups: [] } });
    await expect(a.authenticateToken(await sign(rsa, claims({ aud: 'someone-else' })))).rejects.toThrow(/oidc: verify token/);
    await expect(a.authenticateToken(await sign(other, claims()))).rejects.toThrow(/failed to verify id token signature/);
    expect(await registry.value(LATENCY, { jwt_issuer_hash: sha(provider.url), result: 'success' })).toBe(1);
    expect(await registry.value(LATENCY, { jwt_issuer_hash: sha(provider.url), result: 'failure' })).toBe(2);
    expect(await registry.value(`${LATENCY}_sum`)).toBeGreaterThan(0);
  });

  it('does not observe tokens of other issuers, nor what is not a JWT', async () => {
    const a = await authenticators();
    expect(await a.authenticateToken(await sign(rsa, claims({ iss: 'https://elsewhere' })))).toBeUndefined();
    expect(await a.authenticateToken('not-a-jwt')).toBeUndefined();
    expect(await registry.value(LATENCY)).toBe(0);
  });
});

describe('the key set fetches', () => {
  it('stamps a successful fetch with the clock and reports the hash of the key set document', async () => {
    const a = await authenticators();
    // The keys are fetched when the first token needs them.
    expect(await registry.value(FETCH_TIME)).toBe(0);
    clock = T0 + 5_000;
    await a.authenticateToken(await sign(rsa, claims()));
    const document = JSON.stringify({ keys: [rsa.jwk] });
    const idHash = sha('apiserver-test');
    const issuerHash = sha(provider.url);
    expect(await registry.value(FETCH_TIME, { apiserver_id_hash: idHash, jwt_issuer_hash: issuerHash, result: 'success' })).toBe((T0 + 5_000) / 1000);
    const info = (await registry.samples()).filter((s) => s.name === KEY_SET);
    expect(info).toEqual([{ name: KEY_SET, labels: { apiserver_id_hash: idHash, hash: sha(document), jwt_issuer_hash: issuerHash }, value: 1 }]);
  });

  it('replaces the key set hash when the keys change, keeping one series per issuer', async () => {
    const a = await authenticators();
    await a.authenticateToken(await sign(rsa, claims()));
    provider.behaviour.keys = [rsa.jwk, other.jwk];
    // A token signed by a key not yet known makes the authenticator fetch the keys again.
    expect(await a.authenticateToken(await sign(other, claims({ sub: 'bob' })))).toEqual({ user: { username: 'bob', groups: [] } });
    const info = (await registry.samples()).filter((s) => s.name === KEY_SET);
    expect(info.map((s) => s.labels.hash)).toEqual([sha(JSON.stringify({ keys: [rsa.jwk, other.jwk] }))]);
  });

  it('stamps a failed fetch under result failure and keeps the last good key set hash', async () => {
    const a = await authenticators();
    await a.authenticateToken(await sign(rsa, claims()));
    provider.behaviour.jwks = { status: 500, body: 'down' };
    clock = T0 + 60_000;
    await expect(a.authenticateToken(await sign(other, claims()))).rejects.toThrow(/fetching keys oidc: get keys failed/);
    expect(await registry.value(FETCH_TIME, { result: 'failure' })).toBe((T0 + 60_000) / 1000);
    expect(await registry.value(FETCH_TIME, { result: 'success' })).toBe(T0 / 1000);
    expect(await registry.value(KEY_SET, { hash: sha(JSON.stringify({ keys: [rsa.jwk] })) })).toBe(1);
  });

  it('counts a key set that does not decode as a failed fetch', async () => {
    provider.behaviour.jwks = { status: 200, body: '{"keys": "nope"}' };
    const a = await authenticators();
    await expect(a.authenticateToken(await sign(rsa, claims()))).rejects.toThrow(/failed to decode keys/);
    expect(await registry.value(FETCH_TIME, { result: 'failure' })).toBe(T0 / 1000);
    expect(await registry.value(FETCH_TIME, { result: 'success' })).toBe(0);
    expect(await registry.value(KEY_SET)).toBe(0);
  });
});

describe('the JWT metrics as exposed', () => {
  it('carry kube-apiserver help texts and buckets', async () => {
    const a = await authenticators();
    await a.authenticateToken(await sign(rsa, claims()));
    const text = await registry.text();
    expect(text).toContain(
      '# HELP apiserver_authentication_jwt_authenticator_latency_seconds [ALPHA] Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
    );
    expect(text).toContain(
      '# HELP apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds [ALPHA] Timestamp of the last successful or failed JWKS fetch split by result, api server identity and jwt issuer for the JWT authenticator.',
    );
    expect(text).toContain(
      '# HELP apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info [ALPHA] Information about the last JWKS fetched by the JWT authenticator with hash as label, split by api server identity and jwt issuer.',
    );
    expect(text).toMatch(
      /apiserver_authentication_jwt_authenticator_latency_seconds_bucket\{le="0\.001",jwt_issuer_hash="sha256:[0-9a-f]{64}",result="success"\}/,
    );
    expect(text).toMatch(/apiserver_authentication_jwt_authenticator_latency_seconds_bucket\{le="10",jwt_issuer_hash="sha256:[0-9a-f]{64}",result="success"\}/);
  });
});
