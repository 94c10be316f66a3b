/**
 * kubectl 1.33 commands that span several kinds, against `memkube serve`: `kubectl autoscale` of a
 * Deployment (a HorizontalPodAutoscaler aimed at it), and `kubectl drain`, which evicts pods
 * through `pods/eviction` and so meets a PodDisruptionBudget.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const NODE_AND_POD = `apiVersion: v1
kind: Node
metadata:
  name: worker-1
---
apiVersion: v1
kind: Pod
metadata:
  name: db-0
  labels:
    app: db
spec:
  nodeName: worker-1
  containers:
  - name: db
    image: postgres:17
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl autoscale and drain against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-workloads-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'node-and-pod.yaml'), NODE_AND_POD);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('autoscale makes a HorizontalPodAutoscaler for the deployment', async () => {
    expect(await ok('create', 'deployment', 'web', '--image=nginx:1.27')).toBe('deployment.apps/web created\n');
    expect(await ok('autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=70')).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    const hpa = JSON.parse(await ok('get', 'hpa', 'web', '-o', 'json')) as {
      apiVersion: string;
      spec: { scaleTargetRef: unknown; minReplicas: number; maxReplicas: number; metrics: unknown[] };
    };
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toMatchObject({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 5 });
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
    expect((await ok('get', 'hpa', 'web')).split('\n')[0]).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/);
  });

  it('drain is refused by a budget that allows no disruption, and evicts once it allows one', async () => {
    await ok('apply', '-f', 'node-and-pod.yaml');
    const ready = '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}';
    await ok('patch', 'pod', 'db-0', '--subresource=status', '--type=merge', '-p', ready);
    expect(await ok('create', 'poddisruptionbudget', 'db', '--selector=app=db', '--min-available=1')).toBe('poddisruptionbudget.policy/db created\n');
    const budget = (allowed: number) =>
      JSON.stringify({ status: { observedGeneration: 1, disruptionsAllowed: allowed, currentHealthy: 1, desiredHealthy: 1 - allowed, expectedPods: 1 } });
    await ok('patch', 'pdb', 'db', '--subresource=status', '--type=merge', '-p', budget(0));

    const refused = await kubectl('drain', 'worker-1', '--pod-selector=app=db', '--force', '--timeout=3s');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(await ok('get', 'pod', 'db-0', '-o', 'name')).toBe('pod/db-0\n');
    expect(JSON.parse(await ok('get', 'node', 'worker-1', '-o', 'json')).spec.unschedulable).toBe(true);

    await ok('patch', 'pdb', 'db', '--subresource=status', '--type=merge', '-p', budget(1));
    const drained = await kubectl('drain', 'worker-1', '--pod-selector=app=db', '--force', '--timeout=10s');
    expect(drained.code, drained.stderr).toBe(0);
    expect(drained.stdout).toContain('pod/db-0 evicted');
    const pdb = JSON.parse(await ok('get', 'pdb', 'db', '-o', 'json')) as { status: { disruptionsAllowed: number; disruptedPods?: Record<string, string> } };
    expect(pdb.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status.disruptedPods ?? {})).toEqual(['db-0']);
  }, 30_000);
});
