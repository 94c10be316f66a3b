/**
 * A node agent in one process with its API server and its container runtime: a memkube cluster,
 * memkube's in-process CRI runtime and the node agent `memkube node-agent` runs, started from
 * kubelet-style flags and configuration. A pod bound to the node runs a container scripted by its
 * environment; the agent's HTTPS server shows its log and checkpoints it.
 * Run with `npx tsx examples/node-agent.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCluster, createFetchHandler, createInProcessCriRuntime, kubeApiClientOverFetch, loadNodeAgentSettings, runNodeAgent } from 'memkube';

interface PodJson {
  status?: { phase?: string; containerStatuses?: { containerID?: string }[] };
}

/** A free port on 127.0.0.1: kubelet's `--port` must be 1 to 65535, so 0 is no choice. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** An HTTPS call to the agent; its certificate is self-signed, as kubelet's is without `tlsCertFile`. */
function callAgent(port: number, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function main(print: (line: string) => void = console.log): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-node-agent-example-'));
  const cluster = await createCluster();
  const kube = kubeApiClientOverFetch('http://memkube.local', createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }));
  const runtime = createInProcessCriRuntime({ rootDir: dir });
  try {
    // Anyone may call this agent's server: fine for a try on one machine, never for a real node.
    const config = join(dir, 'node.yaml');
    writeFileSync(
      config,
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
    const port = await freePort();
    const settings = loadNodeAgentSettings([
      `--config=${config}`,
      '--hostname-override=node-1',
      '--node-ip=127.0.0.1',
      '--address=127.0.0.1',
      `--port=${port}`,
      `--root-dir=${join(dir, 'node-1')}`,
      `--cert-dir=${join(dir, 'node-1', 'pki')}`,
    ]);
    const agent = await runNodeAgent({ settings, kube, runtime });
    try {
      print(`node ${agent.nodeName}: agent serving on https://127.0.0.1:${agent.port}`);
      await kube.request('POST', '/api/v1/namespaces/default/pods', {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'hello' },
          spec: {
            nodeName: 'node-1',
            hostNetwork: true,
            containers: [{ name: 'app', image: 'busybox', env: [{ name: 'MEMKUBE_CRI_STDOUT', value: 'hello from memkube cri\n' }] }],
          },
        },
      });
      let pod: PodJson = {};
      for (const deadline = Date.now() + 5_000; pod.status?.phase !== 'Running';) {
        if (Date.now() > deadline) throw new Error(`pod hello is still ${pod.status?.phase ?? 'without a phase'}`);
        await new Promise((r) => setTimeout(r, 20));
        pod = await kube.request<PodJson>('GET', '/api/v1/namespaces/default/pods/hello');
      }
      print(`pod hello is ${pod.status?.phase}, container ${pod.status?.containerStatuses?.[0]?.containerID}`);

      const logs = await callAgent(port, 'GET', '/containerLogs/default/hello/app');
      print(`log: ${logs.body.trim()}`);

      const checkpoint = await callAgent(port, 'POST', '/checkpoint/default/hello/app');
      const { items } = JSON.parse(checkpoint.body) as { items: string[] };
      print(`checkpoint ${checkpoint.status}: ${items[0]}`);
    } finally {
      await agent.stop();
    }
  } finally {
    runtime.close();
    kube.close();
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
