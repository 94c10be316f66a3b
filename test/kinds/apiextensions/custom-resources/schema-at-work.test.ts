import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../../../src/kinds/index.js';
import type { KubeObject } from '../../../../src/schema/define-kind.js';
import { statusOf, useTestCluster } from '../../../support/cluster.js';

const cluster = useTestCluster();
const crds = () => cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });
const widgets = () => cluster.client.resource({ group: 'example.com', version: 'v1', resource: 'widgets' });

const SPEC = {
  type: 'object',
  required: ['size'],
  properties: {
    size: { type: 'integer', minimum: 0, maximum: 10 },
    mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 } } },
    },
    immutable: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable is immutable' }] },
    replicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    name: { type: 'string', maxLength: 20 },
  },
  'x-kubernetes-validations': [
    {
      rule: '!has(self.replicas) || !has(self.maxReplicas) || self.replicas <= self.maxReplicas',
      messageExpression: "'replicas above maxReplicas for ' + self.name",
    },
    { rule: "self.mode != 'fast' || self.size < 5", message: 'fast widgets are small', reason: 'FieldValueForbidden', fieldPath: '.mode' },
  ],
};

function definition(spec: Record<string, unknown> = SPEC): CustomResourceDefinition {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }],
    },
  };
}

async function install(spec?: Record<string, unknown>): Promise<void> {
  await crds().create(definition(spec));
  await cluster.settle();
}

const create = (spec: unknown, name = 'a', options: Record<string, unknown> = {}) =>
  widgets().create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec } as KubeObject, { namespace: 'default', ...options });

