/**
 * kubectl 1.33 against `memkube serve` for the rbac, policy and scheduling (PriorityClass) kinds:
 * `kubectl create role|clusterrole|rolebinding|clusterrolebinding|poddisruptionbudget|priorityclass`
 * send protobuf, and what they create must read back like the same object created from its JSON
 * manifest (`--dry-run=client -o json`); `kubectl get` prints the server's columns; an aggregated
 * ClusterRole picks up the rules of a labelled ClusterRole applied afterwards.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { kubectlRunner } from '../support/kubectl.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

/** The columns of a `kubectl get` header line. */
const header = (out: string) =>
  out
    .split('\n')[0]!
    .trim()
    .split(/\s{2,}/);

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with rbac, policy and scheduling kinds against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { ok, kubectl } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-rbac-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await ok('create', 'namespace', 'gen');
    await ok('create', 'namespace', 'manifest');
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** What the server stores, without what differs between two creations, names made alike. */
  function normalize(json: string): unknown {
    const o = JSON.parse(json.replaceAll('manifest', 'gen')) as { metadata: Record<string, unknown> };
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) delete o.metadata[k];
    return o;
  }

  const generators: { args: (name: string) => string[]; resource: string; namespaced: boolean; expected: Record<string, unknown> }[] = [
    {
      args: (n) => ['create', 'role', n, '--verb=get,list', '--resource=pods,statefulsets.apps', '--resource-name=a'],
      resource: 'role.rbac.authorization.k8s.io',
      namespaced: true,
      expected: {
        rules: [
          { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get', 'list'] },
          { apiGroups: ['apps'], resources: ['statefulsets'], resourceNames: ['a'], verbs: ['get', 'list'] },
        ],
      },
    },
    {
      args: (n) => ['create', 'clusterrole', n, '--verb=get', '--non-resource-url=/logs/*'],
      resource: 'clusterrole.rbac.authorization.k8s.io',
      namespaced: false,
      expected: { rules: [{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }] },
    },
    {
      args: (n) => ['create', 'rolebinding', n, '--clusterrole=view', '--user=alice', '--group=devs', '--serviceaccount=gen:robot'],
      resource: 'rolebinding.rbac.authorization.k8s.io',
      namespaced: true,
      expected: {
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'robot', namespace: 'gen' },
        ],
      },
    },
    {
      args: (n) => ['create', 'clusterrolebinding', n, '--clusterrole=edit', '--user=bob'],
      resource: 'clusterrolebinding.rbac.authorization.k8s.io',
      namespaced: false,
      expected: { roleRef: { kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: 'bob' }] },
    },
    {
      args: (n) => ['create', 'poddisruptionbudget', n, '--selector=app=web', '--min-available=50%'],
      resource: 'poddisruptionbudget.policy',
      namespaced: true,
      expected: {
        metadata: { generation: 1 },
        spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } },
        status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 },
      },
    },
    {
      args: (n) => ['create', 'priorityclass', n, '--value=1000', '--description=important', '--preemption-policy=Never'],
      resource: 'priorityclass.scheduling.k8s.io',
      namespaced: false,
      expected: { metadata: { generation: 1 }, value: 1000, description: 'important', preemptionPolicy: 'Never' },
    },
  ];

  it.each(generators)('$resource: the protobuf create reads back like the JSON manifest', async ({ args, resource, namespaced, expected }) => {
    const gen = namespaced ? ['-n', 'gen', ...args('x')] : args('gen-x');
    const manifest = namespaced ? ['-n', 'manifest', ...args('x')] : args('manifest-x');
    const name = namespaced ? 'x' : 'gen-x';
    expect(await ok(...gen)).toBe(`${resource}/${name} created\n`);
    const file = `${resource}.json`;
    await writeFile(join(dir, file), await ok(...manifest, '--dry-run=client', '-o', 'json'));
    expect(await ok(...(namespaced ? ['-n', 'manifest'] : []), 'create', '-f', file)).toBe(`${resource}/${namespaced ? 'x' : 'manifest-x'} created\n`);
    const fromGen = normalize(await ok(...(namespaced ? ['-n', 'gen'] : []), 'get', resource, name, '-o', 'json'));
    const fromManifest = normalize(await ok(...(namespaced ? ['-n', 'manifest'] : []), 'get', resource, namespaced ? 'x' : 'manifest-x', '-o', 'json'));
    expect(fromGen).toEqual(fromManifest);
    expect(fromGen).toMatchObject(expected);
  });

  it('prints the columns of a real server', async () => {
    await ok('-n', 'gen', 'create', 'role', 'cols', '--verb=get', '--resource=pods');
    await ok('-n', 'gen', 'create', 'rolebinding', 'cols', '--role=cols', '--user=alice', '--serviceaccount=gen:robot');
    await ok('-n', 'gen', 'create', 'pdb', 'cols', '--selector=app=db', '--max-unavailable=1');

    const roles = await ok('-n', 'gen', 'get', 'roles', 'cols');
    expect(header(roles)).toEqual(['NAME', 'CREATED AT']);
    expect(roles.split('\n')[1]).toMatch(/^cols\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(header(await ok('get', 'clusterroles', 'view'))).toEqual(['NAME', 'CREATED AT']);

    const rb = await ok('-n', 'gen', 'get', 'rolebinding', 'cols');
    expect(header(rb)).toEqual(['NAME', 'ROLE', 'AGE']);
    expect(rb.split('\n')[1]).toMatch(/^cols\s+Role\/cols\s+\d+s$/);
    const wide = await ok('-n', 'gen', 'get', 'rolebinding', 'cols', '-o', 'wide');
    expect(header(wide)).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(wide.split('\n')[1]).toMatch(/^cols\s+Role\/cols\s+\d+s\s+alice\s+gen\/robot$/);
    expect(header(await ok('get', 'clusterrolebinding', 'cluster-admin', '-o', 'wide'))).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);

    const pdb = await ok('-n', 'gen', 'get', 'pdb', 'cols');
    expect(header(pdb)).toEqual(['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    expect(pdb.split('\n')[1]).toMatch(/^cols\s+N\/A\s+1\s+0\s+\d+s$/);

    const pc = await ok('get', 'pc', 'system-node-critical');
    expect(header(pc)).toEqual(['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
    expect(pc.split('\n')[1]).toMatch(/^system-node-critical\s+2000001000\s+false\s+\d+s\s+PreemptLowerPriority$/);
  });

  it('binds the bootstrap view role, and an aggregated ClusterRole picks up the rules of a labelled ClusterRole applied later', async () => {
    expect(await ok('-n', 'gen', 'create', 'rolebinding', 'viewers', '--clusterrole=view', '--group=viewers')).toBe(
      'rolebinding.rbac.authorization.k8s.io/viewers created\n',
    );
    expect(await ok('get', 'clusterrole', 'view', '-o', 'jsonpath={.rules[*].resources}')).toContain('pods');

    expect(await ok('create', 'clusterrole', 'monitoring', '--aggregation-rule=example.com/aggregate-to-monitoring=true')).toBe(
      'clusterrole.rbac.authorization.k8s.io/monitoring created\n',
    );
    await writeFile(
      join(dir, 'part.yaml'),
      `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring-endpoints
  labels:
    example.com/aggregate-to-monitoring: "true"
rules:
- apiGroups: [""]
  resources: ["services", "endpoints", "pods"]
  verbs: ["get", "list", "watch"]
`,
    );
    expect(await ok('apply', '-f', 'part.yaml')).toBe('clusterrole.rbac.authorization.k8s.io/monitoring-endpoints created\n');
    // The controller runs right after the write: poll the way a user would, briefly.
    let rules = '';
    for (let i = 0; i < 50 && !rules.includes('endpoints'); i++) {
      rules = await ok('get', 'clusterrole', 'monitoring', '-o', 'jsonpath={.rules}');
      if (!rules.includes('endpoints')) await new Promise((r) => setTimeout(r, 20));
    }
    expect(JSON.parse(rules)).toEqual([{ apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] }]);

    const r = await kubectl('-n', 'gen', 'patch', 'rolebinding', 'viewers', '--type=merge', '-p', '{"roleRef":{"name":"edit"}}');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'The RoleBinding "viewers" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
  });
});
