/**
 * CustomResourceDefinitions through real kubectl 1.33 against `memkube serve` (a child process,
 * stopped by PID): a definition applied, waited for (`condition=Established`), explained, its
 * custom resources applied, listed by short name, patched and deleted; published definitions
 * (Gateway API's, written by that project) installed; deleting a definition removes its resources.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const GATEWAY_API = join(import.meta.dirname, '..', 'fixtures', 'crds', 'gateway-api');

const CRONTAB_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: What to run and when.
            properties:
              cronSpec:
                type: string
                description: The schedule, in cron syntax.
              image:
                type: string
              replicas:
                type: integer
`;

const CRONTAB = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`;

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with CustomResourceDefinitions', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { kubectl, ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-crds-'));
    server = await startServe(join(dir, 'kubeconfig'));
    await writeFile(join(dir, 'crd.yaml'), CRONTAB_CRD);
    await writeFile(join(dir, 'crontab.yaml'), CRONTAB);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('applies a definition and waits until it is Established', async () => {
    expect(await ok('apply', '-f', 'crd.yaml')).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
    expect(await ok('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=10s')).toBe(
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n',
    );
    expect(await ok('get', 'crd', 'crontabs.stable.example.com', '-o', 'jsonpath={.status.acceptedNames.kind} {.status.conditions[*].type}')).toBe(
      'CronTab NamesAccepted Established',
    );
  });

  it('explains the custom resource from its published schema', async () => {
    const out = await ok('explain', 'crontab.spec');
    expect(out).toContain('KIND:       CronTab');
    expect(out).toContain('What to run and when.');
    expect(out).toMatch(/cronSpec\s+<string>\n\s+The schedule, in cron syntax\./);
  });

  it('applies, lists (by short name), patches and deletes custom resources', async () => {
    expect(await ok('apply', '-f', 'crontab.yaml')).toBe('crontab.stable.example.com/my-new-cron-object created\n');
    expect(await ok('apply', '-f', 'crontab.yaml')).toBe('crontab.stable.example.com/my-new-cron-object unchanged\n');
    expect((await ok('get', 'ct')).split('\n')[0]!.split(/\s+/)).toEqual(['NAME', 'AGE']);
    expect(await ok('patch', 'ct', 'my-new-cron-object', '--type=merge', '-p', '{"spec":{"replicas":2}}')).toBe(
      'crontab.stable.example.com/my-new-cron-object patched\n',
    );
    expect(await ok('get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}')).toBe('2 2');
    const smp = await kubectl('patch', 'ct', 'my-new-cron-object', '-p', '{"spec":{"replicas":3}}');
    expect(smp.code).not.toBe(0);
    expect(smp.stderr).toBe(
      'error: application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n',
    );
  });

  it('installs published definitions (Gateway API) and serves their resources', async () => {
    const out = await ok('apply', '-f', GATEWAY_API);
    expect(out.split('\n').filter(Boolean)).toHaveLength(5);
    await ok('wait', '--for=condition=Established', 'crd', '--all', '--timeout=10s');
    const resources = await ok('api-resources', '--api-group=gateway.networking.k8s.io', '-o', 'name');
    expect(resources.split('\n').filter(Boolean).sort()).toEqual([
      'gatewayclasses.gateway.networking.k8s.io',
      'gateways.gateway.networking.k8s.io',
      'grpcroutes.gateway.networking.k8s.io',
      'httproutes.gateway.networking.k8s.io',
      'referencegrants.gateway.networking.k8s.io',
    ]);
    await writeFile(
      join(dir, 'gatewayclass.yaml'),
      'apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: example\nspec:\n  controllerName: example.com/gateway-controller\n',
    );
    expect(await ok('apply', '-f', 'gatewayclass.yaml')).toBe('gatewayclass.gateway.networking.k8s.io/example created\n');
  });

  it("answers invalid objects with the messages of the definitions' own rules (CEL, patterns, immutability)", async () => {
    await writeFile(
      join(dir, 'gateway.yaml'),
      [
        'apiVersion: gateway.networking.k8s.io/v1',
        'kind: Gateway',
        'metadata:',
        '  name: tcp',
        'spec:',
        '  gatewayClassName: example',
        '  listeners:',
        '  - name: tcp',
        '    protocol: TCP',
        '    port: 9000',
        '    hostname: example.com',
        '',
      ].join('\n'),
    );
    const gw = await kubectl('apply', '-f', 'gateway.yaml');
    expect(gw.code).not.toBe(0);
    expect(gw.stderr).toContain("The Gateway \"tcp\" is invalid: spec.listeners: Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']");
    const immutable = await kubectl('patch', 'gatewayclass', 'example', '--type=merge', '-p', '{"spec":{"controllerName":"example.com/other"}}');
    expect(immutable.code).not.toBe(0);
    expect(immutable.stderr).toContain('The GatewayClass "example" is invalid: spec.controllerName: Invalid value: "example.com/other": field is immutable');
    const pattern = await kubectl('patch', 'gatewayclass', 'example', '--type=merge', '-p', '{"spec":{"description":"' + 'x'.repeat(65) + '"}}');
    expect(pattern.code).not.toBe(0);
    expect(pattern.stderr).toContain('spec.description: Too long: may not be more than 64 bytes');
  });

  it('deleting a definition deletes its custom resources and stops serving them', async () => {
    expect(await ok('delete', 'crd', 'crontabs.stable.example.com')).toBe(
      'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n',
    );
    const gone = await kubectl('get', 'crontabs.stable.example.com');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain("the server doesn't have a resource type");
  });
});
