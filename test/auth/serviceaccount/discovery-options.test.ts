import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  createServiceAccountTokenIssuer,
  jsonWebKeySet,
  openIDConfiguration,
  parseSigningKey,
  parseVerificationKeys,
  resolveServiceAccounts,
  ServiceAccountOptionsError,
  validateServiceAccountFlags,
} from '../../../src/auth/serviceaccount/index.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('OIDC discovery documents', () => {
  const keys = [...parseVerificationKeys(fixture('rsa-public.pem')), ...parseVerificationKeys(fixture('ec-p384.pem'))];

  it('the configuration: issuer, jwks_uri from the external address, the algorithms sorted, fields in kube-apiserver’s order', () => {
    const result = openIDConfiguration({ issuer: ISSUER, externalAddress: '10.0.0.1:6443', keys });
    expect(result.ok && JSON.stringify(result.document)).toBe(
      JSON.stringify({
        issuer: ISSUER,
        jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks',
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES384', 'RS256'],
      }),
    );
    const explicit = openIDConfiguration({ issuer: ISSUER, jwksUri: 'https://keys.example/jwks', externalAddress: 'ignored:1', keys });
    expect(explicit.ok && explicit.document.jwks_uri).toBe('https://keys.example/jwks');
  });

  it.each([
    [{ issuer: '', externalAddress: 'a:1' }, 'empty issuer URL'],
    [{ issuer: ISSUER }, 'either the JWKS URI or the default external address, or both, must be set'],
    [{ issuer: 'http://insecure', externalAddress: 'a:1' }, 'issuer URL must use https scheme, got: http://insecure'],
    [{ issuer: 'kubernetes/serviceaccount', externalAddress: 'a:1' }, 'issuer URL must use https scheme, got: kubernetes/serviceaccount'],
    [{ issuer: 'https://a?x=1', externalAddress: 'a:1' }, 'issuer URL may not include a query, got: https://a?x=1'],
    [{ issuer: 'https://a#f', externalAddress: 'a:1' }, 'issuer URL may not include a fragment, got: https://a#f'],
    [{ issuer: ISSUER, jwksUri: 'http://keys' }, 'jwksURI requires https scheme, parsed as: http://keys'],
  ])('not served for %j: %s', (options, error) => {
    expect(openIDConfiguration({ ...options, keys })).toEqual({ ok: false, error });
  });

  it('the key set: each public key with use, kty, kid, alg, as go-jose writes them', () => {
    const set = jsonWebKeySet(keys);
    expect(set.keys.map((k) => Object.keys(k))).toEqual([
      ['use', 'kty', 'kid', 'alg', 'n', 'e'],
      ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y'],
    ]);
    expect(set.keys[0]).toMatchObject({ use: 'sig', kty: 'RSA', kid: keys[0]!.kid, alg: 'RS256', e: 'AQAB' });
    expect(set.keys[1]).toMatchObject({ use: 'sig', kty: 'EC', kid: keys[1]!.kid, crv: 'P-384', alg: 'ES384' });
    expect(JSON.stringify(set)).not.toMatch(/"d"/);
  });

  it.each(['rsa-pkcs1.pem', 'ec-p256.pem', 'ec-p521.pem'])('a token signed with %s verifies with jose against the key set', async (file) => {
    const signingKey = parseSigningKey(fixture(file));
    const issuer = createServiceAccountTokenIssuer({ issuers: [ISSUER], signingKey, apiAudiences: [ISSUER], now: () => T0 });
    const { token } = await issuer.issueBound({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'u' }, audiences: ['vault'], expirationSeconds: 600 });
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jsonWebKeySet([signingKey])), {
      issuer: ISSUER,
      audience: 'vault',
      currentDate: new Date(T0 + 1000),
    });
    expect(protectedHeader).toEqual({ alg: signingKey.alg, kid: signingKey.kid });
    expect(payload.sub).toBe('system:serviceaccount:ns:sa');
  });
});

