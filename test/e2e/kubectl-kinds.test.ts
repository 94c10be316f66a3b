/**
 * The newer kinds through real kubectl 1.33 against `memkube serve` (a child process,
 * stopped by PID): discovery, create/apply from YAML at each kind's group and version, reads
 * through another version or group, and a 422 as kubectl prints it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const EVENT_YAML = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: web.1
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: example.com/controller
reportingInstance: controller-0
action: Scale
reason: Scaled
type: Normal
note: scaled to 3
regarding:
  kind: StatefulSet
  name: web
  namespace: default
`;

const CPG_YAML = `apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata:
  name: training
spec:
  workloadRef:
    workloadName: training
    templateName: workers
  schedulingPolicy:
    gang:
      minGroupCount: 2
`;

const MAP_YAML = `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: add-label
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["pods"]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}'
  reinvocationPolicy: Never
`;

const ER_YAML = `apiVersion: lifecycle.k8s.io/v1alpha1
kind: EvictionRequest
metadata:
  name: drain-web-0
spec:
  intent: Eviction
  requester: acme.io/drainer
  target:
    pod:
      name: web-0
      uid: bd23f542-ac79-4b44-a628-9735e18b8037
`;

const RPSR_YAML = `apiVersion: resource.k8s.io/v1alpha3
kind: ResourcePoolStatusRequest
metadata:
  name: gpus
spec:
  driver: gpu.example.com
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 and the spec kinds', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-kinds-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'event.yaml'), EVENT_YAML);
    await writeFile(join(dir, 'cpg.yaml'), CPG_YAML);
    await writeFile(join(dir, 'map.yaml'), MAP_YAML);
    await writeFile(join(dir, 'er.yaml'), ER_YAML);
    await writeFile(join(dir, 'rpsr.yaml'), RPSR_YAML);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists the new groups and kinds in api-resources', async () => {
    const out = await ok('api-resources', '--no-headers', '-o', 'name');
    const names = out.trim().split('\n');
    for (const r of [
      'events.events.k8s.io',
      'compositepodgroups.scheduling.k8s.io',
      'evictionrequests.lifecycle.k8s.io',
      'resourcepoolstatusrequests.resource.k8s.io',
      'mutatingadmissionpolicies.admissionregistration.k8s.io',
      'mutatingadmissionpolicybindings.admissionregistration.k8s.io',
    ]) {
      expect(names).toContain(r);
    }
  });

  it('creates an events.k8s.io Event and reads it as a core Event', async () => {
    expect(await ok('create', '-f', 'event.yaml')).toBe('event.events.k8s.io/web.1 created\n');
    expect(await ok('get', 'events.v1.events.k8s.io', 'web.1', '-o', 'jsonpath={.note}|{.regarding.name}|{.reportingController}')).toBe(
      'scaled to 3|web|example.com/controller',
    );
    expect(await ok('get', 'events.v1.', 'web.1', '-o', 'jsonpath={.apiVersion}|{.message}|{.involvedObject.name}|{.reportingComponent}')).toBe(
      'v1|scaled to 3|web|example.com/controller',
    );
  });

  it('prints the strict events.k8s.io rules as kubectl prints a 422', async () => {
    await writeFile(join(dir, 'bad-event.yaml'), EVENT_YAML.replace('name: web.1', 'name: web.2').replace('type: Normal', 'type: Info'));
    const r = await kubectl('create', '-f', 'bad-event.yaml');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Event "web.2" is invalid: type: Invalid value: "": has invalid value: Info');
  });

  it('applies a CompositePodGroup and shows its defaults', async () => {
    expect(await ok('apply', '-f', 'cpg.yaml')).toBe('compositepodgroup.scheduling.k8s.io/training created\n');
    expect(await ok('get', 'compositepodgroups', 'training', '-o', 'jsonpath={.spec.disruptionMode}|{.spec.preemptionPolicy}')).toBe(
      'Single|PreemptLowerPriority',
    );
    const r = await kubectl('patch', 'compositepodgroup', 'training', '--type=merge', '-p', '{"spec":{"disruptionMode":"All"}}');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.disruptionMode: Invalid value: null: field is immutable');
  });

  it('applies a MutatingAdmissionPolicy at v1beta1 and reads it at every served version', async () => {
    expect(await ok('apply', '-f', 'map.yaml')).toBe('mutatingadmissionpolicy.admissionregistration.k8s.io/add-label created\n');
    for (const v of ['v1', 'v1beta1', 'v1alpha1']) {
      const out = await ok(
        'get',
        `mutatingadmissionpolicies.${v}.admissionregistration.k8s.io`,
        'add-label',
        '-o',
        'jsonpath={.apiVersion}|{.spec.failurePolicy}|{.spec.reinvocationPolicy}',
      );
      expect(out).toBe(`admissionregistration.k8s.io/${v}|Fail|Never`);
    }
    // Applying again patches the atomic resourceRules list (the server defaulted its scope, as
    // Kubernetes does, so kubectl sees a difference); the defaults come back and nothing is written.
    const rv = await ok('get', 'mutatingadmissionpolicies', 'add-label', '-o', 'jsonpath={.metadata.resourceVersion}');
    expect(await ok('apply', '-f', 'map.yaml')).toBe('mutatingadmissionpolicy.admissionregistration.k8s.io/add-label configured\n');
    expect(
      await ok('get', 'mutatingadmissionpolicies', 'add-label', '-o', 'jsonpath={.metadata.resourceVersion}|{.spec.matchConstraints.resourceRules[0].scope}'),
    ).toBe(`${rv}|*`);
  });

  it('creates an EvictionRequest and a ResourcePoolStatusRequest with their defaults', async () => {
    expect(await ok('create', '-f', 'er.yaml')).toBe('evictionrequest.lifecycle.k8s.io/drain-web-0 created\n');
    expect(await ok('get', 'evictionrequests', 'drain-web-0', '-o', 'jsonpath={.spec.intent}|{.spec.target.pod.name}')).toBe('Eviction|web-0');
    expect(await ok('patch', 'evictionrequest', 'drain-web-0', '--type=merge', '-p', '{"spec":{"intent":"Withdrawn"}}')).toBe(
      'evictionrequest.lifecycle.k8s.io/drain-web-0 patched\n',
    );
    expect(await ok('create', '-f', 'rpsr.yaml')).toBe('resourcepoolstatusrequest.resource.k8s.io/gpus created\n');
    expect(await ok('get', 'resourcepoolstatusrequests', 'gpus', '-o', 'jsonpath={.spec.limit}')).toBe('100');
  });

  it('serve --feature-gates CompositePodGroup=false serves no CompositePodGroup', async () => {
    const off = await startServe(join(dir, 'kubeconfig-off'), ['--feature-gates', 'CompositePodGroup=false']);
    try {
      const r = await kubectl('--kubeconfig', join(dir, 'kubeconfig-off'), 'api-resources', '--no-headers', '-o', 'name');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('events.events.k8s.io');
      expect(r.stdout).not.toContain('compositepodgroups');
      const get = await kubectl('--kubeconfig', join(dir, 'kubeconfig-off'), 'get', 'compositepodgroups.scheduling.k8s.io');
      expect(get.code).not.toBe(0);
      expect(get.stderr).toContain("the server doesn't have a resource type");
    } finally {
      await off.stop();
    }
  }, 30_000);
});
