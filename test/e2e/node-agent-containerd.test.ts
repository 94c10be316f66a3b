/**
 * memkube serve + memkube node-agent + a real containerd (Debian's 1.6 with its CRI plugin and runc,
 * see test/support/containerd/start.ts): a host-network busybox pod really runs, kubectl shows it
 * Running with containerd's container ID, `kubectl logs` reads what it printed, and the agent's
 * checkpoint endpoint answers 500 with containerd's own refusal (containerd 1.6 does not implement
 * CheckpointContainer).
 */
import { request } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContainerd, type RunningContainerd } from '../support/containerd/start.js';
import { kubectlRunner } from '../support/kubectl.js';
import { eventually, freePort, startMemkube, type MemkubeProcess } from '../support/memkube-process.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'memkube-node-agent-containerd-'));
const kubeconfig = join(dir, 'kubeconfig');
const { kubectl, ok } = kubectlRunner(
  '/usr/bin/kubectl',
  () => kubeconfig,
  () => dir,
);

let containerd: RunningContainerd;
let serve: ServeProcess;
let agent: MemkubeProcess;
let port: number;

function post(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  [containerd, serve] = await Promise.all([startContainerd(), startServe(kubeconfig, ['--tls', '--kubelet-preferred-address-types=InternalIP,Hostname'])]);
  const config = join(dir, 'node.yaml');
  writeFileSync(
    config,
    `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
containerRuntimeEndpoint: ${containerd.endpoint}
podLogsDir: ${join(containerd.dir, 'pod-logs')}
address: 127.0.0.1
authentication:
  anonymous:
    enabled: true
  webhook:
    enabled: false
authorization:
  mode: AlwaysAllow
`,
  );
  port = await freePort();
  agent = await startMemkube([
    'node-agent',
    `--config=${config}`,
    `--kubeconfig=${kubeconfig}`,
    `--root-dir=${join(dir, 'root')}`,
    `--cert-dir=${join(dir, 'root', 'pki')}`,
    '--hostname-override=containerd-node',
    '--node-ip=127.0.0.1',
    `--port=${port}`,
  ]);
  writeFileSync(
    join(dir, 'pod.json'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'hello', namespace: 'default' },
      spec: {
        nodeName: 'containerd-node',
        hostNetwork: true,
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'main', image: containerd.images.busybox, command: ['sh', '-c', 'echo hello from containerd; exec sleep 1000'] }],
      },
    }),
  );
  await ok('apply', '-f', join(dir, 'pod.json'));
  await eventually(
    'the pod Running',
    async () => ((await kubectl('get', 'pod', 'hello', '-o', 'jsonpath={.status.phase}')).stdout === 'Running' ? true : undefined),
    60_000,
  );
}, 240_000);

afterAll(async () => {
  // The pod goes first, so containerd has no task left when it stops.
  if (agent) await kubectl('delete', 'pod', 'hello', '--wait=false');
  await agent?.stop();
  await serve?.stop();
  await containerd?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('memkube serve + memkube node-agent + containerd', () => {
  it('runs the pod in containerd: kubectl shows it Running with containerd container ID', async () => {
    expect(await ok('get', 'pods', '--no-headers')).toMatch(/^hello\s+1\/1\s+Running\s+0\s/m);
    const id = await ok('get', 'pod', 'hello', '-o', 'jsonpath={.status.containerStatuses[0].containerID}');
    expect(id).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    const runtime = await ok('get', 'node', 'containerd-node', '-o', 'jsonpath={.status.nodeInfo.containerRuntimeVersion}');
    expect(runtime).toMatch(/^containerd:\/\/1\.6\./);
  });

  it('kubectl logs shows what the container printed', async () => {
    const logs = await eventually('the log line', async () => {
      const out = (await kubectl('logs', 'hello')).stdout;
      return out ? out : undefined;
    });
    expect(logs).toBe('hello from containerd\n');
  });

  it("answers a checkpoint with 500 and containerd's refusal", async () => {
    const answer = await post('/checkpoint/default/hello/main');
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('checkpointing of default/hello/main failed (rpc error: code = Unimplemented desc = method CheckpointContainer not implemented)');
  });
});
