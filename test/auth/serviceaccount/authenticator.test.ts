import { sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createServiceAccountAuthenticator,
  createServiceAccountTokenIssuer,
  generateSigningKey,
  parseSigningKey,
  parseVerificationKeys,
  type ObjectReader,
  type SigningKey,
} from '../../../src/auth/serviceaccount/index.js';
import type { ServiceAccountTokenRequest } from '../../../src/machinery/auth.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const T0 = Date.parse('2026-01-01T00:00:00Z');
const T0S = T0 / 1000;
const SA_UID = '11111111-1111-1111-1111-111111111111';
const POD_UID = '22222222-2222-2222-2222-222222222222';
const NODE_UID = '33333333-3333-3333-3333-333333333333';
const SECRET_UID = '44444444-4444-4444-4444-444444444444';
const JTI = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

/** The cluster state the authenticator reads, by `resource/namespace/name`. */
let objects: Map<string, object>;
let now: number;
const read: ObjectReader = async (gr, namespace, name) => objects.get(`${gr.resource}/${namespace}/${name}`);
const put = (resource: string, namespace: string, name: string, obj: object) => objects.set(`${resource}/${namespace}/${name}`, obj);

beforeEach(() => {
  now = T0;
  objects = new Map();
  put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', namespace: 'ns', uid: SA_UID } });
  put('pods', 'ns', 'p', { metadata: { name: 'p', namespace: 'ns', uid: POD_UID }, spec: { serviceAccountName: 'sa', nodeName: 'n' } });
  put('nodes', '', 'n', { metadata: { name: 'n', uid: NODE_UID } });
  put('secrets', 'ns', 's', { metadata: { name: 's', namespace: 'ns', uid: SECRET_UID } });
});

function setup(key: SigningKey = parseSigningKey(fixture('rsa-pkcs1.pem')), opts: { apiAudiences?: string[]; issuers?: string[] } = {}) {
  const issuers = opts.issuers ?? [ISSUER];
  const apiAudiences = opts.apiAudiences ?? issuers;
  const issuer = createServiceAccountTokenIssuer({ issuers, signingKey: key, apiAudiences, now: () => now, newJti: () => JTI });
  const authenticator = createServiceAccountAuthenticator({ issuers, keys: [key], apiAudiences, read, now: () => now });
  return { issuer, authenticator, key };
}

const request = (over: Partial<ServiceAccountTokenRequest> = {}): ServiceAccountTokenRequest => ({
  namespace: 'ns',
  serviceAccount: { name: 'sa', uid: SA_UID },
  audiences: [ISSUER],
  expirationSeconds: 3600,
  ...over,
});

