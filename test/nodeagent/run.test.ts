import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createCluster, type Cluster } from '../../src/cluster.js';
import { createInProcessCriRuntime, type InProcessCriRuntime } from '../../src/cri/runtime/index.js';
import { createFetchHandler } from '../../src/http/handler.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { loadNodeAgentSettings } from '../../src/nodeagent/config/load.js';
import { kubeApiClientOverFetch } from '../../src/nodeagent/kube-api-fetch.js';
import { runNodeAgent, type RunningNodeAgent } from '../../src/nodeagent/run.js';
import { secured, tempDir } from './server/fixtures.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const CONFIG = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous:
    enabled: true
  webhook:
    enabled: false
authorization:
  mode: AlwaysAllow
`;

describe('runNodeAgent: one metrics registry for the agent, its server and its runtime', () => {
  const tmp = tempDir();
  let cluster: Cluster | undefined;
  let runtime: InProcessCriRuntime | undefined;
  let running: RunningNodeAgent | undefined;
  /** The CRI calls the agent made, by method. */
  const calls: string[] = [];
  afterEach(async () => {
    await running?.stop();
    runtime?.close();
    await cluster?.close();
    running = undefined;
    calls.length = 0;
  });

  async function run(gates: string | undefined): Promise<RunningNodeAgent> {
    cluster = await createCluster();
    runtime = createInProcessCriRuntime({ rootDir: tmp.dir });
    const kube = kubeApiClientOverFetch(
      'http://memkube.invalid',
      createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }),
    );
    const config = join(tmp.dir, 'node.yaml');
    writeFileSync(config, `${CONFIG}podLogsDir: ${join(tmp.dir, 'logs')}\n`);
    const settings = loadNodeAgentSettings([
      `--config=${config}`,
      '--hostname-override=node-1',
      '--node-ip=127.0.0.1',
      '--address=127.0.0.1',
      `--port=${await freePort()}`,
      `--root-dir=${join(tmp.dir, 'node-1')}`,
      ...(gates ? [`--feature-gates=${gates}`] : []),
    ]);
    const inner = runtime;
    const counted = new Proxy(inner, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          calls.push(String(prop));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return runNodeAgent({ settings, kube, runtime: counted });
  }

  it('serves what the agent counted at /metrics, native histograms off by default', async () => {
    running = await run(undefined);
    const registry = running.agent.metrics;
    expect(registry).toBeInstanceOf(MetricsRegistry);
    expect((registry as MetricsRegistry).nativeHistograms).toBe(false);
    const answer = await secured(running.port!, '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('kubelet_node_name{node="node-1"} 1\n');
    // The runtime given to runNodeAgent is counted once, though the agent and the server both hold it.
    const versions = calls.filter((c) => c === 'version').length;
    expect(versions).toBeGreaterThan(0);
    expect(await registry.value('kubelet_runtime_operations_total', { operation_type: 'version' })).toBe(versions);
    expect(answer.body).toContain(`kubelet_runtime_operations_total{operation_type="version"} ${versions}\n`);
    expect((await secured(running.port!, '/metrics/slis')).status).toBe(200);
  });

  it('keeps native histograms with the NativeHistograms gate, and serves no SLIs with ComponentSLIs off', async () => {
    running = await run('NativeHistograms=true,ComponentSLIs=false');
    expect((running.agent.metrics as MetricsRegistry).nativeHistograms).toBe(true);
    expect((await secured(running.port!, '/metrics/slis')).status).toBe(404);
  });
});
