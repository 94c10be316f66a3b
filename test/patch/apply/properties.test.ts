import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { structuralOf } from '../../../src/schema/structural.js';
import { ConfigMap, Pod } from '../../../src/kinds/types/core-v1.js';
import {
  FieldSet,
  pathElement as pe,
  recordUpdate,
  serverSideApply,
  STRIPPED_FIELDS,
  toFieldSet,
  type FieldPath,
  type PathElement,
} from '../../../src/patch/apply/index.js';

const cm = structuralOf(ConfigMap());
const pod = structuralOf(Pod());
const T0 = Date.UTC(2026, 0, 1);

const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a.b', 'f:x', '.', 'k:{}', '<&>'));
const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }));

const element: fc.Arbitrary<PathElement> = fc.oneof(
  key.map((k) => pe.field(k)),
  fc.dictionary(fc.constantFrom('name', 'port', 'protocol'), scalar, { minKeys: 1 }).map((o) => pe.key(o)),
  scalar.map((v) => pe.value(v)),
  fc.nat({ max: 50 }).map((i) => pe.index(i)),
);
const path: fc.Arbitrary<FieldPath> = fc.array(element, { minLength: 1, maxLength: 4 });
const fieldSet = fc.array(path, { maxLength: 12 }).map((ps) => FieldSet.of(...ps));

const configMap = fc
  .record(
    {
      data: fc.dictionary(key, fc.string({ maxLength: 5 }), { minKeys: 1, maxKeys: 5 }),
      labels: fc.dictionary(key, fc.string({ maxLength: 5 }), { minKeys: 1, maxKeys: 3 }),
      finalizers: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .map(({ data, labels, finalizers }) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm', namespace: 'default', ...(labels ? { labels } : {}), ...(finalizers ? { finalizers } : {}) },
    ...(data ? { data } : {}),
  }));

const container = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 5 }),
    image: fc.string({ maxLength: 5 }),
    args: fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    env: fc.uniqueArray(fc.record({ name: fc.string({ minLength: 1, maxLength: 4 }), value: fc.string({ maxLength: 3 }) }), {
      selector: (e) => e.name,
      minLength: 1,
      maxLength: 3,
    }),
    ports: fc.uniqueArray(
      fc.record({ containerPort: fc.integer({ min: 1, max: 65535 }), protocol: fc.constantFrom('TCP', 'UDP') }, { requiredKeys: ['containerPort'] }),
      {
        selector: (p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`,
        minLength: 1,
        maxLength: 3,
      },
    ),
  },
  { requiredKeys: ['name'] },
);
const podConfig = fc
  .record({
    containers: fc.uniqueArray(container, { selector: (c) => c.name, minLength: 1, maxLength: 3 }),
    nodeSelector: fc.option(fc.dictionary(key, fc.string({ maxLength: 3 }), { minKeys: 1, maxKeys: 2 }), { nil: undefined }),
    activeDeadlineSeconds: fc.option(fc.nat(), { nil: undefined }),
  })
  .map((spec) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: JSON.parse(JSON.stringify(spec)) as unknown }));

describe('properties', () => {
  it('FieldsV1 encoding round-trips any field set (as a value and as text)', () => {
    fc.assert(
      fc.property(fieldSet, (set) => {
        expect(FieldSet.fromFieldsV1(set.toFieldsV1()).equals(set)).toBe(true);
        expect(FieldSet.fromFieldsV1(set.toFieldsV1String()).equals(set)).toBe(true);
      }),
    );
  });

  it('ToFieldSet → FieldsV1 → FieldSet is the identity', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          configMap.map((o) => [o, cm] as const),
          podConfig.map((o) => [o, pod] as const),
        ),
        ([obj, schema]) => {
          const set = toFieldSet(obj, schema);
          const back = FieldSet.fromFieldsV1(JSON.parse(set.toFieldsV1String()));
          expect(back.equals(set)).toBe(true);
          expect(back.paths()).toEqual(set.paths());
        },
      ),
    );
  });

  it('set algebra agrees with membership', () => {
    fc.assert(
      fc.property(fieldSet, fieldSet, (a, b) => {
        for (const p of [...a, ...b]) {
          expect(a.union(b).has(p)).toBe(a.has(p) || b.has(p));
          expect(a.intersection(b).has(p)).toBe(a.has(p) && b.has(p));
          expect(a.difference(b).has(p)).toBe(a.has(p) && !b.has(p));
        }
        expect(a.union(b).size).toBe(a.size + b.size - a.intersection(b).size);
      }),
    );
  });

  // Kubernetes compares the typed live object (where an empty omitempty list or map does not
  // exist) with the merged configuration (where it does), so configurations holding `[]` or `{}`
  // count as a change on every apply; the generators leave those out (see apply.test.ts).
  it('applying the same configuration twice changes nothing the second time', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          configMap.map((o) => [o, cm] as const),
          podConfig.map((o) => [o, pod] as const),
        ),
        ([cfg, schema]) => {
          const first = serverSideApply({ live: undefined, applied: cfg, manager: 'm', apiVersion: 'v1', kind: cfg.kind, schema, now: T0 });
          const second = serverSideApply({ live: first.object, applied: cfg, manager: 'm', apiVersion: 'v1', kind: cfg.kind, schema, now: T0 + 60_000 });
          expect(second.changed).toBe(false);
          expect(second.object).toEqual(first.object);
          expect(second.managedFields).toEqual(first.managedFields);
          // The applier owns exactly its configuration.
          const own = first.managedFields.find((e) => e.manager === 'm');
          const expected = toFieldSet(cfg, schema).difference(STRIPPED_FIELDS);
          expect(own ? FieldSet.fromFieldsV1(own.fieldsV1).equals(expected) : expected.empty).toBe(true);
        },
      ),
    );
  });

  it('a later configuration replaces an earlier one of the same applier', () => {
    fc.assert(
      fc.property(podConfig, podConfig, (a, b) => {
        const first = serverSideApply({ live: undefined, applied: a, manager: 'm', apiVersion: 'v1', kind: 'Pod', schema: pod, now: T0 });
        const second = serverSideApply({ live: first.object, applied: b, manager: 'm', apiVersion: 'v1', kind: 'Pod', schema: pod, now: T0 + 1000 });
        const fresh = serverSideApply({ live: undefined, applied: b, manager: 'm', apiVersion: 'v1', kind: 'Pod', schema: pod, now: T0 + 1000 });
        // With a single applier, what remains is exactly what the new configuration says.
        const strip = (o: Record<string, unknown>) => ({ ...o, metadata: { ...(o.metadata as object), managedFields: undefined } });
        expect(JSON.parse(JSON.stringify(strip(second.object)))).toEqual(JSON.parse(JSON.stringify(strip(fresh.object))));
      }),
    );
  });

  it('an update that changes nothing keeps managedFields as they were', () => {
    fc.assert(
      fc.property(configMap, (obj) => {
        const mf = recordUpdate({ live: undefined, updated: obj, manager: 'c', apiVersion: 'v1', schema: cm, now: T0 });
        const live = { ...obj, metadata: { ...obj.metadata, uid: 'u', managedFields: mf } };
        expect(recordUpdate({ live, updated: JSON.parse(JSON.stringify(live)), manager: 'x', apiVersion: 'v1', schema: cm, now: T0 + 5000 })).toEqual(mf);
      }),
    );
  });
});
