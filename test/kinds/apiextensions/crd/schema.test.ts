import { describe, expect, it } from 'vitest';
import { apiextensionsKinds, CustomResourceDefinitionKind } from '../../../../src/kinds/apiextensions/index.js';
import { useTestCluster } from '../../../support/cluster.js';
import { createCauses, expectCause, widgets, withSpec } from './support.js';

const cluster = useTestCluster({ kinds: apiextensionsKinds });
const S = 'spec.validation.openAPIV3Schema';
const SPEC = `${S}.properties[spec]`;

describe('CustomResourceDefinition schemas: structural rules', () => {
  it('requires a type on specified fields, items and the root', async () => {
    await expectCause(cluster, withSpec({}), 'FieldValueRequired', `${SPEC}.type`, 'Required value: must not be empty for specified object fields');
    await expectCause(
      cluster,
      withSpec({ type: 'array', items: {} }),
      'FieldValueRequired',
      `${SPEC}.items.type`,
      'Required value: must not be empty for specified array items',
    );
    await expectCause(cluster, withSpec({ type: 'array' }), 'FieldValueRequired', `${SPEC}.items`, 'Required value: must be specified');
    await expectCause(cluster, widgets({}), 'FieldValueRequired', `${S}.type`, 'Required value: must not be empty at the root');
  });

  it('accepts int-or-string and preserve-unknown-fields without a type', async () => {
    const crd = withSpec({
      type: 'object',
      properties: { port: { 'x-kubernetes-int-or-string': true }, any: { 'x-kubernetes-preserve-unknown-fields': true } },
    });
    await cluster.client.resource(CustomResourceDefinitionKind).create(crd);
  });

  it('forbids generic fields in value validations', async () => {
    const crd = withSpec({
      type: 'object',
      properties: { a: { type: 'string' } },
      anyOf: [{ type: 'object', description: 'x', properties: { a: { default: 'q' } } }],
    });
    const causes = await createCauses(cluster, crd);
    expect(causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueForbidden', field: `${SPEC}.anyOf[0].type`, message: 'Forbidden: must be empty to be structural' },
        { reason: 'FieldValueForbidden', field: `${SPEC}.anyOf[0].description`, message: 'Forbidden: must be empty to be structural' },
        { reason: 'FieldValueForbidden', field: `${SPEC}.anyOf[0].properties[a].default`, message: 'Forbidden: must be undefined to be structural' },
      ]),
    );
  });

  it('accepts the int-or-string anyOf pattern', async () => {
    const crd = withSpec({ type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } });
    await cluster.client.resource(CustomResourceDefinitionKind).create(crd);
  });

  it('requires properties named in value validations to exist', async () => {
    const crd = widgets({ type: 'object', properties: { spec: { type: 'object' } }, allOf: [{ properties: { status: { properties: {} } } }] });
    await expectCause(
      cluster,
      crd,
      'FieldValueRequired',
      `${S}.properties[status]`,
      `Required value: because it is defined in ${S}.allOf[0].properties[status]`,
    );
  });

  it('restricts metadata at the root to name and generateName', async () => {
    const ok = widgets({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } } });
    await cluster.client.resource(CustomResourceDefinitionKind).create(ok);
    const bad = widgets({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } });
    await expectCause(
      cluster,
      bad,
      'FieldValueForbidden',
      `${S}.properties[metadata]`,
      'Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
    );
  });

  it('forbids additionalProperties at the root and with properties', async () => {
    await expectCause(
      cluster,
      widgets({ type: 'object', additionalProperties: { type: 'string' } }),
      'FieldValueForbidden',
      `${S}.additionalProperties`,
      'Forbidden: must not be used at the root',
    );
    await expectCause(
      cluster,
      withSpec({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }),
      'FieldValueForbidden',
      `${SPEC}.additionalProperties`,
      'Forbidden: additionalProperties and properties are mutual exclusive',
    );
  });

  it('requires embedded resources to be objects', async () => {
    await expectCause(
      cluster,
      withSpec({ type: 'object', properties: { tpl: { type: 'string', 'x-kubernetes-embedded-resource': true } } }),
      'FieldValueInvalid',
      `${SPEC}.properties[tpl].type`,
      'Invalid value: "string": must be object if x-kubernetes-embedded-resource is true',
    );
    await expectCause(
      cluster,
      withSpec({ type: 'object', properties: { tpl: { type: 'object', 'x-kubernetes-embedded-resource': true } } }),
      'FieldValueRequired',
      `${SPEC}.properties[tpl].properties`,
      'Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
    );
  });

  it('checks patterns as Go regular expressions', async () => {
    await expectCause(
      cluster,
      withSpec({ type: 'string', pattern: '^(?!x)' }),
      'FieldValueInvalid',
      `${SPEC}.pattern`,
      'Invalid value: "^(?!x)": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
    );
  });

  it('forbids unsupported keywords', async () => {
    const causes = await createCauses(cluster, withSpec({ type: 'object', $ref: '#/definitions/x', uniqueItems: true, id: 'x' } as never));
    expect(causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueForbidden', field: `${SPEC}.$ref`, message: 'Forbidden: $ref is not supported' },
        { reason: 'FieldValueForbidden', field: `${SPEC}.id`, message: 'Forbidden: id is not supported' },
        {
          reason: 'FieldValueForbidden',
          field: `${SPEC}.uniqueItems`,
          message: 'Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
        },
      ]),
    );
    await expectCause(
      cluster,
      withSpec({ type: 'thing' }),
      'FieldValueNotSupported',
      `${SPEC}.type`,
      'Unsupported value: "thing": supported values: "array", "boolean", "integer", "number", "object", "string"',
    );
    await expectCause(
      cluster,
      widgets({ type: 'object', nullable: true }),
      'FieldValueForbidden',
      `${S}.nullable`,
      'Forbidden: nullable cannot be true at the root',
    );
  });

  it('limits the root with the status subresource on', async () => {
    const crd = widgets({ type: 'object', anyOf: [{ required: ['spec'] }], properties: { spec: { type: 'object' } } });
    crd.spec.versions[0]!.subresources = { status: {} };
    const causes = await createCauses(cluster, crd);
    expect(causes[0]!.field).toBe(S);
    expect(causes[0]!.message).toMatch(
      /^Invalid value: \{"ID":"","Schema":"","Ref":null,.*\}: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
    );
  });
});