const decode = (token: string, part: 0 | 1) => JSON.parse(Buffer.from(token.split('.')[part]!, 'base64url').toString()) as unknown;
/** The raw payload text: claims in Go's sorted-key order. */
const payloadText = (token: string) => Buffer.from(token.split('.')[1]!, 'base64url').toString();
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('issued claims', () => {
  it('a pod-bound token: header, registered claims and the kubernetes.io claim, keys sorted as Go writes a map', async () => {
    const { issuer, key } = setup();
    const { token, expirationTimestamp } = await issuer.issueBound(
      request({ boundObject: { kind: 'Pod', name: 'p', uid: POD_UID, node: { name: 'n', uid: NODE_UID } } }),
    );
    expect(decode(token, 0)).toEqual({ alg: 'RS256', kid: key.kid });
    expect(Buffer.from(token.split('.')[0]!, 'base64url').toString()).toBe(`{"alg":"RS256","kid":"${key.kid}"}`);
    expect(payloadText(token)).toBe(
      JSON.stringify({
        aud: [ISSUER],
        exp: T0S + 3600,
        iat: T0S,
        iss: ISSUER,
        jti: JTI,
        'kubernetes.io': {
          namespace: 'ns',
          node: { name: 'n', uid: NODE_UID },
          pod: { name: 'p', uid: POD_UID },
          serviceaccount: { name: 'sa', uid: SA_UID },
        },
        nbf: T0S,
        sub: 'system:serviceaccount:ns:sa',
      }),
    );
    expect(expirationTimestamp).toBe('2026-01-01T01:00:00Z');
  });

  it('secret- and node-bound tokens name their object; a node without UID keeps its name only', async () => {
    const { issuer } = setup();
    const secret = await issuer.issueBound(request({ boundObject: { kind: 'Secret', name: 's', uid: SECRET_UID } }));
    expect((decode(secret.token, 1) as Record<string, unknown>)['kubernetes.io']).toEqual({
      namespace: 'ns',
      secret: { name: 's', uid: SECRET_UID },
      serviceaccount: { name: 'sa', uid: SA_UID },
    });
    const node = await issuer.issueBound(request({ boundObject: { kind: 'Node', name: 'n', uid: NODE_UID } }));
    expect((decode(node.token, 1) as Record<string, unknown>)['kubernetes.io']).toMatchObject({ node: { name: 'n', uid: NODE_UID } });
    const pod = await issuer.issueBound(request({ boundObject: { kind: 'Pod', name: 'p', uid: POD_UID, node: { name: 'gone', uid: '' } } }));
    expect((decode(pod.token, 1) as Record<string, unknown>)['kubernetes.io']).toMatchObject({ node: { name: 'gone' } });
  });

  it('a projected token kubelet asks for (3607 s, API audiences, pod-bound) lives a year and warns after 3607 s', async () => {
    const { issuer } = setup();
    const bound = { kind: 'Pod' as const, name: 'p', uid: POD_UID };
    const { token, expirationTimestamp } = await issuer.issueBound(request({ expirationSeconds: 3607, boundObject: bound }));
    const claims = decode(token, 1) as { exp: number; 'kubernetes.io': { warnafter: number } };
    expect(claims.exp).toBe(T0S + 365 * 24 * 3600);
    expect(claims['kubernetes.io'].warnafter).toBe(T0S + 3607);
    expect(expirationTimestamp).toBe('2026-01-01T01:00:07Z');
    // Not for other audiences, nor without a pod.
    const other = await issuer.issueBound(request({ expirationSeconds: 3607, boundObject: bound, audiences: ['vault'] }));
    expect((decode(other.token, 1) as { exp: number }).exp).toBe(T0S + 3607);
    const unbound = await issuer.issueBound(request({ expirationSeconds: 3607 }));
    expect((decode(unbound.token, 1) as { exp: number }).exp).toBe(T0S + 3607);
  });

  it('a legacy token: issuer kubernetes/serviceaccount, the kubernetes.io/serviceaccount/... claims, no expiry', async () => {
    const { issuer } = setup();
    const token = await issuer.issueLegacy({ namespace: 'ns', name: 's', serviceAccount: { name: 'sa', uid: SA_UID } });
    expect(payloadText(token)).toBe(
      JSON.stringify({
        iss: 'kubernetes/serviceaccount',
        'kubernetes.io/serviceaccount/namespace': 'ns',
        'kubernetes.io/serviceaccount/secret.name': 's',
        'kubernetes.io/serviceaccount/service-account.name': 'sa',
        'kubernetes.io/serviceaccount/service-account.uid': SA_UID,
        sub: 'system:serviceaccount:ns:sa',
      }),
    );
  });
});

