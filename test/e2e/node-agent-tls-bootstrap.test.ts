/**
 * A node agent's TLS bootstrap against `memkube serve --tls --enable-bootstrap-token-auth
 * --authorization-mode Node,RBAC`, as kubeadm sets a node up: with only a bootstrap kubeconfig
 * (a bootstrap token), `memkube node-agent` requests a node client certificate, the API server's
 * controllers approve (the token's group may create node client requests) and sign it, the agent
 * writes its kubeconfig and registers its Node as `system:node:<name>`, which the Node authorizer
 * lets it do.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigAs, kubectlRunner } from '../support/kubectl.js';
import { eventually, freePort, startMemkube, type MemkubeProcess } from '../support/memkube-process.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-tls-bootstrap-'));
const kubeconfig = join(dir, 'kubeconfig');
const { kubectl, ok } = kubectlRunner(
  '/usr/bin/kubectl',
  () => kubeconfig,
  () => dir,
);

let serve: ServeProcess;
let cri: MemkubeProcess;
let agent: MemkubeProcess;

const BOOTSTRAP_OBJECTS = `apiVersion: v1
kind: Secret
metadata: {name: bootstrap-token-abcdef, namespace: kube-system}
type: bootstrap.kubernetes.io/token
stringData: {token-id: abcdef, token-secret: 0123456789abcdef, usage-bootstrap-authentication: "true"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kubelet-bootstrap}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:node-bootstrapper}
subjects: [{kind: Group, name: system:bootstrappers, apiGroup: rbac.authorization.k8s.io}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: node-autoapprove-bootstrap}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:certificates.k8s.io:certificatesigningrequests:nodeclient}
subjects: [{kind: Group, name: system:bootstrappers, apiGroup: rbac.authorization.k8s.io}]
`;

beforeAll(async () => {
  serve = await startServe(kubeconfig, [
    '--tls',
    '--kubelet-preferred-address-types=InternalIP,Hostname',
    '--enable-bootstrap-token-auth',
    '--authorization-mode',
    'Node,RBAC',
  ]);
  writeFileSync(join(dir, 'bootstrap.yaml'), BOOTSTRAP_OBJECTS);
  await ok('apply', '-f', join(dir, 'bootstrap.yaml'));
  const bootstrapKubeconfig = kubeconfigAs(kubeconfig, join(dir, 'bootstrap-kubeconfig'), { token: 'abcdef.0123456789abcdef' });
  const config = join(dir, 'node.yaml');
  writeFileSync(
    config,
    `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
podLogsDir: ${join(dir, 'logs')}
address: 127.0.0.1
authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
authorization: {mode: AlwaysAllow}
`,
  );
  cri = await startMemkube(['cri', '--socket', join(dir, 'cri.sock')]);
  agent = await startMemkube([
    'node-agent',
    `--config=${config}`,
    `--bootstrap-kubeconfig=${bootstrapKubeconfig}`,
    `--kubeconfig=${join(dir, 'node-kubeconfig')}`,
    `--container-runtime-endpoint=unix://${join(dir, 'cri.sock')}`,
    `--root-dir=${join(dir, 'root')}`,
    `--cert-dir=${join(dir, 'root', 'pki')}`,
    '--hostname-override=boot-1',
    '--node-ip=127.0.0.1',
    `--port=${await freePort()}`,
  ]);
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await cri?.stop();
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a node agent bootstrapping its client certificate', () => {
  it('has its request approved and signed, writes its kubeconfig and certificate, and registers as system:node:<name>', async () => {
    const csrs = await ok(
      'get',
      'csr',
      '-o',
      'jsonpath={range .items[*]}{.metadata.name} {.spec.username} {.spec.signerName} {.status.conditions[0].type}{"\\n"}{end}',
    );
    expect(csrs).toMatch(/^node-csr-\S+ system:bootstrap:abcdef kubernetes\.io\/kube-apiserver-client-kubelet Approved$/m);
    expect(existsSync(join(dir, 'root', 'pki', 'kubelet-client-current.pem'))).toBe(true);
    expect(readFileSync(join(dir, 'node-kubeconfig'), 'utf8')).toContain('kubelet-client-current.pem');
    const node = await eventually('the node registered', async () => {
      const r = await kubectl('get', 'node', 'boot-1', '-o', 'jsonpath={.metadata.name} {.status.conditions[?(@.type=="Ready")].status}');
      return r.code === 0 && r.stdout ? r.stdout : undefined;
    });
    expect(node).toBe('boot-1 True');
    // The Node's lease was written with the node's own credentials, which the Node authorizer allows.
    expect(await ok('get', 'lease', '-n', 'kube-node-lease', 'boot-1', '-o', 'jsonpath={.spec.holderIdentity}')).toBe('boot-1');
    const whoami = await kubectl('--kubeconfig', join(dir, 'node-kubeconfig'), 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}');
    expect(whoami.stdout).toBe('system:node:boot-1');
  });
});
