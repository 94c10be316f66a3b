/**
 * memkube serve + memkube node-agent + memkube's CRI runtime, as a user runs them: kubectl sees
 * the node and its pods Running, `kubectl logs` reaches the agent through the API server, and the
 * agent's checkpoint endpoint answers every one of its outcomes: an archive on disk, 404 for an
 * unknown pod or container and with the ContainerCheckpoint gate off, 500 for a runtime that
 * fails or does not implement checkpoints, 401 and 403 under the agent's authentication
 * (anonymous, client certificates, TokenReview) and authorization (AlwaysAllow, SubjectAccessReview).
 */
import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCriRuntime, type CriRuntimeServer } from '../../src/cri/runtime/server.js';
import { readTar } from '../../src/cri/runtime/tar.js';
import { loadNodeAgentSettings } from '../../src/nodeagent/config/load.js';
import { runNodeAgent, type RunningNodeAgent } from '../../src/nodeagent/run.js';
import { generateCertificateAuthority, signClientCertificate } from '../../src/pki/self-signed.js';
import { kubectlRunner } from '../support/kubectl.js';
import { eventually, freePort, startMemkube, type MemkubeProcess } from '../support/memkube-process.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-node-agent-'));
const kubeconfig = join(dir, 'kubeconfig');
const { kubectl, ok } = kubectlRunner(
  '/usr/bin/kubectl',
  () => kubeconfig,
  () => dir,
);

let serve: ServeProcess;
let cri: MemkubeProcess;
let agent: MemkubeProcess;
let agentPort: number;
const inProcess: { runtime: CriRuntimeServer; agent: RunningNodeAgent }[] = [];
let secured: { port: number; runtime: CriRuntimeServer };
let gated: { port: number };

interface Answer {
  status: number;
  body: string;
  contentType: string | undefined;
}

function call(port: number, method: string, path: string, auth: { token?: string; cert?: string; key?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        rejectUnauthorized: false,
        ...(auth.cert ? { cert: auth.cert, key: auth.key } : {}),
        headers: auth.token ? { authorization: `Bearer ${auth.token}` } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, contentType: res.headers['content-type'] }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function writeConfig(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A node agent in this process (the code `memkube node-agent` runs) with its own memkube CRI runtime. */
async function agentInProcess(node: string, config: string, extraFlags: string[] = []): Promise<{ port: number; runtime: CriRuntimeServer }> {
  const socket = join(dir, `${node}.sock`);
  const runtime = await createCriRuntime({ socket });
  const port = await freePort();
  const settings = loadNodeAgentSettings([
    `--config=${config}`,
    `--kubeconfig=${kubeconfig}`,
    `--container-runtime-endpoint=unix://${socket}`,
    `--root-dir=${join(dir, node)}`,
    `--cert-dir=${join(dir, node, 'pki')}`,
    `--hostname-override=${node}`,
    '--node-ip=127.0.0.1',
    '--address=127.0.0.1',
    `--port=${port}`,
    ...extraFlags,
  ]);
  const running = await runNodeAgent({ settings });
  inProcess.push({ runtime, agent: running });
  return { port, runtime };
}

const podManifest = (name: string, node: string, env: Record<string, string> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName: node,
      hostNetwork: true,
      containers: [{ name: 'c', image: 'busybox', env: Object.entries(env).map(([k, v]) => ({ name: k, value: v })) }],
    },
  });

async function runningPod(name: string): Promise<void> {
  await eventually(`pod ${name} Running`, async () => {
    const phase = (await kubectl('get', 'pod', name, '-o', 'jsonpath={.status.phase}')).stdout;
    return phase === 'Running' ? true : undefined;
  });
}

const ca = await generateCertificateAuthority({ commonName: 'node-agent-client-ca' });
const carol = await signClientCertificate({ ca, commonName: 'carol', now: Date.now(), validityMs: 3_600_000 });

