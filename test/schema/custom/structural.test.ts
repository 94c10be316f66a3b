import { describe, expect, it } from 'vitest';
import type { StructuralNode, StructNode } from '../../../src/schema/structural.js';
import { compile, objectMeta } from './helpers.js';

const schema = compile({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      'x-kubernetes-map-type': 'atomic',
      properties: {
        name: { type: 'string', format: 'hostname', enum: ['a'] },
        port: { 'x-kubernetes-int-or-string': true },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name', 'protocol'],
          items: { type: 'object', properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      },
    },
  },
});

const spec = (schema.structural as StructNode).properties.get('spec') as StructNode;
const prop = (name: string): StructuralNode => spec.properties.get(name)!;

describe('the structural schema of a custom resource', () => {
  it('gives the resource apiVersion, kind and ObjectMeta metadata', () => {
    const root = schema.structural as StructNode;
    expect(root.type).toBe('object');
    expect(root.properties.get('apiVersion')).toEqual({ type: 'string' });
    expect(root.properties.get('kind')).toEqual({ type: 'string' });
    expect(root.properties.get('metadata')).toBe(objectMeta);
  });

  it('keeps required fields and the x-kubernetes facts', () => {
    expect(spec.required).toEqual(new Set(['name']));
    expect(spec.mapType).toBe('atomic');
    expect(prop('ports')).toMatchObject({ type: 'array', listType: 'map', listMapKeys: ['name', 'protocol'] });
    const item = (prop('ports') as { items: StructNode }).items;
    expect((item.properties.get('protocol') as { default?: unknown }).default).toBe('TCP');
  });

  it('maps each kind of node', () => {
    expect(prop('name')).toEqual({ type: 'string', format: 'hostname', enum: ['a'] });
    expect(prop('port')).toEqual({ type: 'int-or-string', quantity: false });
    expect(prop('free')).toEqual({ type: 'any' });
    expect(prop('labels')).toEqual({ type: 'map', values: { type: 'string' } });
    const template = prop('template') as StructNode;
    expect([...template.properties.keys()]).toEqual(['spec', 'apiVersion', 'kind', 'metadata']);
  });
});