async function causes(spec: unknown): Promise<string[]> {
  const s = await statusOf(() => create(spec));
  expect(s.code).toBe(422);
  return (s.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}

describe('a custom resource schema at work', () => {
  it('defaults fields, in list items too', async () => {
    await install();
    const w = await create({ size: 1, ports: [{ name: 'http' }] });
    expect(w['spec']).toEqual({ size: 1, mode: 'safe', ports: [{ name: 'http', port: 80 }] });
  });

  it('prunes unknown fields: dropped, a warning with Warn, a 400 with Strict', async () => {
    await install();
    const warnings: string[] = [];
    const w = await create({ size: 1, extra: true }, 'a', { fieldValidation: 'Warn', onWarning: (x: readonly string[]) => warnings.push(...x) });
    expect(w['spec']).toEqual({ size: 1, mode: 'safe' });
    expect(warnings).toEqual(['unknown field "spec.extra"']);
    const s = await statusOf(() => create({ size: 1, extra: true }, 'b', { fieldValidation: 'Strict' }));
    expect(s).toMatchObject({ code: 400, message: 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.extra"' });
  });

  it('validates with kube-openapi messages and paths', async () => {
    await install();
    expect(await causes({ size: 'big' })).toEqual([
      'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    expect((await causes({ size: 11, mode: 'slow' })).slice(0, 2)).toEqual([
      'spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10',
      'spec.mode: Unsupported value: "slow": supported values: "fast", "safe"',
    ]);
    expect((await causes({}))[0]).toBe('spec.size: Required value');
  });

  it('runs CEL rules: message, messageExpression, reason and fieldPath', async () => {
    await install();
    expect(await causes({ size: 1, replicas: 5, maxReplicas: 3, name: 'w' })).toEqual(['spec: Invalid value: replicas above maxReplicas for w']);
    expect(await causes({ size: 7, mode: 'fast' })).toEqual(['spec.mode: Forbidden: fast widgets are small']);
    await create({ size: 4, mode: 'fast', replicas: 1, maxReplicas: 2 });
  });

  it('runs transition rules on update only', async () => {
    await install();
    const w = await create({ size: 1, immutable: 'x' });
    const s = await statusOf(() => widgets().update({ ...w, spec: { ...(w['spec'] as object), immutable: 'y' } }, { namespace: 'default' }));
    expect(s.message).toBe('Widget.example.com "a" is invalid: spec.immutable: Invalid value: "y": immutable is immutable');
    await widgets().update({ ...w, spec: { ...(w['spec'] as object), size: 2 } }, { namespace: 'default' });
  });

  it('ratchets: an update keeps a value that newer rules refuse, and CEL errors on it become warnings', async () => {
    await install({ type: 'object', properties: { size: { type: 'integer' }, name: { type: 'string' } } });
    await create({ size: 50, name: 'loooong' });
    // Tighten the schema: size at most 10, name short (CEL).
    const crd = (await crds().get('widgets.example.com')) as CustomResourceDefinition;
    crd.spec.versions[0]!.schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              size: { type: 'integer', maximum: 10 },
              name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'size(self) < 5', message: 'short names only' }] },
              note: { type: 'string' },
            },
          },
        },
      },
    };
    await crds().update(crd);
    await cluster.settle();
    const w = await widgets().get('a', { namespace: 'default' });
    const warnings: string[] = [];
    const updated = await widgets().update(
      { ...w, spec: { ...(w['spec'] as object), note: 'unrelated change' } },
      { namespace: 'default', onWarning: (x) => warnings.push(...x) },
    );
    expect(updated['spec']).toMatchObject({ size: 50, name: 'loooong', note: 'unrelated change' });
    expect(warnings).toEqual(['spec.name: Invalid value: "loooong": short names only']);
    const s = await statusOf(() => widgets().update({ ...updated, spec: { ...(updated['spec'] as object), size: 51 } }, { namespace: 'default' }));
    expect(s.message).toBe('Widget.example.com "a" is invalid: spec.size: Invalid value: 51: spec.size in body should be less than or equal to 10');
  });

  it('applies defaults of a changed schema to stored objects as they are read', async () => {
    await install({ type: 'object', properties: { size: { type: 'integer' } } });
    await create({ size: 1 });
    const crd = (await crds().get('widgets.example.com')) as CustomResourceDefinition;
    crd.spec.versions[0]!.schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string', default: 'red' } } } },
      },
    };
    await crds().update(crd);
    await cluster.settle();
    expect((await widgets().get('a', { namespace: 'default' }))['spec']).toEqual({ size: 1, color: 'red' });
  });

  it('prunes fields a changed schema no longer has from stored objects as they are read', async () => {
    await install({ type: 'object', properties: { size: { type: 'integer' }, old: { type: 'string' } } });
    await create({ size: 1, old: 'x' });
    const crd = (await crds().get('widgets.example.com')) as CustomResourceDefinition;
    crd.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
    await crds().update(crd);
    await cluster.settle();
    expect((await widgets().get('a', { namespace: 'default' }))['spec']).toEqual({ size: 1 });
    expect((await widgets().list({ namespace: 'default' })).items[0]!['spec']).toEqual({ size: 1 });
  });

  it('merges list-map entries with server-side apply, by their keys', async () => {
    await install();
    const apply = (manager: string, ports: unknown[]) =>
      widgets().apply({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { size: 1, ports } } as KubeObject, {
        namespace: 'default',
        fieldManager: manager,
      });
    await apply('one', [{ name: 'http', port: 8080 }]);
    const w = await apply('two', [{ name: 'https', port: 8443 }]);
    expect((w['spec'] as { ports: unknown[] }).ports).toEqual([
      { name: 'http', port: 8080 },
      { name: 'https', port: 8443 },
    ]);
  });

  it('refuses a messageExpression whose estimated cost is unbounded (a string of unknown size), as Kubernetes does', async () => {
    const s = await statusOf(() =>
      crds().create(
        definition({
          type: 'object',
          properties: { n: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'true', messageExpression: "'n is ' + string(self.n)" }],
        }),
      ),
    );
    expect(s.details?.causes?.map((c) => c.field)).toContain('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression');
  });

  it('refuses a definition whose CEL rule does not compile, with the compiler message', async () => {
    const s = await statusOf(() =>
      crds().create(definition({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self.b == 1' }] })),
    );
    expect(s.code).toBe(422);
    expect(s.message).toContain('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value:');
    expect(s.message).toContain("compilation failed: ERROR: <input>:1:5: undefined field 'b'");
  });
});

describe('defaults and CEL rules', () => {
  it('refuses a definition whose default breaks a CEL rule of its node', async () => {
    const s = await statusOf(() =>
      crds().create(
        definition({
          type: 'object',
          properties: { size: { type: 'integer', default: 20, 'x-kubernetes-validations': [{ rule: 'self <= 10', message: 'at most 10' }] } },
        }),
      ),
    );
    expect(s.code).toBe(422);
    expect(s.message).toContain('spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: 20: at most 10');
    await crds().create(
      definition({ type: 'object', properties: { size: { type: 'integer', default: 5, 'x-kubernetes-validations': [{ rule: 'self <= 10' }] } } }),
    );
  });
});
