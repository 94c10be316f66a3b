/**
 * kubectl 1.33's generators (`kubectl create configmap|secret|namespace|serviceaccount|service`,
 * `kubectl run`) send their object as protobuf. Each is run against `memkube serve` in one
 * namespace, and the same object (`--dry-run=client -o json`, i.e. what the generator built) is
 * created from the JSON manifest in another; both must read back alike.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { kubectlRunner } from '../support/kubectl.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 generators (protobuf bodies) against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-gen-'));
    server = await startServe(join(dir, 'kubeconfig'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** What the server stores, without what differs between two creations of the same object. */
  function normalize(json: string): unknown {
    const o = JSON.parse(json.replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-X')) as {
      metadata: Record<string, unknown>;
      spec?: Record<string, unknown>;
    };
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) delete o.metadata[k];
    if (o.spec) for (const k of ['clusterIP', 'clusterIPs']) delete o.spec[k];
    return o;
  }

  it('create namespace (protobuf) reads back like one created from JSON', async () => {
    expect(await ok('create', 'namespace', 'gen')).toBe('namespace/gen created\n');
    await writeFile(join(dir, 'ns.json'), await ok('create', 'namespace', 'manifest', '--dry-run=client', '-o', 'json'));
    expect(await ok('create', '-f', 'ns.json')).toBe('namespace/manifest created\n');
    const gen = normalize(await ok('get', 'namespace', 'gen', '-o', 'json'));
    const manifest = JSON.parse(JSON.stringify(normalize(await ok('get', 'namespace', 'manifest', '-o', 'json'))).replaceAll('manifest', 'gen')) as unknown;
    expect(gen).toEqual(manifest);
    expect(gen).toMatchObject({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  });

  const generators: { args: string[]; created: string; get: string[]; expected: Record<string, unknown> }[] = [
    { args: ['create', 'configmap', 'x', '--from-literal=a=b'], created: 'configmap/x created', get: ['configmap', 'x'], expected: { data: { a: 'b' } } },
    {
      args: ['create', 'secret', 'generic', 's', '--from-literal=p=q'],
      created: 'secret/s created',
      get: ['secret', 's'],
      expected: { data: { p: 'cQ==' }, type: 'Opaque' },
    },
    { args: ['create', 'serviceaccount', 'sa'], created: 'serviceaccount/sa created', get: ['serviceaccount', 'sa'], expected: { metadata: { name: 'sa' } } },
    {
      args: ['create', 'service', 'clusterip', 'web', '--tcp=80:8080'],
      created: 'service/web created',
      get: ['service', 'web'],
      expected: { spec: { type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: '80-8080', port: 80, targetPort: 8080, protocol: 'TCP' }] } },
    },
    {
      args: ['run', 'nginx', '--image=nginx', '--labels=app=web', '--env=A=B', '--port=80'],
      created: 'pod/nginx created',
      get: ['pod', 'nginx'],
      expected: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx', env: [{ name: 'A', value: 'B' }], ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
      },
    },
    {
      args: ['run', 'busy', '--image=busybox', '--restart=Never', '--', 'sh', '-c', 'sleep 1'],
      created: 'pod/busy created',
      get: ['pod', 'busy'],
      expected: { spec: { restartPolicy: 'Never', containers: [{ name: 'busy', image: 'busybox', args: ['sh', '-c', 'sleep 1'] }] } },
    },
    {
      args: [
        'run',
        'tuned',
        '--image=busybox',
        '--overrides={"spec":{"containers":[{"name":"tuned","image":"busybox","resources":{"limits":{"cpu":"100m","memory":"64Mi"}},"readinessProbe":{"httpGet":{"port":8080,"path":"/ready"}},"securityContext":{"runAsNonRoot":true}}],"nodeSelector":{"disk":"ssd"}}}',
      ],
      created: 'pod/tuned created',
      get: ['pod', 'tuned'],
      expected: {
        spec: {
          nodeSelector: { disk: 'ssd' },
          containers: [
            {
              name: 'tuned',
              resources: { limits: { cpu: '100m', memory: '64Mi' } },
              readinessProbe: { httpGet: { port: 8080, path: '/ready' } },
              securityContext: { runAsNonRoot: true },
            },
          ],
        },
      },
    },
  ];

  it.each(generators)('kubectl $args.0 $args.1 $args.2 (protobuf) reads back like the JSON manifest', async ({ args, created, get, expected }) => {
    expect(await ok('-n', 'gen', ...args)).toBe(`${created}\n`);
    const file = `${get.join('-')}.json`;
    const dryRunArgs = args.includes('--')
      ? [...args.slice(0, args.indexOf('--')), '--dry-run=client', '-o', 'json', ...args.slice(args.indexOf('--'))]
      : [...args, '--dry-run=client', '-o', 'json'];
    await writeFile(join(dir, file), await ok('-n', 'manifest', ...dryRunArgs));
    expect(await ok('-n', 'manifest', 'create', '-f', file)).toBe(`${created}\n`);
    const gen = normalize(await ok('-n', 'gen', 'get', ...get, '-o', 'json'));
    const manifest = normalize(await ok('-n', 'manifest', 'get', ...get, '-o', 'json'));
    expect(gen).toEqual(manifest);
    expect(gen).toMatchObject(expected);
  });
});