describe('checking bound tokens', () => {
  it.each([
    ['RSA', 'rsa-pkcs1.pem'],
    ['ECDSA P-256', 'ec-p256.pem'],
    ['ECDSA P-384', 'ec-p384.pem'],
    ['ECDSA P-521', 'ec-p521.pem'],
  ])('accepts a token signed with an %s key: the user and the audiences', async (_what, file) => {
    const { issuer, authenticator } = setup(parseSigningKey(fixture(file)));
    const { token } = await issuer.issueBound(request({ boundObject: { kind: 'Pod', name: 'p', uid: POD_UID, node: { name: 'n', uid: NODE_UID } } }));
    expect(await authenticator.authenticateToken(token)).toEqual({
      user: {
        username: 'system:serviceaccount:ns:sa',
        uid: SA_UID,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['p'],
          'authentication.kubernetes.io/pod-uid': [POD_UID],
          'authentication.kubernetes.io/credential-id': [`JTI=${JTI}`],
          'authentication.kubernetes.io/node-name': ['n'],
          'authentication.kubernetes.io/node-uid': [NODE_UID],
        },
      },
      audiences: [ISSUER],
    });
  });

  it('a node-bound token gives the node (looked up); an unbound one only the credential ID', async () => {
    const { issuer, authenticator } = setup();
    const node = await issuer.issueBound(request({ boundObject: { kind: 'Node', name: 'n', uid: NODE_UID } }));
    expect((await authenticator.authenticateToken(node.token))?.user.extra).toEqual({
      'authentication.kubernetes.io/credential-id': [`JTI=${JTI}`],
      'authentication.kubernetes.io/node-name': ['n'],
      'authentication.kubernetes.io/node-uid': [NODE_UID],
    });
    const plain = await issuer.issueBound(request());
    expect((await authenticator.authenticateToken(plain.token))?.user.extra).toEqual({ 'authentication.kubernetes.io/credential-id': [`JTI=${JTI}`] });
  });

  it('accepts the token of any configured issuer, and checks requested audiences', async () => {
    const old = setup(undefined, { issuers: ['https://old.example'] });
    const { authenticator } = setup(old.key, { issuers: [ISSUER, 'https://old.example'], apiAudiences: [ISSUER] });
    const { token } = await old.issuer.issueBound(request({ audiences: ['vault', ISSUER] }));
    expect((await authenticator.authenticateToken(token))?.audiences).toEqual([ISSUER]);
    expect((await authenticator.authenticateToken(token, ['x', 'vault']))?.audiences).toEqual(['vault']);
    expect(await refusal(authenticator.authenticateToken(token, ['other', 'more']))).toBe(
      'token audiences ["vault" "https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["other" "more"]',
    );
  });

  it('expiry: accepted up to a minute after exp, refused after; not before nbf less a minute; not issued in the future', async () => {
    const { issuer, authenticator } = setup();
    const { token } = await issuer.issueBound(request({ expirationSeconds: 600 }));
    now = T0 + 660_000;
    expect(await authenticator.authenticateToken(token)).toBeDefined();
    now = T0 + 661_000;
    expect(await refusal(authenticator.authenticateToken(token))).toBe('service account token has expired');

    now = T0 + 120_000;
    const later = await issuer.issueBound(request());
    now = T0 + 60_000;
    expect(await authenticator.authenticateToken(later.token)).toBeDefined();
    now = T0 + 59_000;
    expect(await refusal(authenticator.authenticateToken(later.token))).toBe('service account token is not valid yet');
  });

  it('refuses a token issued in the future (iat past now plus the leeway, nbf absent)', async () => {
    const { key, authenticator } = setup();
    const token = forge(key, { iss: ISSUER, sub: 'system:serviceaccount:ns:sa', aud: [ISSUER], iat: T0S + 120, exp: T0S + 3600, ...k8s() });
    expect(await refusal(authenticator.authenticateToken(token))).toBe('service account token is issued in the future');
  });

  it('every refusal against the current state, with upstream’s message', async () => {
    const { issuer, authenticator } = setup();
    const pod = (await issuer.issueBound(request({ boundObject: { kind: 'Pod', name: 'p', uid: POD_UID } }))).token;
    const secret = (await issuer.issueBound(request({ boundObject: { kind: 'Secret', name: 's', uid: SECRET_UID } }))).token;
    const node = (await issuer.issueBound(request({ boundObject: { kind: 'Node', name: 'n', uid: NODE_UID } }))).token;
    const check = (t: string) => refusal(authenticator.authenticateToken(t));

    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: 'other-uid' } });
    expect(await check(pod)).toBe(`service account UID (other-uid) does not match claim (${SA_UID})`);
    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: SA_UID, deletionTimestamp: '2025-12-31T23:58:59Z' } });
    expect(await check(pod)).toBe('service account ns/sa has been deleted');
    // Marked for deletion within the last minute: still good.
    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: SA_UID, deletionTimestamp: '2025-12-31T23:59:30Z' } });
    expect(await authenticator.authenticateToken(pod)).toBeDefined();
    objects.delete('serviceaccounts/ns/sa');
    expect(await check(pod)).toBe('serviceaccounts "sa" not found');
    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: SA_UID } });

    put('pods', 'ns', 'p', { metadata: { name: 'p', uid: 'new-pod' } });
    expect(await check(pod)).toBe(`pod UID (new-pod) does not match service account pod ref claim (${POD_UID})`);
    put('pods', 'ns', 'p', { metadata: { name: 'p', uid: POD_UID, deletionTimestamp: '2025-12-31T23:00:00Z' } });
    expect(await check(pod)).toBe('service account token has been invalidated');
    objects.delete('pods/ns/p');
    expect(await check(pod)).toBe('service account token has been invalidated');

    put('secrets', 'ns', 's', { metadata: { name: 's', uid: 'new-secret' } });
    expect(await check(secret)).toBe(`secret UID (new-secret) does not match service account secret ref claim (${SECRET_UID})`);
    objects.delete('secrets/ns/s');
    expect(await check(secret)).toBe('service account token has been invalidated');

    put('nodes', '', 'n', { metadata: { name: 'n', uid: 'new-node' } });
    expect(await check(node)).toBe(`node UID (new-node) does not match service account node ref claim (${NODE_UID})`);
    put('nodes', '', 'n', { metadata: { name: 'n', uid: NODE_UID, deletionTimestamp: '2025-12-31T00:00:00Z' } });
    expect(await check(node)).toBe('service account token has been invalidated');
  });
});

