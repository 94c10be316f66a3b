import { describe, expect, it } from 'vitest';
import { compile, deepFreeze } from './helpers.js';

const schema = compile({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        strategy: { type: 'object', default: { type: 'Rolling' }, properties: { type: { type: 'string' }, maxSurge: { type: 'integer', default: 25 } } },
        ports: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        weights: { type: 'array', items: { type: 'integer', default: 0 } },
        nullableWeights: { type: 'array', items: { type: 'integer', nullable: true, default: 0 } },
        limits: { type: 'object', additionalProperties: { type: 'string', default: 'none' } },
        mode: { type: 'string', nullable: true, default: 'auto' },
        level: { type: 'string', default: 'info' },
        extra: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { inner: { type: 'object', properties: { flag: { type: 'boolean', default: true } } } },
        },
      },
    },
  },
});

describe('default', () => {
  it('fills absent properties, then defaults inside what it filled', () => {
    expect(schema.default({})).toEqual({
      spec: { replicas: 1, strategy: { type: 'Rolling', maxSurge: 25 }, mode: 'auto', level: 'info' },
    });
  });

  it('defaults every list item and map value', () => {
    const out = schema.default({ spec: { ports: [{ name: 'a' }, { name: 'b', protocol: 'UDP' }], limits: { cpu: null, mem: '1' } } }) as {
      spec: Record<string, unknown>;
    };
    expect(out.spec['ports']).toEqual([
      { name: 'a', protocol: 'TCP' },
      { name: 'b', protocol: 'UDP' },
    ]);
    expect(out.spec['limits']).toEqual({ cpu: 'none', mem: '1' });
  });

  it('replaces a null that is not nullable, keeps a nullable one', () => {
    const out = schema.default({ spec: { level: null, mode: null, weights: [null, 3], nullableWeights: [null] } }) as { spec: Record<string, unknown> };
    expect(out.spec['level']).toBe('info');
    expect(out.spec['mode']).toBeNull();
    expect(out.spec['weights']).toEqual([0, 3]);
    expect(out.spec['nullableWeights']).toEqual([null]);
  });

  it('defaults under x-kubernetes-preserve-unknown-fields where the schema names properties', () => {
    const out = schema.default({ spec: { extra: { inner: {}, unknown: { inner: {} } } } }) as { spec: Record<string, unknown> };
    expect(out.spec['extra']).toEqual({ inner: { flag: true }, unknown: { inner: {} } });
  });

  it('is idempotent, never changes its input, and gives each use its own copy of a default', () => {
    const input = deepFreeze({ spec: { ports: [{ name: 'a' }] } });
    const once = schema.default(input) as { spec: { strategy: { type: string } } };
    expect(schema.default(once)).toEqual(once);
    expect(input).toEqual({ spec: { ports: [{ name: 'a' }] } });
    once.spec.strategy.type = 'changed';
    expect((schema.default({}) as typeof once).spec.strategy.type).toBe('Rolling');
  });

  it('answers the very object when nothing needed a default', () => {
    const complete = deepFreeze({ spec: { replicas: 2, strategy: { type: 'x', maxSurge: 1 }, mode: 'm', level: 'l' } });
    expect(schema.default(complete)).toBe(complete);
  });

  it('uses defaults as pruned when the CRD is served', () => {
    const pruned = compile({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            config: { type: 'object', default: { known: 1, unknown: 2 }, properties: { known: { type: 'integer' } } },
            template: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              'x-kubernetes-preserve-unknown-fields': true,
              default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', bogus: true, labels: {} } },
            },
          },
        },
      },
    });
    expect(pruned.default({ spec: {} })).toEqual({
      spec: { config: { known: 1 }, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } } },
    });
    expect(pruned.root.properties!.get('spec')!.properties!.get('config')!.default).toEqual({ known: 1 });
  });
});