describe('CustomResourceDefinition schemas: defaults', () => {
  it('refuses defaults with unknown fields, and defaults in top-level metadata', async () => {
    await expectCause(
      cluster,
      withSpec({ type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } }),
      'FieldValueInvalid',
      `${SPEC}.default`,
      'Invalid value: {"a":"x","b":"y"}: must not have unknown fields',
    );
    await expectCause(
      cluster,
      widgets({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } } }),
      'FieldValueForbidden',
      `${S}.properties[metadata].properties[name].default`,
      'Forbidden: must not be set in top-level metadata',
    );
  });

  it('validates each default against its schema, as a value of a custom resource', async () => {
    await expectCause(
      cluster,
      withSpec({ type: 'object', properties: { n: { type: 'integer', default: 'x' } } }),
      'FieldValueTypeInvalid',
      `${SPEC}.properties[n].default`,
      'Invalid value: "string":  in body must be of type integer: "string"',
    );
    await expectCause(
      cluster,
      withSpec({ type: 'object', properties: { s: { type: 'string', maxLength: 2, default: 'long' } } }),
      'FieldValueTooLong',
      `${SPEC}.properties[s].default`,
      'Too long: may not be more than 2 bytes',
    );
    await cluster.client.resource(CustomResourceDefinitionKind).create(withSpec({ type: 'object', properties: { n: { type: 'integer', default: 3 } } }));
  });
});

describe('CustomResourceDefinition schemas: extensions', () => {
  it('checks list types and list map keys', async () => {
    await expectCause(
      cluster,
      withSpec({ type: 'object', 'x-kubernetes-list-type': 'set' }),
      'FieldValueInvalid',
      `${SPEC}.type`,
      'Invalid value: "object": must be array if x-kubernetes-list-type is specified',
    );
    await expectCause(
      cluster,
      withSpec({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' }),
      'FieldValueNotSupported',
      `${SPEC}.x-kubernetes-list-type`,
      'Unsupported value: "bag": supported values: "atomic", "set", "map"',
    );
    const causes = await createCauses(
      cluster,
      withSpec({
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'missing'],
        items: { type: 'object', properties: { name: { type: 'string' } } },
      }),
    );
    expect(causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueInvalid',
          field: `${SPEC}.x-kubernetes-list-map-keys`,
          message: 'Invalid value: ["name","missing"]: entries must all be names of item properties',
        },
        {
          reason: 'FieldValueRequired',
          field: `${SPEC}.items.properties[name].default`,
          message: 'Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        },
      ]),
    );
    await expectCause(
      cluster,
      withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } }),
      'FieldValueInvalid',
      `${SPEC}.items.x-kubernetes-map-type`,
      'Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set',
    );
  });

  it('checks map types and preserve-unknown-fields', async () => {
    await expectCause(
      cluster,
      withSpec({ type: 'object', 'x-kubernetes-map-type': 'fine' }),
      'FieldValueNotSupported',
      `${SPEC}.x-kubernetes-map-type`,
      'Unsupported value: "fine": supported values: "atomic", "granular"',
    );
    await expectCause(
      cluster,
      withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }),
      'FieldValueInvalid',
      `${SPEC}.x-kubernetes-preserve-unknown-fields`,
      'Invalid value: false: must be true or undefined',
    );
  });

  it('checks the shape of x-kubernetes-validations rules', async () => {
    const causes = await createCauses(
      cluster,
      withSpec({
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: ' ' },
          { rule: 'self.a != ""', message: 'two\nlines' },
          { rule: 'true', reason: 'FieldValueBad' },
          { rule: 'true', fieldPath: '.b' },
        ],
      }),
    );
    const V = `${SPEC}.x-kubernetes-validations`;
    expect(causes).toEqual([
      { reason: 'FieldValueRequired', field: `${V}[0].rule`, message: 'Required value: rule is not specified' },
      { reason: 'FieldValueInvalid', field: `${V}[1].message`, message: 'Invalid value: "two\\nlines": must not contain line breaks' },
      {
        reason: 'FieldValueNotSupported',
        field: `${V}[2].reason`,
        message:
          'Unsupported value: "FieldValueBad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      },
      { reason: 'FieldValueInvalid', field: `${V}[3].fieldPath`, message: 'Invalid value: ".b": must be a valid path' },
    ]);
  });
});

describe('CustomResourceDefinition warnings', () => {
  it('warns of unrecognized formats on create, and on update only of new ones', async () => {
    const warnings: string[] = [];
    const crds = cluster.client.withWarnings((w) => warnings.push(...w)).resource(CustomResourceDefinitionKind);
    const created = await crds.create(
      withSpec({
        type: 'object',
        properties: { a: { type: 'string', format: 'ip' }, b: { type: 'string', format: 'date-time' }, n: { type: 'integer', format: 'int8' } },
      }),
    );
    expect(warnings).toEqual(['unrecognized format "ip"', 'unrecognized format "int8"']);
    warnings.length = 0;
    const next = structuredClone(created);
    next.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!.properties!.c = { type: 'boolean', format: 'yes' };
    await crds.update(next);
    expect(warnings).toEqual(['unrecognized format "yes"']);
  });
});
