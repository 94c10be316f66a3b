/**
 * kubectl 1.33 against `memkube serve` with the networking, discovery and storage kinds:
 * `kubectl create ingress` (a protobuf body) reads back like the same object created from JSON,
 * `kubectl apply` creates one object of each kind, and `kubectl get` prints the columns a real
 * cluster prints (StorageClass's `(default)` marker included).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { kubectlRunner } from '../support/kubectl.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

/** The lines of a `kubectl get` table, each split into its cells (cells are 2+ spaces apart). */
const cells = (out: string): string[][] =>
  out
    .trimEnd()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));

const MANIFESTS = `
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: applied, namespace: apply}
spec:
  ingressClassName: nginx
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: shop, port: {number: 80}}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: apply}
spec:
  podSelector: {matchLabels: {app: db}}
  ingress:
  - from: [{ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}]
    ports: [{port: 5432}]
---
apiVersion: networking.k8s.io/v1
kind: IPAddress
metadata: {name: 10.96.0.10}
spec: {parentRef: {group: "", resource: services, namespace: kube-system, name: kube-dns}}
---
apiVersion: networking.k8s.io/v1beta1
kind: ServiceCIDR
metadata: {name: extra}
spec: {cidrs: [10.100.0.0/16]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: shop-abc, namespace: apply, labels: {kubernetes.io/service-name: shop}}
addressType: IPv4
endpoints:
- addresses: [10.1.2.3, 10.1.2.4]
- addresses: [10.1.2.5]
- addresses: [10.1.2.6]
ports:
- {name: http, port: 80}
- {name: https, port: 443}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
allowVolumeExpansion: true
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: ebs.csi.aws.com
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-abc}
spec: {attacher: ebs.csi.aws.com, nodeName: node-1, source: {persistentVolumeName: pv-1}}
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.aws.com}
spec: {}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: node-1}
spec:
  drivers: [{name: ebs.csi.aws.com, nodeID: i-123, topologyKeys: [topology.kubernetes.io/zone]}]
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap, namespace: apply}
storageClassName: standard
capacity: 100Gi
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttributesClass
metadata: {name: gold}
driverName: ebs.csi.aws.com
parameters: {iops: "3000"}
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with networking, discovery and storage kinds against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-netsto-'));
    server = await startServe(join(dir, 'kubeconfig'));
    for (const ns of ['gen', 'manifest', 'apply']) await ok('create', 'namespace', ns);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  function normalize(json: string): unknown {
    const o = JSON.parse(json) as { metadata: Record<string, unknown> };
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) delete o.metadata[k];
    return o;
  }

  it('create ingress (protobuf) reads back like the same Ingress created from JSON', async () => {
    const args = [
      'create',
      'ingress',
      'web',
      '--class=nginx',
      '--rule=foo.com/bar*=svc:8080,tls=my-cert',
      '--rule=/path=svc2:http',
      '--default-backend=fallback:80',
    ];
    expect(await ok('-n', 'gen', ...args)).toBe('ingress.networking.k8s.io/web created\n');
    await writeFile(join(dir, 'ing.json'), await ok('-n', 'manifest', ...args, '--dry-run=client', '-o', 'json'));
    expect(await ok('-n', 'manifest', 'create', '-f', 'ing.json')).toBe('ingress.networking.k8s.io/web created\n');
    const gen = normalize(await ok('-n', 'gen', 'get', 'ingress', 'web', '-o', 'json'));
    expect(gen).toEqual(normalize(await ok('-n', 'manifest', 'get', 'ingress', 'web', '-o', 'json')));
    expect(gen).toMatchObject({
      metadata: { name: 'web', generation: 1 },
      spec: {
        ingressClassName: 'nginx',
        defaultBackend: { service: { name: 'fallback', port: { number: 80 } } },
        rules: [
          { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 8080 } } } }] } },
          { http: { paths: [{ path: '/path', pathType: 'Exact', backend: { service: { name: 'svc2', port: { name: 'http' } } } }] } },
        ],
        tls: [{ hosts: ['foo.com'], secretName: 'my-cert' }],
      },
      status: { loadBalancer: {} },
    });
  });

  it('apply -f creates one object of each kind', async () => {
    await writeFile(join(dir, 'all.yaml'), MANIFESTS);
    expect(await ok('apply', '-f', 'all.yaml')).toBe(
      [
        'ingressclass.networking.k8s.io/nginx created',
        'ingress.networking.k8s.io/applied created',
        'networkpolicy.networking.k8s.io/deny created',
        'ipaddress.networking.k8s.io/10.96.0.10 created',
        'servicecidr.networking.k8s.io/extra created',
        'endpointslice.discovery.k8s.io/shop-abc created',
        'storageclass.storage.k8s.io/standard created',
        'storageclass.storage.k8s.io/slow created',
        'volumeattachment.storage.k8s.io/csi-abc created',
        'csidriver.storage.k8s.io/ebs.csi.aws.com created',
        'csinode.storage.k8s.io/node-1 created',
        'csistoragecapacity.storage.k8s.io/cap created',
        'volumeattributesclass.storage.k8s.io/gold created',
        '',
      ].join('\n'),
    );
    expect(await ok('apply', '-f', 'all.yaml')).toContain('storageclass.storage.k8s.io/standard unchanged');
    expect(JSON.parse(await ok('get', 'csidriver', 'ebs.csi.aws.com', '-o', 'json'))).toMatchObject({
      spec: { attachRequired: true, volumeLifecycleModes: ['Persistent'] },
    });
  });

  it('get prints the columns of Ingress, NetworkPolicy, StorageClass and EndpointSlice', async () => {
    const ing = cells(await ok('-n', 'apply', 'get', 'ing'));
    expect(ing[0]).toEqual(['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    expect(ing[1]!.slice(0, 3)).toEqual(['applied', 'nginx', 'shop.example.com']);
    expect(ing[1]![3]).toBe('80');

    const np = cells(await ok('-n', 'apply', 'get', 'netpol'));
    expect(np[0]).toEqual(['NAME', 'POD-SELECTOR', 'AGE']);
    expect(np[1]!.slice(0, 2)).toEqual(['deny', 'app=db']);

    const sc = cells(await ok('get', 'sc'));
    expect(sc[0]).toEqual(['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
    expect(sc.slice(1).map((r) => r.slice(0, 5))).toEqual([
      ['slow', 'ebs.csi.aws.com', 'Retain', 'WaitForFirstConsumer', 'false'],
      ['standard (default)', 'ebs.csi.aws.com', 'Delete', 'Immediate', 'true'],
    ]);

    const eps = cells(await ok('-n', 'apply', 'get', 'endpointslices'));
    expect(eps[0]).toEqual(['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    expect(eps[1]!.slice(0, 4)).toEqual(['shop-abc', 'IPv4', '80,443', '10.1.2.3,10.1.2.4,10.1.2.5 + 1 more...']);

    const ip = cells(await ok('get', 'ipaddresses'));
    expect(ip).toEqual([
      ['NAME', 'PARENTREF'],
      ['10.96.0.10', 'services/kube-system/kube-dns'],
    ]);
  });
});
