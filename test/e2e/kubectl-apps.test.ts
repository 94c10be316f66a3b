/**
 * Deployments, ReplicaSets and DaemonSets through real kubectl 1.33 against `memkube serve` (a child
 * process, stopped by PID): `kubectl create deployment` (a protobuf body) reads back like the same
 * object created from JSON, `scale` and `set image` change it, `get` prints each kind's columns and
 * `apply -f` creates and re-applies manifests of the three kinds. No controller runs: the status stays
 * as created.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const WORKLOADS_YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels:
    app: api
spec:
  replicas: 2
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
      - name: api
        image: registry.example/api:1.0
        ports:
        - containerPort: 8080
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: cache
spec:
  replicas: 3
  selector:
    matchLabels:
      app: cache
  template:
    metadata:
      labels:
        app: cache
    spec:
      containers:
      - name: redis
        image: redis:7
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      containers:
      - name: agent
        image: fluentd:1
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with Deployments, ReplicaSets and DaemonSets', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-apps-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'workloads.yaml'), WORKLOADS_YAML);
    for (const ns of ['gen', 'manifest', 'apply']) expect(await ok('create', 'namespace', ns)).toBe(`namespace/${ns} created\n`);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** What the server stores, without what differs between two creations of the same object. */
  function normalize(json: string): unknown {
    const o = JSON.parse(json) as { metadata: Record<string, unknown> };
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) delete o.metadata[k];
    return o;
  }

  it('create deployment (protobuf) reads back like the JSON manifest kubectl builds', async () => {
    const args = ['create', 'deployment', 'web', '--image=nginx', '--replicas=2'];
    expect(await ok('-n', 'gen', ...args)).toBe('deployment.apps/web created\n');
    await writeFile(join(dir, 'web.json'), await ok('-n', 'manifest', ...args, '--dry-run=client', '-o', 'json'));
    expect(await ok('-n', 'manifest', 'create', '-f', 'web.json')).toBe('deployment.apps/web created\n');
    const gen = normalize(await ok('-n', 'gen', 'get', 'deployment', 'web', '-o', 'json'));
    const manifest = normalize(await ok('-n', 'manifest', 'get', 'deployment', 'web', '-o', 'json'));
    expect(gen).toEqual(manifest);
    expect(gen).toMatchObject({
      metadata: { name: 'web', generation: 1, labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }], restartPolicy: 'Always' },
        },
      },
      status: {},
    });
  });

  it('scales a deployment through /scale', async () => {
    expect(await ok('-n', 'gen', 'scale', 'deployment', 'web', '--replicas=3')).toBe('deployment.apps/web scaled\n');
    expect(await ok('-n', 'gen', 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}')).toBe('3 2');
    const r = await kubectl('-n', 'gen', 'scale', 'deployment', 'web', '--current-replicas=5', '--replicas=1');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Expected replicas to be 5, was 3');
  });

  it('sets the image of a container (strategic merge patch)', async () => {
    expect(await ok('-n', 'gen', 'set', 'image', 'deployment/web', 'nginx=nginx:1.27')).toBe('deployment.apps/web image updated\n');
    expect(await ok('-n', 'gen', 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image} {.metadata.generation}')).toBe(
      'nginx:1.27 3',
    );
  });

  it('refuses a selector change as the API server does', async () => {
    const r = await kubectl('-n', 'gen', 'patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"other"}}}}');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable');
  });

  it('applies a Deployment, a ReplicaSet and a DaemonSet, and re-applies them unchanged', async () => {
    expect(await ok('-n', 'apply', 'apply', '-f', 'workloads.yaml')).toBe(
      'deployment.apps/api created\nreplicaset.apps/cache created\ndaemonset.apps/agent created\n',
    );
    expect(await ok('-n', 'apply', 'apply', '-f', 'workloads.yaml')).toBe(
      'deployment.apps/api unchanged\nreplicaset.apps/cache unchanged\ndaemonset.apps/agent unchanged\n',
    );
    expect(await ok('-n', 'apply', 'get', 'ds', 'agent', '-o', 'jsonpath={.metadata.annotations.deprecated\\.daemonset\\.template\\.generation}')).toBe('1');
  });

  it('prints each kind with its columns', async () => {
    const out = await ok('-n', 'apply', 'get', 'deployments,replicasets,daemonsets');
    const tables = out.trimEnd().split('\n\n');
    expect(tables).toHaveLength(3);
    expect(tables[0]).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ndeployment\.apps\/api\s+0\/2\s+0\s+0\s+\d+s$/);
    expect(tables[1]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nreplicaset\.apps\/cache\s+3\s+0\s+0\s+\d+s$/);
    expect(tables[2]).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\ndaemonset\.apps\/agent\s+0\s+0\s+0\s+0\s+0\s+kubernetes\.io\/os=linux\s+\d+s$/,
    );
    const wide = await ok('-n', 'apply', 'get', 'deploy', '-o', 'wide');
    expect(wide).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\napi\s+0\/2\s+0\s+0\s+\d+s\s+api\s+registry\.example\/api:1\.0\s+app=api\n$/,
    );
    const all = await ok('-n', 'apply', 'get', 'all', '-o', 'name');
    expect(all.split('\n').filter(Boolean).sort()).toEqual(['daemonset.apps/agent', 'deployment.apps/api', 'replicaset.apps/cache']);
  });
});