describe('service account flags', () => {
  it('accepts good flags', () => {
    expect(validateServiceAccountFlags({ issuers: [ISSUER, 'kubernetes/serviceaccount'], maxTokenExpirationSeconds: 3600, jwksUri: 'https://x/jwks' })).toEqual(
      [],
    );
  });

  it('refuses bad flags with kube-apiserver’s messages, in its order', () => {
    expect(
      validateServiceAccountFlags({
        issuers: ['https://[::1', '', ISSUER, ISSUER],
        signingKey: 'pem',
        jwksUri: 'http://keys',
        maxTokenExpirationSeconds: 60,
      }),
    ).toEqual([
      // Checked as the options are completed, before they are validated.
      'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
      'service-account-issuer "https://[::1" contained a \':\' but was not a valid URL: parse "https://[::1": missing \']\' in host',
      'service-account-issuer should not be an empty string',
      'service-account-issuer "https://kubernetes.default.svc.cluster.local" is already specified',
      'either `--service-account-key-file` or `--service-account-signing-endpoint` must be set',
      'service-account-jwks-uri requires https scheme, parsed as: http://keys',
    ]);
    expect(validateServiceAccountFlags({ jwksUri: 'https://a b:%zz' })[0]).toMatch(/^service-account-jwks-uri must be a valid URL: parse /);
    expect(validateServiceAccountFlags({ maxTokenExpirationSeconds: 2 ** 32 + 1 })).toEqual([
      'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
    ]);
    expect(validateServiceAccountFlags({ maxTokenExpirationSeconds: 2 ** 32 })).toEqual([]);
  });

  const failure = (flags: Parameters<typeof resolveServiceAccounts>[0]): readonly string[] => {
    try {
      resolveServiceAccounts(flags);
    } catch (e) {
      expect(e).toBeInstanceOf(ServiceAccountOptionsError);
      return (e as ServiceAccountOptionsError).errors;
    }
    throw new Error('resolved');
  };

  it('keys that cannot be read stop the setup in kube-apiserver’s stages: the signing key, the flags, then the first verifying key', () => {
    expect(failure({ signingKey: 'nope', keys: [fixture('rsa-public.pem'), 'nope'] })).toEqual([
      'failed to parse service-account-issuer-key-file: data does not contain a valid RSA or ECDSA private key',
    ]);
    // The maximum expiration is checked before the signing key is read.
    expect(failure({ signingKey: 'nope', maxTokenExpirationSeconds: 60 })).toEqual([
      'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
    ]);
    expect(failure({ signingKey: fixture('rsa-pkcs1.pem'), keys: [fixture('rsa-public.pem'), 'nope', 'nope'] })).toEqual([
      'failed to parse service-account-key-file #2: data does not contain any valid RSA or ECDSA public keys',
    ]);
  });

  it('key files: keyutil’s texts, the read error bare and a parse error naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-sa-'));
    try {
      const missing = join(dir, 'missing.pem');
      const bad = join(dir, 'bad.pem');
      writeFileSync(bad, 'not a key\n');
      const good = join(import.meta.dirname, 'fixtures', 'rsa-pkcs1.pem');
      expect(failure({ signingKeyFile: missing, keyFiles: [good] })).toEqual([
        `failed to parse service-account-issuer-key-file: open ${missing}: no such file or directory`,
      ]);
      expect(failure({ signingKeyFile: bad, keyFiles: [good] })).toEqual([
        `failed to parse service-account-issuer-key-file: error reading private key file ${bad}: data does not contain a valid RSA or ECDSA private key`,
      ]);
      expect(failure({ signingKeyFile: good })).toEqual(['either `--service-account-key-file` or `--service-account-signing-endpoint` must be set']);
      expect(failure({ signingKeyFile: good, keyFiles: [good, missing] })).toEqual([`open ${missing}: no such file or directory`]);
      expect(failure({ signingKeyFile: good, keyFiles: [bad] })).toEqual([
        `error reading public key file ${bad}: data does not contain any valid RSA or ECDSA public keys`,
      ]);
      const setup = resolveServiceAccounts({ signingKeyFile: good, keyFiles: [good] });
      expect(setup.verificationKeys.map((k) => k.kid)).toEqual([setup.signingKey.kid]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an Ed25519 signing key parses but cannot sign: JWTTokenGenerator’s message', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(failure({ signingKey: pem, keys: [pem] })).toEqual([
      'failed to build token generator: unknown private key type ed25519.PrivateKey, must be *rsa.PrivateKey, *ecdsa.PrivateKey, or jose.OpaqueSigner',
    ]);
  });

  it('defaults: the in-cluster issuer, a generated key that also verifies, the issuers as API audiences', () => {
    const setup = resolveServiceAccounts();
    expect(setup.issuers).toEqual([ISSUER]);
    expect(setup.apiAudiences).toEqual([ISSUER]);
    expect(setup.verificationKeys).toEqual([setup.signingKey]);
    expect(setup.maxExpirationSeconds).toBe(0);
    const given = resolveServiceAccounts({
      issuers: ['https://a', 'https://b'],
      apiAudiences: ['api'],
      signingKey: fixture('rsa-pkcs1.pem'),
      keys: [fixture('rsa-public.pem')],
    });
    expect(given.apiAudiences).toEqual(['api']);
    expect(given.verificationKeys.map((k) => k.kid)).toEqual([given.signingKey.kid]);
  });
});
