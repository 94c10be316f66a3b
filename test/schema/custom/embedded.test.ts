import { describe, expect, it } from 'vitest';
import { readObjectMeta, validateEmbeddedResources } from '../../../src/schema/custom/index.js';
import { compile, messages, objectMeta } from './helpers.js';

const schema = compile({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        byName: {
          type: 'object',
          additionalProperties: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  },
});

const errorsOf = (template: unknown) => messages(schema.validate({ spec: { template } }));

describe('embedded resources', () => {
  it('require apiVersion and kind', () => {
    expect(errorsOf({})).toEqual(['spec.template.apiVersion: Required value', 'spec.template.kind: Required value']);
    expect(errorsOf({ apiVersion: 'v1', kind: 'Pod' })).toEqual([]);
  });

  it('check apiVersion and kind', () => {
    expect(errorsOf({ apiVersion: 1, kind: '' })).toEqual([
      'spec.template.apiVersion: Invalid value: 1: must be a string',
      'spec.template.kind: Invalid value: "": must not be empty',
    ]);
    expect(errorsOf({ apiVersion: 'a/b/c', kind: 'Foo_Bar' })).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.template.kind: Invalid value: \"Foo_Bar\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('validate their metadata as ObjectMeta, without requiring a name', () => {
    expect(errorsOf({ apiVersion: 'v1', kind: 'Pod', metadata: {} })).toEqual([]);
    expect(errorsOf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'v' } } })).toEqual([
      'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
      "spec.template.metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(errorsOf({ apiVersion: 'v1', kind: 'Pod', metadata: { generation: 'x' } })).toEqual([
      'spec.template.metadata: Invalid value: {"generation":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64',
    ]);
  });

  it('are found under map values at keyed paths', () => {
    expect(messages(schema.validate({ spec: { byName: { web: { apiVersion: 'v1' } } } }))).toEqual(['spec.byName[web].kind: Required value']);
  });

  it('are checked at the resource root only when asked', () => {
    expect(validateEmbeddedResources({ metadata: {} }, schema.root, { objectMeta })).toEqual([]);
    expect(messages(validateEmbeddedResources({ metadata: {} }, schema.root, { objectMeta, isResourceRoot: true }))).toEqual([
      'apiVersion: Required value',
      'kind: Required value',
    ]);
  });
});

describe('readObjectMeta (the resource’s own metadata)', () => {
  it('reports unknown members under metadata and writes the rest as Go marshals it', () => {
    const reading = readObjectMeta({ metadata: { name: 'x', namespace: '', foo: 1, finalizers: [] } }, { objectMeta });
    expect(reading).toEqual({ found: true, meta: { name: 'x' }, unknownFields: ['metadata.foo'], error: undefined });
  });

  it('fails on a wrongly typed member, or drops it for stored objects', () => {
    expect(readObjectMeta({ metadata: { name: 1 } }, { objectMeta }).error).toBe(
      'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    );
    expect(readObjectMeta({ metadata: { name: 1, uid: 'u' } }, { objectMeta, dropMalformedFields: true }).meta).toEqual({ uid: 'u' });
    expect(readObjectMeta({ metadata: 'x' }, { objectMeta, dropMalformedFields: true }).error).toBe('invalid metadata: expected object, got string');
  });

  it('says when there is no metadata, and reads a null one as empty', () => {
    expect(readObjectMeta({}, { objectMeta }).found).toBe(false);
    expect(readObjectMeta({ metadata: null }, { objectMeta })).toEqual({ found: true, meta: {}, unknownFields: [], error: undefined });
  });
});
