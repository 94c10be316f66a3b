import { describe, expect, it } from 'vitest';
import { createCluster } from '../src/cluster.js';
import { ConfigMapKind, SecretKind } from '../src/kinds/index.js';
import { statusOf, testCluster } from './support/cluster.js';

describe('createCluster', () => {
  it('timestamps come from the cluster clock, which advance() moves', async () => {
    const cluster = await testCluster();
    const cms = cluster.client.resource(ConfigMapKind);
    expect((await cms.create({ metadata: { name: 'a' } })).metadata?.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    cluster.clock.advance(90_000);
    expect((await cms.create({ metadata: { name: 'b' } })).metadata?.creationTimestamp).toBe('2026-01-01T00:01:30Z');
    expect(() => cluster.clock.advance(-1)).toThrow(RangeError);
    await cluster.close();
  });

  it('the default clock follows real time and can still be advanced', async () => {
    const cluster = await createCluster();
    const before = cluster.clock.now();
    cluster.clock.advance(3_600_000);
    expect(cluster.clock.now() - before).toBeGreaterThanOrEqual(3_600_000);
    await cluster.close();
  });

  it('load() creates every document of a YAML text, including List items', async () => {
    const cluster = await testCluster();
    const created = await cluster.load(`
apiVersion: v1
kind: ConfigMap
metadata: { name: one }
data: { a: b }
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Secret
    metadata: { name: two, namespace: kube-system }
    stringData: { password: hunter2 }
---
`);
    expect(created.map((o) => `${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`)).toEqual(['ConfigMap/default/one', 'Secret/kube-system/two']);
    expect((await cluster.client.resource(SecretKind).get('two', { namespace: 'kube-system' })).metadata?.name).toBe('two');
    const json = await cluster.load(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'three' } }));
    expect(json[0]?.metadata?.name).toBe('three');
    await cluster.close();
  });

  it('load() answers clear errors for unknown kinds and broken YAML', async () => {
    const cluster = await testCluster();
    expect((await statusOf(() => cluster.load('apiVersion: v9\nkind: Nope\nmetadata: {name: x}'))).message).toBe('no matches for kind "Nope" in version "v9"');
    expect((await statusOf(() => cluster.load('a: [b'))).code).toBe(400);
    expect((await statusOf(() => cluster.load('- just\n- a list'))).code).toBe(400);
    await cluster.close();
  });

  it('load() creates a CustomResourceDefinition and objects of its kind from one text, and in the load after', async () => {
    const cluster = await testCluster();
    const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.toys.example.com }
spec:
  group: toys.example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { size: { type: integer, default: 1 } } }
`;
    const widget = (name: string) => `apiVersion: toys.example.com/v1\nkind: Widget\nmetadata: { name: ${name} }\nspec: {}\n`;
    const created = await cluster.load(`${crd}---\n${widget('small')}`);
    expect(created.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual(['CustomResourceDefinition/widgets.toys.example.com', 'Widget/small']);
    // The schema's default: the kind was served by the definition, not stored blind.
    expect(created[1]).toMatchObject({ spec: { size: 1 } });
    const [next] = await cluster.load(widget('big'));
    expect(next?.metadata?.namespace).toBe('default');
    expect((await statusOf(() => cluster.load('apiVersion: toys.example.com/v1\nkind: Gadget\nmetadata: {name: x}'))).message).toBe(
      'no matches for kind "Gadget" in version "toys.example.com/v1"',
    );
    await cluster.close();
  });

  it('an unknown resource is 404 NotFound as Kubernetes answers it', async () => {
    const cluster = await testCluster();
    const s = await statusOf(() => cluster.client.resource({ group: 'nope.io', version: 'v1', resource: 'things' }).list());
    expect(s).toMatchObject({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
    const sub = await statusOf(() => cluster.client.resource(ConfigMapKind).getStatus('x'));
    expect(sub.code).toBe(404);
    await cluster.close();
  });
});

describe('load() and duplicate keys', () => {
  it('warns about duplicate keys by default, as fieldValidation=Warn does', async () => {
    const cluster = await testCluster();
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\ndata: {x: "1"}\n';
    const warnings: string[] = [];
    const [cm] = await cluster.load(text, { onWarning: (w) => warnings.push(...w) });
    expect(cm?.metadata?.name).toBe('b');
    expect(warnings).toEqual(['duplicate field "metadata.name"']);
    const strict = await statusOf(() => cluster.load(text.replace(/: [ab]$/gm, ': c'), { fieldValidation: 'Strict' }));
    expect(strict.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name"');
    await cluster.close();
  });
});