beforeAll(async () => {
  const tokens = writeConfig('tokens.csv', 'alice-token,alice,1\nbob-token,bob,2\n');
  serve = await startServe(kubeconfig, [
    '--tls',
    '--kubelet-preferred-address-types=InternalIP,Hostname',
    '--authorization-mode',
    'RBAC',
    '--token-auth-file',
    tokens,
  ]);
  const open = writeConfig(
    'open.yaml',
    `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
podLogsDir: ${join(dir, 'logs')}
authentication:
  anonymous:
    enabled: true
  webhook:
    enabled: false
authorization:
  mode: AlwaysAllow
`,
  );
  cri = await startMemkube(['cri', '--socket', join(dir, 'cri.sock')]);
  agentPort = await freePort();
  agent = await startMemkube([
    'node-agent',
    `--config=${open}`,
    `--kubeconfig=${kubeconfig}`,
    `--container-runtime-endpoint=unix://${join(dir, 'cri.sock')}`,
    `--root-dir=${join(dir, 'n1')}`,
    `--cert-dir=${join(dir, 'n1', 'pki')}`,
    '--hostname-override=n1',
    '--node-ip=127.0.0.1',
    '--address=127.0.0.1',
    `--port=${agentPort}`,
  ]);
  // n2: nothing anonymous; client certificates of a CA of its own, bearer tokens through
  // TokenReview, every request through SubjectAccessReview; its runtime does not checkpoint.
  const clientCa = writeConfig('client-ca.crt', ca.cert);
  const strict = writeConfig(
    'strict.yaml',
    `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
podLogsDir: ${join(dir, 'logs')}
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
  x509:
    clientCAFile: ${clientCa}
authorization:
  mode: Webhook
`,
  );
  secured = await agentInProcess('n2', strict);
  secured.runtime.runtime.faults.checkpointsUnimplemented();
  gated = await agentInProcess('n3', open, ['--feature-gates=ContainerCheckpoint=false']);
  // alice and carol may checkpoint on the nodes (kubelet's fine-grained subresource); bob may not.
  writeConfig(
    'rbac.yaml',
    `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: node-checkpointer}
rules:
- apiGroups: [""]
  resources: [nodes/checkpoint]
  verbs: [create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: node-checkpointers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-checkpointer}
subjects:
- {kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}
- {kind: User, name: carol, apiGroup: rbac.authorization.k8s.io}
`,
  );
  await ok('apply', '-f', join(dir, 'rbac.yaml'));
  writeConfig('p1.json', podManifest('p1', 'n1', { MEMKUBE_CRI_STDOUT: 'hello from memkube cri\nsecond line\n' }));
  writeConfig('p2.json', podManifest('p2', 'n1', { MEMKUBE_CRI_CHECKPOINT_ERROR: 'criu failed: type NOTIFY errno 0' }));
  writeConfig('p3.json', podManifest('p3', 'n2'));
  writeConfig('p4.json', podManifest('p4', 'n3'));
  for (const p of ['p1', 'p2', 'p3', 'p4']) await ok('apply', '-f', join(dir, `${p}.json`));
  for (const p of ['p1', 'p2', 'p3', 'p4']) await runningPod(p);
}, 120_000);

