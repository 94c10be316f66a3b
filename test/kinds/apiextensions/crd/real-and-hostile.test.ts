import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseYamlDocuments } from '../../../../src/codec/yaml.js';
import { apiextensionsKinds, CustomResourceDefinitionKind, type CustomResourceDefinition } from '../../../../src/kinds/apiextensions/index.js';
import type { JSONSchemaProps } from '../../../../src/kinds/types/apiextensions-v1.js';
import { ApiError } from '../../../../src/machinery/errors.js';
import { useTestCluster } from '../../../support/cluster.js';
import { createCauses, widgets, withSpec } from './support.js';

const cluster = useTestCluster({ kinds: apiextensionsKinds });
const crds = () => cluster.client.resource(CustomResourceDefinitionKind);
const fixture = (name: string): CustomResourceDefinition =>
  parseYamlDocuments(readFileSync(new URL(`../../../fixtures/crds/gateway-api/${name}.yaml`, import.meta.url), 'utf8'))[0]!.value as CustomResourceDefinition;

describe('real CustomResourceDefinitions', () => {
  for (const name of ['gatewayclasses', 'gateways', 'grpcroutes', 'httproutes', 'referencegrants']) {
    it(`accepts Gateway API's ${name}`, async () => {
      const created = await crds().create(fixture(name));
      expect(created.status?.storedVersions?.length).toBe(1);
    });
  }
});

describe('hostile CustomResourceDefinitions', () => {
  it('refuses a schema nested deeper than memkube walks, cleanly', async () => {
    let schema: JSONSchemaProps = { type: 'string' };
    for (let i = 0; i < 600; i++) schema = { type: 'object', properties: { a: schema } };
    let caught: unknown;
    try {
      await crds().create(widgets(schema));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
  });

  it('answers 400 for a schema nested deeper than the decoder goes, not a 500, and stores nothing', async () => {
    for (const levels of [1500, 5000]) {
      let schema: JSONSchemaProps = { type: 'string' };
      for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
      const crd = widgets(schema);
      const caught = await crds()
        .create(crd)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(caught).toBeInstanceOf(ApiError);
      expect(caught).toMatchObject({
        code: 400,
        message:
          'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: exceeded max depth of 2000 nested values (a memkube limit)',
      });
      await expect(crds().get(crd.metadata!.name!)).rejects.toMatchObject({ code: 404 });
    }
  });

  it('accepts 10,000 properties in reasonable time', async () => {
    const props = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: 'string', maxLength: 10 }]));
    const start = Date.now();
    await crds().create(withSpec({ type: 'object', properties: props }));
    expect(Date.now() - start).toBeLessThan(5000);
  });

  it('refuses $ref (no references are followed)', async () => {
    const causes = await createCauses(cluster, withSpec({ type: 'object', properties: { self: { $ref: '#' } } } as JSONSchemaProps));
    expect(causes).toContainEqual({
      reason: 'FieldValueForbidden',
      field: 'spec.validation.openAPIV3Schema.properties[spec].properties[self].$ref',
      message: 'Forbidden: $ref is not supported',
    });
  });

  it('handles property names that are Object.prototype members', async () => {
    await crds().create(withSpec({ type: 'object', properties: JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}') }));
  });

  it('fails cleanly on malformed keyword values', async () => {
    const crd = withSpec({ type: 'array', items: 5, additionalProperties: 'x' } as unknown as JSONSchemaProps);
    let caught: unknown;
    try {
      await crds().create(crd);
    } catch (e) {
      caught = e;
    }
    if (caught) expect(caught).toBeInstanceOf(ApiError);
  });
});