/** A token over `payload`, signed by `key` with the header given (alg and kid of the key by default). */
function forge(key: SigningKey, payload: unknown, header: Record<string, unknown> = { alg: key.alg, kid: key.kid }): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const options = key.alg.startsWith('ES') ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' as const } : key.privateKey;
  return `${input}.${sign('sha256', Buffer.from(input), options).toString('base64url')}`;
}

const k8s = () => ({ 'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: SA_UID } } });

describe('tokens that are not ours or not genuine', () => {
  it('a token of another issuer, a non-JWT or a JSON object is not ours: undefined', async () => {
    const { authenticator, key } = setup();
    expect(await authenticator.authenticateToken(forge(key, { iss: 'https://elsewhere', ...k8s() }))).toBeUndefined();
    expect(await authenticator.authenticateToken('abc.def')).toBeUndefined();
    expect(await authenticator.authenticateToken('{"iss":"x"}.a.b')).toBeUndefined();
    expect(await authenticator.authenticateToken('')).toBeUndefined();
  });

  it('a token signed by another key: go-jose’s failure (no kid: every key tried; unknown kid: no keys)', async () => {
    const { authenticator } = setup();
    const other = generateSigningKey();
    const payload = { iss: ISSUER, sub: 'system:serviceaccount:ns:sa', exp: T0S + 3600, ...k8s() };
    expect(await refusal(authenticator.authenticateToken(forge(other, payload)))).toBe('invalid signature, no keys found');
    expect(await refusal(authenticator.authenticateToken(forge(other, payload, { alg: 'ES256' })))).toBe('go-jose/go-jose: error in cryptographic primitive');
  });

  it('alg none, a wrong alg for the key, a crit header and a tampered payload all fail the signature', async () => {
    const { authenticator, key } = setup();
    const payload = { iss: ISSUER, sub: 'system:serviceaccount:ns:sa', exp: T0S + 3600, ...k8s() };
    const none = `${b64({ alg: 'none' })}.${b64(payload)}.`;
    const fail = 'go-jose/go-jose: error in cryptographic primitive';
    expect(await refusal(authenticator.authenticateToken(none))).toBe(fail);
    expect(await refusal(authenticator.authenticateToken(forge(key, payload, { alg: 'HS256', kid: key.kid })))).toBe(fail);
    expect(await refusal(authenticator.authenticateToken(forge(key, payload, { alg: 'RS256', kid: key.kid, crit: ['exp'] })))).toBe(fail);
    const good = forge(key, payload);
    const parts = good.split('.');
    const tampered = `${parts[0]}.${b64({ ...payload, sub: 'system:serviceaccount:ns:admin' })}.${parts[2]}`;
    expect(await refusal(authenticator.authenticateToken(tampered))).toBe(fail);
    // The HMAC trick: the public key as an HS256 secret.
    const hmacKey = key.publicKey.export({ type: 'spki', format: 'pem' });
    const { createHmac } = await import('node:crypto');
    const input = `${b64({ alg: 'HS256', kid: key.kid })}.${b64(payload)}`;
    const hs = `${input}.${createHmac('sha256', hmacKey).update(input).digest('base64url')}`;
    expect(await refusal(authenticator.authenticateToken(hs))).toBe(fail);
  });

  it('several keys: each failure aggregated once', async () => {
    const a = generateSigningKey();
    const b = parseSigningKey(fixture('rsa-pkcs1.pem'));
    const authenticator = createServiceAccountAuthenticator({ issuers: [ISSUER], keys: [a, b], apiAudiences: [ISSUER], read, now: () => now });
    const token = `${b64({ alg: 'RS256' })}.${b64({ iss: ISSUER })}.AAAA`;
    expect(await refusal(authenticator.authenticateToken(token))).toBe('go-jose/go-jose: error in cryptographic primitive');
  });

  it('claims of the wrong JSON type in a genuine token are refused with the decoder’s text', async () => {
    const { authenticator, key } = setup();
    expect(await refusal(authenticator.authenticateToken(forge(key, { iss: ISSUER, exp: 'soon', ...k8s() })))).toBe(
      'go-jose/go-jose/jwt: expected number value to unmarshal NumericDate',
    );
    expect(await refusal(authenticator.authenticateToken(forge(key, { iss: ISSUER, sub: 5, ...k8s() })))).toBe(
      'json: cannot unmarshal number into Go struct field Claims.sub of type string',
    );
    expect(await refusal(authenticator.authenticateToken(forge(key, { iss: ISSUER, aud: [1] })))).toBe(
      'go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience',
    );
  });

  it('random strings and JWT-shaped garbage: never accepted, never anything but undefined or a clear refusal', async () => {
    const { authenticator, key } = setup();
    const part = fc.oneof(
      fc.string(),
      fc.base64String().map((s) => s.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_')),
      fc.jsonValue().map((v) => b64(JSON.stringify(v))),
      fc.record({ iss: fc.constantFrom(ISSUER, 'kubernetes/serviceaccount'), sub: fc.string(), exp: fc.integer() }).map((v) => b64(v)),
      fc.constant(b64({ alg: 'RS256', kid: key.kid })),
      fc.constant(b64({ alg: 'none' })),
    );
    const token = fc.oneof(
      fc.string(),
      fc.tuple(part, part, part).map((p) => p.join('.')),
      fc.array(part, { maxLength: 5 }).map((p) => p.join('.')),
    );
    await fc.assert(
      fc.asyncProperty(token, async (t) => {
        try {
          expect(await authenticator.authenticateToken(t)).toBeUndefined();
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect((e as Error).message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('checking legacy tokens', () => {
  async function legacySetup() {
    const s = setup();
    const token = await s.issuer.issueLegacy({ namespace: 'ns', name: 's', serviceAccount: { name: 'sa', uid: SA_UID } });
    put('secrets', 'ns', 's', {
      metadata: { name: 's', namespace: 'ns', uid: SECRET_UID },
      type: 'kubernetes.io/service-account-token',
      data: { token: Buffer.from(token).toString('base64') },
    });
    return { ...s, token };
  }

  it('accepts the token its Secret holds: the user without extra, the API audiences', async () => {
    const { authenticator, token } = await legacySetup();
    expect(await authenticator.authenticateToken(token)).toEqual({
      user: { username: 'system:serviceaccount:ns:sa', uid: SA_UID, groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] },
      audiences: [ISSUER],
    });
    expect(await refusal(authenticator.authenticateToken(token, ['vault']))).toBe(
      'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]',
    );
  });

  it('refuses with legacy.go’s messages', async () => {
    const { authenticator, token, key } = await legacySetup();
    const check = (t: string) => refusal(authenticator.authenticateToken(t));
    const secret = objects.get('secrets/ns/s') as { metadata: Record<string, unknown>; data: Record<string, string> };

    put('secrets', 'ns', 's', { ...secret, data: { token: Buffer.from('other').toString('base64') } });
    expect(await check(token)).toBe("Token does not match server's copy");
    put('secrets', 'ns', 's', { ...secret, metadata: { ...secret.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
    expect(await check(token)).toBe('Token has been invalidated');
    objects.delete('secrets/ns/s');
    expect(await check(token)).toBe('Token has been invalidated');
    put('secrets', 'ns', 's', secret);

    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: 'recreated' } });
    expect(await check(token)).toBe(`ServiceAccount UID (recreated) does not match claim (${SA_UID})`);
    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: SA_UID, deletionTimestamp: '2026-01-01T00:00:00Z' } });
    expect(await check(token)).toBe('ServiceAccount ns/sa has been deleted');
    objects.delete('serviceaccounts/ns/sa');
    expect(await check(token)).toBe('serviceaccounts "sa" not found');
    put('serviceaccounts', 'ns', 'sa', { metadata: { name: 'sa', uid: SA_UID } });

    put('secrets', 'ns', 's', { ...secret, metadata: { ...secret.metadata, labels: { 'kubernetes.io/legacy-token-invalid-since': '2025-01-01' } } });
    expect(await check(token)).toBe(
      "the token in secret ns/s for service account ns/sa has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
    );

    const legacy = (claims: Record<string, unknown>) => forge(key, { iss: 'kubernetes/serviceaccount', ...claims });
    const full = {
      sub: 'system:serviceaccount:ns:sa',
      'kubernetes.io/serviceaccount/namespace': 'ns',
      'kubernetes.io/serviceaccount/secret.name': 's',
      'kubernetes.io/serviceaccount/service-account.name': 'sa',
      'kubernetes.io/serviceaccount/service-account.uid': SA_UID,
    };
    const without = (k: keyof typeof full) => Object.fromEntries(Object.entries(full).filter(([x]) => x !== k));
    expect(await check(legacy(without('sub')))).toBe('sub claim is missing');
    expect(await check(legacy(without('kubernetes.io/serviceaccount/namespace')))).toBe('namespace claim is missing');
    expect(await check(legacy(without('kubernetes.io/serviceaccount/secret.name')))).toBe('secretName claim is missing');
    expect(await check(legacy(without('kubernetes.io/serviceaccount/service-account.name')))).toBe('serviceAccountName claim is missing');
    expect(await check(legacy(without('kubernetes.io/serviceaccount/service-account.uid')))).toBe('serviceAccountUID claim is missing');
    expect(await check(legacy({ ...full, sub: 'system:serviceaccount:ns:other' }))).toBe('sub claim is invalid');
    expect(await check(legacy({ ...full, sub: 'system:serviceaccount:NS:sa' }))).toBe('sub claim is invalid');
  });
});

describe('keys', () => {
  it('verifies with any of several keys (rotation), public keys from a key file', async () => {
    const oldKey = parseSigningKey(fixture('ec-p256.pem'));
    const newKey = parseSigningKey(fixture('rsa-pkcs1.pem'));
    const keys = [...parseVerificationKeys(fixture('rsa-public.pem')), ...parseVerificationKeys(fixture('ec-p256-public.pem'))];
    const authenticator = createServiceAccountAuthenticator({ issuers: [ISSUER], keys, apiAudiences: [ISSUER], read, now: () => now });
    for (const key of [oldKey, newKey]) {
      const { token } = await setup(key).issuer.issueBound(request());
      expect((await authenticator.authenticateToken(token))?.user.username).toBe('system:serviceaccount:ns:sa');
    }
  });
});