afterAll(async () => {
  for (const { agent: a, runtime } of inProcess) {
    await a.stop();
    await runtime.close();
  }
  await agent?.stop();
  await cri?.stop();
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('memkube serve + memkube node-agent + memkube cri', () => {
  it('registers the nodes, Ready, and runs their pods: kubectl get shows them Running on their nodes', async () => {
    const nodes = await ok('get', 'nodes', '-o', 'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status', '--no-headers');
    expect(nodes.split('\n').filter(Boolean).sort()).toEqual(['n1    True', 'n2    True', 'n3    True']);
    const pods = await ok('get', 'pods', '-o', 'wide', '--no-headers');
    expect(pods).toMatch(/^p1\s+1\/1\s+Running\s+0\s+\S+\s+127\.0\.0\.1\s+n1\s/m);
    const id = await ok('get', 'pod', 'p1', '-o', 'jsonpath={.status.containerStatuses[0].containerID}');
    expect(id).toMatch(/^memkube:\/\/[0-9a-f]{64}$/);
  });

  it('kubectl logs reads the container log through the API server and the agent', async () => {
    expect(await ok('logs', 'p1')).toBe('hello from memkube cri\nsecond line\n');
    expect(await ok('logs', 'p1', '--tail=1')).toBe('second line\n');
    expect(await ok('logs', 'p1', '-c', 'c', '--timestamps')).toMatch(/^\d{4}-\d\d-\d\dT\S+Z hello from memkube cri\n/);
  });

  it('checkpoints a running container into an archive under <root-dir>/checkpoints that only root may read', async () => {
    const answer = await call(agentPort, 'POST', '/checkpoint/default/p1/c');
    expect(answer.status).toBe(200);
    const { items } = JSON.parse(answer.body) as { items: string[] };
    expect(items).toHaveLength(1);
    expect(items[0]).toMatch(new RegExp(`^${join(dir, 'n1', 'checkpoints')}/checkpoint-p1_default-c-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\.tar$`));
    expect(statSync(items[0]!).mode & 0o777).toBe(0o600);
    const names = readTar(readFileSync(items[0]!)).map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['config.dump', 'spec.dump', 'checkpoint/']));
  });

  it('checkpoints through the API server too (nodes/proxy)', async () => {
    writeConfig('empty.json', '{}');
    const out = await ok('create', '--raw', '/api/v1/nodes/n1/proxy/checkpoint/default/p1/c', '-f', join(dir, 'empty.json'));
    expect(out).toMatch(/"items":\[".*checkpoint-p1_default-c-.*\.tar"\]/);
  });

  it('answers 404 for a pod or a container the node does not have', async () => {
    expect(await call(agentPort, 'POST', '/checkpoint/default/nope/c')).toMatchObject({ status: 404, body: 'pod does not exist' });
    expect(await call(agentPort, 'POST', '/checkpoint/default/p1/other')).toMatchObject({ status: 404, body: 'container other does not exist' });
    expect(await call(agentPort, 'POST', '/checkpoint/other/p1/c')).toMatchObject({ status: 404, body: 'pod does not exist' });
  });

  it('answers 404 with the ContainerCheckpoint gate off', async () => {
    const answer = await call(gated.port, 'POST', '/checkpoint/default/p4/c');
    expect(answer.status).toBe(404);
    expect(answer.body).toBe('404 page not found\n');
  });

  it("answers 500 with the runtime's message when the checkpoint fails", async () => {
    const answer = await call(agentPort, 'POST', '/checkpoint/default/p2/c');
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('checkpointing of default/p2/c failed (rpc error: code = Unknown desc = criu failed: type NOTIFY errno 0)');
  });

  it('answers 401 to a caller without credentials when anonymous requests are off', async () => {
    const answer = await call(secured.port, 'POST', '/checkpoint/default/p3/c');
    expect(answer.status).toBe(401);
    expect(answer.body).toBe('Unauthorized');
    expect((await call(secured.port, 'POST', '/checkpoint/default/p3/c', { token: 'not-a-token' })).status).toBe(401);
  });

  it('answers 403 to an authenticated caller the SubjectAccessReview denies', async () => {
    const answer = await call(secured.port, 'POST', '/checkpoint/default/p3/c', { token: 'bob-token' });
    expect(answer.status).toBe(403);
    expect(answer.body).toBe('Forbidden (user=bob, verb=create, resource=nodes, subresource(s)=[checkpoint])\n');
  });

  it('lets allowed callers through, by bearer token or client certificate, to a runtime without checkpoints: 500', async () => {
    const expected = 'checkpointing of default/p3/c failed (rpc error: code = Unimplemented desc = method CheckpointContainer not implemented)';
    expect(await call(secured.port, 'POST', '/checkpoint/default/p3/c', { token: 'alice-token' })).toMatchObject({ status: 500, body: expected });
    expect(await call(secured.port, 'POST', '/checkpoint/default/p3/c', { cert: carol.cert, key: carol.key })).toMatchObject({ status: 500, body: expected });
  });
});
