/**
 * Flow control, admission registration and DRA kinds through real kubectl 1.33 against `memkube
 * serve` (a child process, stopped by PID): the tables kubectl prints, creates from YAML, a read
 * through an older version, and a 422 as kubectl prints it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: demo
webhooks:
- name: check.example.com
  clientConfig:
    url: https://hooks.example.com/validate
  sideEffects: None
  admissionReviewVersions: ["v1"]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replicas
spec:
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: node-1-gpus
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      resource.kubernetes.io/pciBusID: {string: "0000:3b:00.0"}
`;

const BAD_WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: bad
webhooks:
- name: check
  clientConfig:
    url: http://hooks.example.com
  sideEffects: None
  admissionReviewVersions: ["v1"]
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with flow control, admission registration and DRA kinds', () => {
  let dir = '';
  let server: ServeProcess | undefined;
  const { ok, kubectl } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-apf-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'manifest.yaml'), MANIFEST);
    await writeFile(join(dir, 'bad.yaml'), BAD_WEBHOOK);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints the bootstrap flow control configuration as on a new cluster', async () => {
    const fs = (await ok('get', 'flowschemas')).split('\n');
    expect(fs[0]!.split(/\s+/)).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    expect(
      fs
        .find((l) => l.startsWith('exempt '))!
        .split(/\s+/)
        .filter((c, i) => i !== 4),
    ).toEqual(['exempt', 'exempt', '1', '<none>', 'False']);
    expect(fs.filter((l) => l.trim()).length).toBe(14);
    // In matching order, as kubectl prints them from a real server.
    expect(fs.slice(1, 4).map((l) => l.split(/\s+/)[0])).toEqual(['exempt', 'probes', 'system-leader-election']);
    expect(
      fs
        .filter((l) => l.trim())
        .at(-1)!
        .split(/\s+/)[0],
    ).toBe('catch-all');
    const pl = (await ok('get', 'prioritylevelconfigurations', 'workload-low', 'catch-all')).split('\n');
    expect(pl[0]!.split(/\s+/)).toEqual(['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
    expect(pl[1]!.split(/\s+/).slice(0, 6)).toEqual(['workload-low', 'Limited', '100', '128', '6', '50']);
    expect(pl[2]!.split(/\s+/).slice(0, 6)).toEqual(['catch-all', 'Limited', '5', '<none>', '<none>', '<none>']);
  });

  it('creates webhook configurations, policies and slices from YAML and prints them', async () => {
    expect(await ok('apply', '-f', 'manifest.yaml')).toBe(
      [
        'validatingwebhookconfiguration.admissionregistration.k8s.io/demo created',
        'validatingadmissionpolicy.admissionregistration.k8s.io/replicas created',
        'resourceslice.resource.k8s.io/node-1-gpus created',
        '',
      ].join('\n'),
    );
    expect((await ok('get', 'validatingwebhookconfigurations', '--no-headers')).split(/\s+/).slice(0, 2)).toEqual(['demo', '1']);
    expect((await ok('get', 'validatingadmissionpolicies', '--no-headers')).split(/\s+/).slice(0, 3)).toEqual(['replicas', '1', 'v1/ConfigMap']);
    expect((await ok('get', 'resourceslices', '--no-headers')).split(/\s+/).slice(0, 4)).toEqual(['node-1-gpus', 'node-1', 'gpu.example.com', 'node-1']);
    expect(await ok('get', 'validatingwebhookconfigurations', 'demo', '-o', 'jsonpath={.webhooks[0].timeoutSeconds}|{.webhooks[0].failurePolicy}')).toBe(
      '10|Fail',
    );
    expect(await ok('get', 'resourceslices.v1beta1.resource.k8s.io', 'node-1-gpus', '-o', 'jsonpath={.spec.devices[0].basic.attributes}')).toBe(
      '{"resource.kubernetes.io/pciBusID":{"string":"0000:3b:00.0"}}',
    );
  });

  it('prints a webhook configuration 422 as kubectl prints one', async () => {
    const r = await kubectl('create', '-f', 'bad.yaml');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The ValidatingWebhookConfiguration "bad" is invalid: \n');
    expect(r.stderr).toContain('* webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots');
    expect(r.stderr).toContain(
      '* webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    );
  });
});
