/**
 * `memkube serve --tls --enable-bootstrap-token-auth` with the real kubectl: `kubectl certificate
 * approve|deny`, the signer issuing certificates with the serving CA, and a node's TLS bootstrap
 * by hand (a bootstrap token sends the node's request, it is approved automatically, and the
 * issued certificate authenticates as the node).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateRequest } from '../../src/pki/certificate-request.js';
import { kubeconfigAs, kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/bin/kubectl';

function ecKey(): string {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}

const csrManifest = async (name: string, key: string, subject: { commonName: string; organizations?: string[] }, signerName: string, usages: string[]) =>
  [
    'apiVersion: certificates.k8s.io/v1',
    'kind: CertificateSigningRequest',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  request: ${Buffer.from(await createCertificateRequest(key, subject)).toString('base64')}`,
    `  signerName: ${signerName}`,
    `  usages: [${usages.map((u) => JSON.stringify(u)).join(', ')}]`,
    '',
  ].join('\n');

describe('kubectl certificate approve|deny against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const kubeconfig = () => join(dir, 'kubeconfig');
  const { kubectl, ok } = kubectlRunner(KUBECTL, kubeconfig, () => dir);

  /** `kubectl auth whoami` with a kubeconfig whose user is this certificate and key. */
  const whoamiWith = async (name: string) => {
    const file = kubeconfigAs(kubeconfig(), join(dir, `${name}-kubeconfig`), { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) });
    const out = await kubectlRunner(
      KUBECTL,
      () => file,
      () => dir,
    ).ok('auth', 'whoami', '-o', 'json');
    return (JSON.parse(out) as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo;
  };

  const certificateOf = async (name: string) => {
    for (let i = 0; i < 100; i++) {
      const out = await ok('get', 'csr', name, '-o', 'jsonpath={.status.certificate}');
      if (out) return Buffer.from(out, 'base64').toString('utf8');
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no certificate for ${name}`);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-certs-'));
    server = await startServe(kubeconfig(), ['--tls', '--enable-bootstrap-token-auth']);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('approves a client certificate request, whose certificate then authenticates its holder', async () => {
    const key = ecKey();
    await writeFile(
      join(dir, 'alice.yaml'),
      await csrManifest('alice', key, { commonName: 'alice', organizations: ['dev'] }, 'kubernetes.io/kube-apiserver-client', ['client auth']),
    );
    await ok('create', '-f', 'alice.yaml');
    expect(await ok('certificate', 'approve', 'alice')).toBe('certificatesigningrequest.certificates.k8s.io/alice approved\n');
    const cert = await certificateOf('alice');
    await writeFile(join(dir, 'alice.crt'), cert);
    await writeFile(join(dir, 'alice.key'), key);
    expect(await whoamiWith('alice')).toMatchObject({ username: 'alice', groups: ['dev', 'system:authenticated'] });
    expect(await ok('get', 'csr', 'alice', '-o', 'jsonpath={.status.conditions[0].type}/{.status.conditions[0].reason}')).toBe('Approved/KubectlApprove');
  }, 30_000);

  it('denies a request, which then gets no certificate', async () => {
    await writeFile(join(dir, 'bob.yaml'), await csrManifest('bob', ecKey(), { commonName: 'bob' }, 'kubernetes.io/kube-apiserver-client', ['client auth']));
    await ok('create', '-f', 'bob.yaml');
    expect(await ok('certificate', 'deny', 'bob')).toBe('certificatesigningrequest.certificates.k8s.io/bob denied\n');
    expect(await ok('get', 'csr', 'bob', '-o', 'jsonpath={.status.conditions[0].type}/{.status.conditions[0].reason}{.status.certificate}')).toBe(
      'Denied/KubectlDeny',
    );
    const again = await kubectl('certificate', 'approve', 'bob');
    expect(again.code).not.toBe(0);
  }, 30_000);

  it('bootstraps a node: its bootstrap token requests a node client certificate, approved and signed automatically', async () => {
    await writeFile(
      join(dir, 'token.yaml'),
      [
        'apiVersion: v1',
        'kind: Secret',
        'metadata: {name: bootstrap-token-abcdef, namespace: kube-system}',
        'type: bootstrap.kubernetes.io/token',
        'stringData: {token-id: abcdef, token-secret: 0123456789abcdef, usage-bootstrap-authentication: "true"}',
        '',
      ].join('\n'),
    );
    await ok('create', '-f', 'token.yaml');
    const bootstrap = kubeconfigAs(kubeconfig(), join(dir, 'bootstrap-kubeconfig'), { token: 'abcdef.0123456789abcdef' });
    const key = ecKey();
    await writeFile(
      join(dir, 'node.yaml'),
      await csrManifest('node-csr-n1', key, { commonName: 'system:node:n1', organizations: ['system:nodes'] }, 'kubernetes.io/kube-apiserver-client-kubelet', [
        'digital signature',
        'key encipherment',
        'client auth',
      ]),
    );
    const asBootstrapper = kubectlRunner(
      KUBECTL,
      () => bootstrap,
      () => dir,
    );
    await asBootstrapper.ok('create', '-f', 'node.yaml');
    expect(await ok('get', 'csr', 'node-csr-n1', '-o', 'jsonpath={.spec.username}')).toBe('system:bootstrap:abcdef');
    await writeFile(join(dir, 'node.crt'), await certificateOf('node-csr-n1'));
    await writeFile(join(dir, 'node.key'), key);
    expect(await ok('get', 'csr', 'node-csr-n1', '-o', 'jsonpath={.status.conditions[0].reason}: {.status.conditions[0].message}')).toBe(
      'AutoApproved: Auto approving kubelet client certificate after SubjectAccessReview.',
    );
    expect(await whoamiWith('node')).toMatchObject({ username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] });
  }, 30_000);
});
