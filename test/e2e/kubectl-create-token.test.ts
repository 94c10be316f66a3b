/**
 * `kubectl create token` (kubectl 1.33) against `memkube serve` started with a signing key and a
 * key file: the token it prints carries the audience, duration and bound pod asked for, verifies
 * with jose against the key set of that key file, and is accepted by the service account
 * authenticator of a cluster configured with the same keys.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountAuthenticator, jsonWebKeySet, parseVerificationKeys } from '../../src/auth/serviceaccount/index.js';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const FIXTURES = join(import.meta.dirname, '..', 'auth', 'serviceaccount', 'fixtures');
const ISSUER = 'https://issuer.example';

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe.skipIf(!existsSync(KUBECTL))('kubectl create token against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const { ok, kubectl } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );
  const keys = parseVerificationKeys(readFileSync(join(FIXTURES, 'rsa-public.pem'), 'utf8'));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-token-'));
    server = await startServe(join(dir, 'kubeconfig'), [
      '--service-account-issuer',
      ISSUER,
      '--service-account-signing-key-file',
      join(FIXTURES, 'rsa-pkcs1.pem'),
      '--service-account-key-file',
      join(FIXTURES, 'rsa-public.pem'),
      '--service-account-max-token-expiration',
      '48h',
    ]);
    await ok('create', 'serviceaccount', 'robot');
    await writeFile(
      join(dir, 'pod.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: worker\nspec:\n  serviceAccountName: robot\n  containers:\n  - name: c\n    image: nginx\n',
    );
    await ok('apply', '-f', 'pod.yaml');
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints a token for the API audience that verifies against the key set', async () => {
    const token = (await ok('create', 'token', 'robot')).trim();
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jsonWebKeySet(keys)), { issuer: ISSUER, audience: ISSUER });
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: keys[0]!.kid });
    expect(payload.sub).toBe('system:serviceaccount:default:robot');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
  });

  it('--audience, --duration and a bound pod; the service account authenticator accepts it with the pod as extra', async () => {
    const token = (
      await ok(
        'create',
        'token',
        'robot',
        '--audience',
        'vault',
        '--audience',
        ISSUER,
        '--duration',
        '2h',
        '--bound-object-kind',
        'Pod',
        '--bound-object-name',
        'worker',
      )
    ).trim();
    const claims = claimsOf(token);
    expect(claims.aud).toEqual(['vault', ISSUER]);
    expect((claims.exp as number) - (claims.iat as number)).toBe(7200);
    const podUid = JSON.parse(await ok('get', 'pod', 'worker', '-o', 'json')).metadata.uid as string;
    const saUid = JSON.parse(await ok('get', 'serviceaccount', 'robot', '-o', 'json')).metadata.uid as string;
    expect(claims['kubernetes.io']).toEqual({ namespace: 'default', pod: { name: 'worker', uid: podUid }, serviceaccount: { name: 'robot', uid: saUid } });
    await jwtVerify(token, createLocalJWKSet(jsonWebKeySet(keys)), { issuer: ISSUER, audience: 'vault' });

    const objects: Record<string, object> = {
      'serviceaccounts/default/robot': { metadata: { uid: saUid } },
      'pods/default/worker': { metadata: { uid: podUid } },
    };
    const authenticator = createServiceAccountAuthenticator({
      issuers: [ISSUER],
      keys,
      apiAudiences: [ISSUER],
      read: async (gr, ns, name) => objects[`${gr.resource}/${ns}/${name}`],
      now: () => Date.now(),
    });
    expect((await authenticator.authenticateToken(token, ['vault']))?.user).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      extra: { 'authentication.kubernetes.io/pod-name': ['worker'], 'authentication.kubernetes.io/pod-uid': [podUid] },
    });
  });

  it('a longer duration than the maximum is shortened; a short one and a pod of another account are refused', async () => {
    const long = await kubectl('create', 'token', 'robot', '--duration', '72h');
    expect(long.code).toBe(0);
    expect(long.stderr).toContain('requested expiration of 259200 seconds shortened to 172800 seconds');
    const claims = claimsOf(long.stdout.trim());
    expect((claims.exp as number) - (claims.iat as number)).toBe(172800);

    const short = await kubectl('create', 'token', 'robot', '--duration', '5m');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('may not specify a duration less than 10 minutes');

    await ok('create', 'serviceaccount', 'other');
    const wrong = await kubectl('create', 'token', 'other', '--bound-object-kind', 'Pod', '--bound-object-name', 'worker');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.');
  });
});
