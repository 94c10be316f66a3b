/**
 * Authentication and authorization end to end: `memkube serve --tls` with RBAC, a static token
 * file, a client CA and an AuthenticationConfiguration whose JWT issuer is a real HTTPS OIDC
 * provider the test runs; kubectl 1.33 and @kubernetes/client-node act as users authenticated by
 * client certificate, static token, service account token and OIDC token, authorized by RBAC
 * objects applied with kubectl, and refused with kube-apiserver's 401 and 403 answers.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateServingCertificate, signClientCertificate } from '../../src/pki/self-signed.js';
import { sign, signingKey, startProvider, type OidcProvider, type SigningKey } from '../auth/authn/jwt/oidc-server.js';
import { kubeconfigAs, kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const HOUR = 3_600_000;

describe.skipIf(!existsSync(KUBECTL))('kubectl and client-node against memkube serve with RBAC, tokens, client certificates and OIDC', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  let provider: OidcProvider | undefined;
  let key: SigningKey;
  const admin = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );
  let users = 0;
  /** A client-node configuration for the server of the admin kubeconfig, as `user`. */
  const clientConfig = (user: k8s.User): k8s.KubeConfig => {
    const admin = new k8s.KubeConfig();
    admin.loadFromFile(join(dir, 'kubeconfig'));
    const cluster = admin.getCurrentCluster()!;
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: [user],
      contexts: [{ name: user.name, cluster: cluster.name, user: user.name }],
      currentContext: user.name,
    });
    return kc;
  };
  /** kubectl with the admin kubeconfig's cluster but another user: a token, or a client certificate and key (PEM files). */
  const as = (user: { token: string } | { cert: string; key: string }) => {
    const file = kubeconfigAs(join(dir, 'kubeconfig'), join(dir, `user-${++users}.kubeconfig`), user);
    return kubectlRunner(
      KUBECTL,
      () => file,
      () => dir,
    ).kubectl;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-auth-'));
    key = await signingKey('RS256', 'k1');
    provider = await startProvider([key.jwk]);
    const clientCA = (await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'users-ca' })).ca;
    const carol = await signClientCertificate({ ca: clientCA, commonName: 'carol', organizations: ['devs'], now: Date.now(), validityMs: HOUR });
    await writeFile(join(dir, 'client-ca.crt'), clientCA.cert);
    await writeFile(join(dir, 'carol.crt'), carol.cert);
    await writeFile(join(dir, 'carol.key'), carol.key);
    await writeFile(join(dir, 'tokens.csv'), 'alice-token,alice,a1,"devs,qa"\nbob-token,bob,b1\n');
    await writeFile(
      join(dir, 'authn.yaml'),
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AuthenticationConfiguration',
        'jwt:',
        '- issuer:',
        `    url: ${provider.url}`,
        '    audiences: [memkube]',
        '    certificateAuthority: |',
        ...provider.ca
          .trim()
          .split('\n')
          .map((l) => `      ${l}`),
        '  claimMappings:',
        '    username: {claim: sub, prefix: "oidc:"}',
        '    groups: {claim: groups, prefix: "oidc:"}',
        '  claimValidationRules:',
        '  - expression: "claims.tenant == \'acme\'"',
        '    message: only acme users',
      ].join('\n') + '\n',
    );
    server = await startServe(join(dir, 'kubeconfig'), [
      '--tls',
      '--authorization-mode',
      'Node,RBAC',
      '--token-auth-file',
      join(dir, 'tokens.csv'),
      '--client-ca-file',
      join(dir, 'client-ca.crt'),
      '--authentication-config',
      join(dir, 'authn.yaml'),
    ]);
    await writeFile(
      join(dir, 'rbac.yaml'),
      `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm-reader, namespace: default}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: devs-read-cm, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader}
subjects:
- {kind: Group, name: devs, apiGroup: rbac.authorization.k8s.io}
- {kind: Group, name: "oidc:ops", apiGroup: rbac.authorization.k8s.io}
- {kind: ServiceAccount, name: robot, namespace: default}
`,
    );
    await admin.ok('apply', '-f', 'rbac.yaml');
    await admin.ok('create', 'configmap', 'settings', '--from-literal=a=b');
    await admin.ok('create', 'serviceaccount', 'robot');
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await provider?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the kubeconfig memkube writes authenticates as system:admin in system:masters', async () => {
    const who = await admin.ok('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}');
    expect(who).toBe('system:admin ["system:masters","system:authenticated"]');
  });

  it('a static token user reads what RBAC grants and is refused the rest with the 403 message of a real cluster', async () => {
    const alice = as({ token: 'alice-token' });
    expect((await alice('get', 'configmap', 'settings', '-o', 'name')).stdout).toBe('configmap/settings\n');
    const refused = await alice('delete', 'configmap', 'settings');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'Error from server (Forbidden): configmaps "settings" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "default"',
    );
    const secrets = await alice('get', 'secrets', '-n', 'kube-system');
    expect(secrets.stderr).toContain('secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "kube-system"');
  });

  it('kubectl auth can-i answers as on a real cluster, with --list and --as', async () => {
    const alice = as({ token: 'alice-token' });
    expect((await alice('auth', 'can-i', 'list', 'configmaps')).stdout).toBe('yes\n');
    const no = await alice('auth', 'can-i', 'delete', 'configmaps');
    expect([no.stdout, no.code]).toEqual(['no\n', 1]);
    const list = (await alice('auth', 'can-i', '--list', '-n', 'default')).stdout;
    expect(list).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(list).toMatch(/^selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    // The administrator may impersonate; bob may not read config maps.
    expect((await admin.kubectl('auth', 'can-i', 'get', 'configmaps', '--as', 'bob')).stdout).toBe('no\n');
    expect((await admin.kubectl('auth', 'can-i', 'get', 'configmaps', '--as', 'bob', '--as-group', 'devs')).stdout).toBe('yes\n');
    const impersonating = await alice('get', 'configmaps', '--as', 'bob');
    expect(impersonating.stderr).toContain('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('a client certificate from the client CA authenticates its CommonName and Organizations', async () => {
    const carol = as({ cert: join(dir, 'carol.crt'), key: join(dir, 'carol.key') });
    expect((await carol('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}')).stdout).toBe(
      'carol ["devs","system:authenticated"]',
    );
    expect((await carol('get', 'configmap', 'settings', '-o', 'name')).stdout).toBe('configmap/settings\n');
  });

  it('a service account token from kubectl create token authenticates the account, which its RoleBinding authorizes', async () => {
    const token = (await admin.ok('create', 'token', 'robot')).trim();
    const robot = as({ token });
    expect((await robot('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}')).stdout).toBe('system:serviceaccount:default:robot');
    expect((await robot('get', 'configmaps', '-o', 'name')).stdout).toBe('configmap/settings\n');
    expect((await robot('get', 'pods')).stderr).toContain('User "system:serviceaccount:default:robot" cannot list resource "pods"');
  });

  it('an OIDC token from the issuer authenticates with its mapped claims; a bad one gets 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: provider!.url, aud: 'memkube', sub: 'dana', groups: ['ops'], tenant: 'acme', iat: now, exp: now + 600 };
    const good = as({ token: await sign(key, claims) });
    expect((await good('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}')).stdout).toBe(
      'oidc:dana ["oidc:ops","system:authenticated"]',
    );
    expect((await good('get', 'configmap', 'settings', '-o', 'name')).stdout).toBe('configmap/settings\n');
    for (const bad of [
      { ...claims, exp: now - 60 },
      { ...claims, aud: 'other' },
      { ...claims, tenant: 'evil' },
    ]) {
      const refused = await as({ token: await sign(key, bad) })('get', 'configmaps');
      expect(refused.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
    }
    const unknownToken = await as({ token: 'not-a-token' })('get', 'configmaps');
    expect(unknownToken.stderr).toContain('You must be logged in to the server (Unauthorized)');
  });

  it('@kubernetes/client-node authenticates by client certificate, service account token and OIDC token, and RBAC authorizes it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const oidc = await sign(key, { iss: provider!.url, aud: 'memkube', sub: 'erin', groups: ['ops'], tenant: 'acme', iat: now, exp: now + 600 });
    const robot = (await admin.ok('create', 'token', 'robot')).trim();
    const users: [k8s.User, string][] = [
      [{ name: 'carol', certFile: join(dir, 'carol.crt'), keyFile: join(dir, 'carol.key') }, 'carol'],
      [{ name: 'robot', token: robot }, 'system:serviceaccount:default:robot'],
      [{ name: 'erin', token: oidc }, 'oidc:erin'],
    ];
    for (const [user, username] of users) {
      const kc = clientConfig(user);
      const review = await kc
        .makeApiClient(k8s.AuthenticationV1Api)
        .createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
      expect(review.status?.userInfo?.username).toBe(username);
      const list = await kc.makeApiClient(k8s.CoreV1Api).listNamespacedConfigMap({ namespace: 'default' });
      expect(list.items.map((c) => c.metadata?.name)).toContain('settings');
    }
    // A tampered OIDC token is refused with 401.
    const tampered = clientConfig({ name: 'mallory', token: `${oidc.slice(0, -4)}AAAA` });
    const error = await tampered
      .makeApiClient(k8s.CoreV1Api)
      .listNamespacedConfigMap({ namespace: 'default' })
      .then(
        () => undefined,
        (e: unknown) => e as { code: number },
      );
    expect(error?.code).toBe(401);
  });

  it('@kubernetes/client-node as a token user sees the same 403 Status body', async () => {
    const core = clientConfig({ name: 'bob', token: 'bob-token' }).makeApiClient(k8s.CoreV1Api);
    const error = await core.listNamespacedConfigMap({ namespace: 'default' }).then(
      () => undefined,
      (e: unknown) => e as { code: number; body: string },
    );
    expect(error?.code).toBe(403);
    expect(JSON.parse(error!.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
  });
});
