/**
 * kubectl 1.33 against `memkube serve` with the core kinds beyond the first ones: `kubectl create
 * quota` (a protobuf body) reads back like the same object created from JSON; `kubectl apply -f`
 * of a ReplicationController, Endpoints, PersistentVolume, LimitRange, ResourceQuota and
 * PodTemplate; their `kubectl get` columns; `kubectl scale rc`; `kubectl get cs`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { kubectlRunner } from '../support/kubectl.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

/** The manifests `kubectl apply -f` sends, one of each kind. */
const MANIFESTS = `
apiVersion: v1
kind: ReplicationController
metadata:
  name: web
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
apiVersion: v1
kind: Endpoints
metadata:
  name: web
subsets:
- addresses:
  - ip: 10.0.0.1
  - ip: 10.0.0.2
  ports:
  - name: http
    port: 80
  - name: https
    port: 443
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-data
spec:
  capacity:
    storage: 1024Mi
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  hostPath:
    path: /data
---
apiVersion: v1
kind: LimitRange
metadata:
  name: limits
spec:
  limits:
  - type: Container
    max:
      cpu: "2"
    min:
      cpu: 100m
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: quota
spec:
  hard:
    pods: "10"
    limits.cpu: "4"
---
apiVersion: v1
kind: PodTemplate
metadata:
  name: tpl
template:
  metadata:
    labels:
      app: web
  spec:
    containers:
    - name: nginx
      image: nginx:1.27
`;

/** The words of each line of kubectl's table output. */
const rows = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 and the core kinds against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-core-'));
    server = await startServe(join(dir, 'kubeconfig'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('create quota (protobuf) reads back like the same quota from JSON', async () => {
    await ok('create', 'namespace', 'gen');
    await ok('create', 'namespace', 'manifest');
    const args = ['create', 'quota', 'q', '--hard=pods=4,requests.memory=1024Mi,count/deployments.apps=2', '--scopes=NotTerminating'];
    expect(await ok('-n', 'gen', ...args)).toBe('resourcequota/q created\n');
    await writeFile(join(dir, 'q.json'), await ok('-n', 'manifest', ...args, '--dry-run=client', '-o', 'json'));
    expect(await ok('-n', 'manifest', 'create', '-f', 'q.json')).toBe('resourcequota/q created\n');
    const normalize = (json: string) => {
      const o = JSON.parse(json) as { metadata: Record<string, unknown> };
      for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) delete o.metadata[k];
      return o;
    };
    const gen = normalize(await ok('-n', 'gen', 'get', 'quota', 'q', '-o', 'json'));
    expect(gen).toEqual(normalize(await ok('-n', 'manifest', 'get', 'quota', 'q', '-o', 'json')));
    expect(gen).toMatchObject({ spec: { hard: { pods: '4', 'requests.memory': '1Gi', 'count/deployments.apps': '2' }, scopes: ['NotTerminating'] } });
  });

  it('applies one object of each kind', async () => {
    await writeFile(join(dir, 'core.yaml'), MANIFESTS);
    const r = await kubectl('apply', '-f', 'core.yaml');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'replicationcontroller/web created',
      'endpoints/web created',
      'persistentvolume/pv-data created',
      'limitrange/limits created',
      'resourcequota/quota created',
      'podtemplate/tpl created',
    ]);
    expect(r.stderr).toContain('Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
    // A second apply changes nothing.
    const again = await kubectl('apply', '-f', 'core.yaml');
    expect(again.stdout).toContain('replicationcontroller/web unchanged');
    expect(again.stdout).toContain('podtemplate/tpl unchanged');
    // 1024Mi is stored as 1Gi, so kubectl sends a patch each time, as against a real server.
    expect(again.stdout).toContain('persistentvolume/pv-data configured');
  });

  it('prints the columns of kubectl get for each kind', async () => {
    const rc = rows(await ok('get', 'rc', 'web', '-o', 'wide'));
    expect(rc[0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect([...rc[1]!.slice(0, 4), ...rc[1]!.slice(5)]).toEqual(['web', '2', '0', '0', 'nginx', 'nginx:1.27', 'app=web']);

    const ep = await kubectl('get', 'ep', 'web');
    expect(ep.stderr).toContain('Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
    expect(rows(ep.stdout)[0]).toEqual(['NAME', 'ENDPOINTS', 'AGE']);
    expect(rows(ep.stdout)[1]!.slice(0, 2)).toEqual(['web', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...']);

    const pv = rows(await ok('get', 'pv', '-o', 'wide'));
    expect(pv[0]).toEqual([
      'NAME',
      'CAPACITY',
      'ACCESS MODES',
      'RECLAIM POLICY',
      'STATUS',
      'CLAIM',
      'STORAGECLASS',
      'VOLUMEATTRIBUTESCLASS',
      'REASON',
      'AGE',
      'VOLUMEMODE',
    ]);
    expect(pv[1]).toEqual(['pv-data', '1Gi', 'RWO', 'Retain', 'Pending', 'manual', '<unset>', pv[1]![7], 'Filesystem']);

    const limits = rows(await ok('get', 'limits'));
    expect(limits[0]).toEqual(['NAME', 'CREATED AT']);
    expect(limits[1]![0]).toBe('limits');
    expect(limits[1]![1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const quota = rows(await ok('get', 'quota', 'quota'));
    expect(quota[0]).toEqual(['NAME', 'REQUEST', 'LIMIT', 'AGE']);

    const tpl = rows(await ok('get', 'podtemplates'));
    expect(tpl).toEqual([
      ['NAME', 'CONTAINERS', 'IMAGES', 'POD LABELS'],
      ['tpl', 'nginx', 'nginx:1.27', 'app=web'],
    ]);
  });

  it('shows the replication controller in get all', async () => {
    expect(await ok('get', 'all', '-o', 'name')).toContain('replicationcontroller/web\n');
  });

  it('scales a replication controller', async () => {
    expect(await ok('scale', 'rc', 'web', '--replicas=5')).toBe('replicationcontroller/web scaled\n');
    expect(await ok('get', 'rc', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('5');
    expect(await ok('scale', 'rc', 'web', '--current-replicas=5', '--replicas=1')).toBe('replicationcontroller/web scaled\n');
    expect(await ok('get', 'rc', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('1');
  });

  it('gets the component statuses', async () => {
    const r = await kubectl('get', 'cs');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
    expect(rows(r.stdout)).toEqual([
      ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
      ['scheduler', 'Healthy', 'ok'],
      ['controller-manager', 'Healthy', 'ok'],
      ['etcd-0', 'Healthy', 'ok'],
    ]);
  });
});
