import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../src/machinery/errors.js';
import { CustomSchemaError, validateListSetsAndMaps, type JsonSchemaProps } from '../../../src/schema/custom/index.js';
import { jsonEqual } from '../../../src/util/json-equal.js';
import { compile, deepFreeze } from './helpers.js';

const itemSchema: JsonSchemaProps = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'n' },
    value: { type: 'integer', default: 0, maximum: 10 },
    free: { 'x-kubernetes-preserve-unknown-fields': true },
  },
};

const schema = compile({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      required: ['mode'],
      properties: {
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        replicas: { type: 'integer', minimum: 0, default: 1, nullable: true },
        items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: itemSchema },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', pattern: '^[a-z]+$' } },
        settings: { type: 'object', additionalProperties: { type: 'object', properties: { on: { type: 'boolean', default: false } } } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string', default: 'k' } } },
        embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        choice: {
          'x-kubernetes-int-or-string': true,
          anyOf: [
            { type: 'integer', minimum: 1 },
            { type: 'string', minLength: 1 },
          ],
        },
      },
    },
  },
});

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'mode',
  'items',
  'name',
  'metadata',
  'apiVersion',
  'kind',
];

/** JSON values with hostile keys and shapes near the schema's. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, 1, -1, 1.5, 1e21, 'a', 'b', '', 'x y'),
    fc.integer(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string()), tie('value'), { maxKeys: 5 }),
  ),
})).value;

const resource = fc.record(
  {
    apiVersion: fc.constant('example.com/v1'),
    kind: fc.constant('Thing'),
    spec: fc.oneof(
      json,
      fc.record(
        {
          mode: json,
          replicas: json,
          items: fc.oneof(json, fc.array(fc.dictionary(fc.constantFrom('name', 'value', 'free', '__proto__'), json), { maxLength: 4 })),
          tags: fc.oneof(json, fc.array(fc.string(), { maxLength: 4 })),
          settings: json,
          free: json,
          embedded: json,
          choice: json,
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: ['apiVersion', 'kind'] },
);

describe('hostile input', () => {
  it('defaulting is idempotent and never changes its input', () => {
    fc.assert(
      fc.property(resource, (obj) => {
        const frozen = deepFreeze(structuredClone(obj));
        const once = schema.default(frozen);
        expect(jsonEqual(schema.default(once), once)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('pruning then defaulting then validating never throws, and a pruned object prunes to itself', () => {
    fc.assert(
      fc.property(resource, fc.boolean(), (obj, drop) => {
        const pruned = schema.prune(deepFreeze(obj), { dropInvalidMetadata: drop });
        if (pruned.error) return;
        const again = schema.prune(pruned.value);
        expect(again.unknownFields).toEqual([]);
        expect(jsonEqual(again.value, pruned.value)).toBe(true);
        const defaulted = schema.default(pruned.value);
        for (const errs of [schema.validate(defaulted), schema.validateUpdate(defaulted, obj), schema.validateStatusUpdate(defaulted, obj)]) {
          for (const e of errs) expect(typeof e.field).toBe('string');
        }
        // A no-op update ratchets everything but embedded resources, where the correlation finds the
        // object unchanged (a map list with repeated or non-scalar keys does not correlate its items,
        // in Kubernetes too).
        if (schema.correlate(defaulted, defaulted).deepEqual() && validateListSetsAndMaps(defaulted, schema.root).length === 0) {
          expect(schema.validateUpdate(defaulted, defaulted).filter((e) => !e.field.startsWith('spec.embedded'))).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves Object.prototype alone', () => {
    const attack = JSON.parse(
      '{"spec":{"__proto__":{"polluted":1},"settings":{"__proto__":{"on":null,"polluted":1}},"free":{"__proto__":{"polluted":1}},"items":[{"__proto__":{"polluted":1},"name":"x"}]}}',
    );
    const pruned = schema.prune(attack).value;
    const defaulted = schema.default(pruned) as { spec: { settings: Record<string, unknown> } };
    schema.validate(defaulted);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(defaulted.spec.settings, '__proto__')!.value).toEqual({ on: false });
    expect(Object.getPrototypeOf(defaulted.spec.settings)).toBe(Object.prototype);
  });

  it('handles values nested as deep as a request may be', () => {
    let deepArray: unknown = 'x';
    let deepObject: unknown = { leaf: true };
    for (let i = 0; i < 10000; i++) {
      deepArray = [deepArray];
      deepObject = { a: deepObject };
    }
    for (const value of [deepArray, deepObject]) {
      for (const where of ['mode', 'free', 'tags', 'items', 'embedded', 'choice']) {
        const obj = { spec: { [where]: value } };
        const pruned = schema.prune(obj, { dropInvalidMetadata: true });
        const defaulted = schema.default(pruned.value);
        expect(() => schema.validate(defaulted)).not.toThrow();
        expect(() => schema.validateUpdate(defaulted, obj)).not.toThrow();
      }
    }
  });

  it('handles huge lists in linear time', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => ({ name: `n${i % 25_000}`, value: i }));
    const tags = Array.from({ length: 50_000 }, (_, i) => `t${i % 10}`);
    const start = Date.now();
    const errs = schema.validate({ spec: { mode: 'a', items, tags } });
    expect(errs.length).toBeGreaterThan(25_000);
    expect(Date.now() - start).toBeLessThan(15_000);
  });

  it('refuses a schema nested too deep to walk, cleanly', () => {
    let props: JsonSchemaProps = { type: 'string' };
    for (let i = 0; i < 2000; i++) props = { type: 'object', properties: { a: props } };
    expect(() => compile(props)).toThrow(CustomSchemaError);
    try {
      compile(props);
    } catch (e) {
      expect(isApiError(e)).toBe(false);
      expect((e as Error).message).toBe('the schema nests deeper than 500 levels');
    }
  });
});
