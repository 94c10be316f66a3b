import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyMergePatch,
  applyStrategicMergePatch,
  createStrategicMergePatch,
  createThreeWayMergePatch,
  mergingMapsHaveConflicts,
  PatchError,
  requireKeyUnchanged,
  requireMetadataKeyUnchanged,
} from '../../src/patch/index.js';
import { structuralOf } from '../../src/schema/structural.js';
import { Pod } from '../../src/kinds/types/core-v1.js';

// What client-side kubectl computes: k8s.io/apimachinery pkg/util/strategicpatch/patch.go
// (CreateTwoWayMergePatch, CreateThreeWayMergePatch, diffMaps, diffLists) and
// pkg/util/jsonmergepatch/patch.go (CreateThreeWayJSONMergePatch) for kinds without metadata.

const schema = structuralOf(Pod());
type Obj = Record<string, any>;

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function errorOf(f: () => unknown): PatchError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PatchError);
    return e as PatchError;
  }
  throw new Error('no error');
}

const base = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web', x: '1' }, finalizers: ['a', 'b'] },
  spec: {
    containers: [
      {
        name: 'a',
        image: 'i1',
        env: [
          { name: 'E1', value: '1' },
          { name: 'E2', value: '2' },
        ],
      },
      { name: 'b', image: 'i2' },
    ],
    tolerations: [{ key: 't1', operator: 'Exists' }],
    volumes: [{ name: 'v', emptyDir: {} }],
  },
});

function twoWay(edit: (o: Obj) => void): Obj {
  const original = base();
  const modified = base();
  edit(modified);
  const patch = createStrategicMergePatch(original, modified, schema);
  expect(applyStrategicMergePatch(original, patch, schema)).toEqual(modified);
  return patch;
}

describe('createStrategicMergePatch (kubectl two-way)', () => {
  it('is empty for equal objects', () => {
    expect(createStrategicMergePatch(base(), base(), schema)).toEqual({});
  });

  it('sends a changed container with its merge key and the new order', () => {
    expect(twoWay((m) => (m.spec.containers[1].image = 'x'))).toEqual({
      spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b', image: 'x' }] },
    });
  });

  it('deletes a removed container with $patch: delete', () => {
    expect(twoWay((m) => m.spec.containers.shift())).toEqual({
      spec: { '$setElementOrder/containers': [{ name: 'b' }], containers: [{ name: 'a', $patch: 'delete' }] },
    });
  });

  it('sends only $setElementOrder for a reordering', () => {
    expect(twoWay((m) => m.spec.containers.reverse())).toEqual({ spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } });
  });

  it('diffs env inside a container', () => {
    expect(
      twoWay(
        (m) =>
          (m.spec.containers[0].env = [
            { name: 'E2', value: 'two' },
            { name: 'E3', value: '3' },
          ]),
      ),
    ).toEqual({
      spec: {
        '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }],
        containers: [
          {
            name: 'a',
            '$setElementOrder/env': [{ name: 'E2' }, { name: 'E3' }],
            env: [
              { name: 'E2', value: 'two' },
              { name: 'E3', value: '3' },
              { name: 'E1', $patch: 'delete' },
            ],
          },
        ],
      },
    });
  });

  it('adds, deletes and orders finalizers with parallel lists', () => {
    expect(twoWay((m) => (m.metadata.finalizers = ['b', 'c']))).toEqual({
      metadata: { finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'], '$setElementOrder/finalizers': ['b', 'c'] },
    });
    expect(twoWay((m) => (m.metadata.finalizers = ['b', 'a']))).toEqual({ metadata: { '$setElementOrder/finalizers': ['b', 'a'] } });
  });

  it('misses a reordering of a primitive list into sorted order (Go sorts the old list in place)', () => {
    const original = { metadata: { finalizers: ['b', 'a'] } };
    const modified = { metadata: { finalizers: ['a', 'b'] } };
    expect(createStrategicMergePatch(original, modified, schema)).toEqual({});
  });

  it('nulls removed map keys and sends changed ones', () => {
    expect(twoWay((m) => (m.metadata.labels = { app: 'web', y: '2' }))).toEqual({ metadata: { labels: { x: null, y: '2' } } });
  });

  it('builds $retainKeys for volumes (merge,retainKeys)', () => {
    expect(twoWay((m) => (m.spec.volumes = [{ name: 'v', hostPath: { path: '/h' } }]))).toEqual({
      spec: {
        '$setElementOrder/volumes': [{ name: 'v' }],
        volumes: [{ name: 'v', hostPath: { path: '/h' }, emptyDir: null, $retainKeys: ['hostPath', 'name'] }],
      },
    });
  });

  it('sends lists without merge strategy whole, and removed or retyped fields', () => {
    expect(twoWay((m) => (m.spec.tolerations = [{ key: 't2', operator: 'Exists' }]))).toEqual({
      spec: { tolerations: [{ key: 't2', operator: 'Exists' }] },
    });
    expect(
      twoWay((m) => {
        delete m.spec.tolerations;
        m.metadata.labels = 'not a map';
      }),
    ).toEqual({ metadata: { labels: 'not a map' }, spec: { tolerations: null } });
  });

  it('fails on unknown fields only where it must recurse into them', () => {
    const original = { spec: { bogus: { a: 1 } } };
    expect(createStrategicMergePatch(original, clone(original), schema)).toEqual({});
    expect(createStrategicMergePatch({ spec: {} }, original, schema)).toEqual(original);
    expect(errorOf(() => createStrategicMergePatch(original, { spec: { bogus: { a: 2 } } }, schema)).message).toBe(
      'unable to find api field in struct PodSpec for the json field "bogus"',
    );
  });

  it('fails on list elements without their merge key', () => {
    const modified = base();
    modified.spec.containers[1] = { image: 'x' };
    expect(errorOf(() => createStrategicMergePatch(base(), modified, schema)).message).toBe('map: map[image:x] does not contain declared merge key: name');
  });

  it('checks preconditions', () => {
    const modified = base();
    modified.kind = 'Service';
    const e = errorOf(() =>
      createStrategicMergePatch(base(), modified, schema, { preconditions: [requireKeyUnchanged('kind'), requireMetadataKeyUnchanged('name')] }),
    );
    expect(e.kind).toBe('precondition-failed');
    expect(e.message).toBe('precondition failed for: map[kind:Service]');
  });

  it('computes a JSON merge patch for kinds without strategic metadata', () => {
    const modified = base();
    modified.spec.containers[1].image = 'x';
    delete modified.metadata.labels.x;
    expect(createStrategicMergePatch(base(), modified, undefined)).toEqual({
      metadata: { labels: { x: null } },
      spec: { containers: modified.spec.containers },
    });
  });
});

describe('createThreeWayMergePatch (kubectl apply)', () => {
  const lastApplied = (): Obj => ({
    metadata: { name: 'web', labels: { app: 'web', old: 'o' } },
    spec: { containers: [{ name: 'a', image: 'i1' }] },
  });
  const live = (): Obj => ({
    metadata: { name: 'web', labels: { app: 'web', old: 'o', srv: 's' }, resourceVersion: '7' },
    spec: { containers: [{ name: 'a', image: 'i1', terminationMessagePath: '/dev/termination-log' }], nodeName: 'n1' },
    status: { phase: 'Running' },
  });

  it('deletes what the configuration dropped and keeps what others set', () => {
    const modified = { metadata: { name: 'web', labels: { app: 'web', new: 'n' } }, spec: { containers: [{ name: 'a', image: 'i2' }] } };
    const patch = createThreeWayMergePatch(lastApplied(), modified, live(), schema);
    expect(patch).toEqual({
      metadata: { labels: { old: null, new: 'n' } },
      spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'a', image: 'i2' }] },
    });
    expect(applyStrategicMergePatch(live(), patch, schema)).toEqual({
      metadata: { name: 'web', labels: { app: 'web', srv: 's', new: 'n' }, resourceVersion: '7' },
      spec: { containers: [{ name: 'a', image: 'i2', terminationMessagePath: '/dev/termination-log' }], nodeName: 'n1' },
      status: { phase: 'Running' },
    });
  });

  it('is empty when the configuration did not change', () => {
    expect(createThreeWayMergePatch(lastApplied(), lastApplied(), live(), schema)).toEqual({});
  });

  it('treats a missing last-applied configuration as empty (nothing is deleted)', () => {
    const patch = createThreeWayMergePatch(undefined, lastApplied(), live(), schema);
    expect(patch).toEqual({});
  });

  it('reports conflicts with live changes unless overwriting (kubectl always overwrites)', () => {
    const modified = lastApplied();
    modified.spec.containers[0].image = 'i2';
    const current = live();
    current.spec.containers[0].image = 'i3';
    const e = errorOf(() => createThreeWayMergePatch(lastApplied(), modified, current, schema, { overwrite: false }));
    expect(e.kind).toBe('conflict');
    expect(e.message).toMatch(/^patch:\n[\s\S]*\nconflicts with changes made from original to current:\n[\s\S]*\n$/);
    expect(e.toStatus()).toBeUndefined();
    expect((createThreeWayMergePatch(lastApplied(), modified, current, schema) as Obj).spec.containers).toEqual([{ name: 'a', image: 'i2' }]);
  });

  it('detects conflicts between two patches', () => {
    expect(mergingMapsHaveConflicts({ spec: { nodeName: 'a' } }, { spec: { nodeName: 'b' } }, schema)).toBe(true);
    expect(mergingMapsHaveConflicts({ spec: { nodeName: 'a' } }, { spec: { hostname: 'b' } }, schema)).toBe(false);
    expect(mergingMapsHaveConflicts({ metadata: { finalizers: ['a'] } }, { metadata: { finalizers: ['b'] } }, schema)).toBe(false);
  });

  it('computes a three-way JSON merge patch for kinds without strategic metadata', () => {
    const original = { spec: { a: 1, b: { c: 1 }, list: [1] } };
    const modified = { spec: { b: { d: 2 }, list: [2] } };
    const current = { spec: { a: 1, b: { c: 1, srv: true }, list: [1], srvTop: 1 }, status: { ok: true } };
    const patch = createThreeWayMergePatch(original, modified, current, undefined);
    expect(patch).toEqual({ spec: { a: null, b: { c: null, d: 2 }, list: [2] } });
    expect(applyMergePatch(current, patch)).toEqual({ spec: { b: { srv: true, d: 2 }, list: [2], srvTop: 1 }, status: { ok: true } });
  });
});

// --- properties -----------------------------------------------------------------------------------

const str = fc.constantFrom('x', 'y', 'z');
const unique = <T>(arb: fc.Arbitrary<T>, key: (t: T) => unknown, maxLength: number) => fc.uniqueArray(arb, { selector: key, maxLength });
const container = fc.record(
  {
    name: fc.constantFrom('a', 'b', 'c', 'd'),
    image: str,
    args: fc.array(str, { maxLength: 3 }),
    env: unique(fc.record({ name: fc.constantFrom('E1', 'E2', 'E3'), value: str }), (e) => e.name, 3),
    ports: unique(fc.record({ containerPort: fc.constantFrom(80, 443, 8080), protocol: fc.constantFrom('TCP', 'UDP') }), (p) => p.containerPort, 2),
  },
  { requiredKeys: ['name'] },
);
const volume = fc
  .record({ name: fc.constantFrom('v1', 'v2', 'v3'), source: fc.constantFrom('emptyDir', 'hostPath', 'configMap') })
  .map(({ name, source }) => ({ name, [source]: source === 'emptyDir' ? {} : source === 'hostPath' ? { path: '/p' } : { name: 'cm' } }));
/** Pod-shaped documents: every merge list has unique merge keys, as validation requires. */
const podDoc = fc.record({
  metadata: fc.record(
    {
      name: fc.constant('p'),
      labels: fc.dictionary(fc.constantFrom('l1', 'l2', 'l3'), str, { maxKeys: 3 }),
      finalizers: fc.uniqueArray(fc.constantFrom('f1', 'f2', 'f3', 'f4'), { maxLength: 4 }),
      ownerReferences: unique(
        fc.record({ uid: fc.constantFrom('u1', 'u2', 'u3'), name: str, kind: fc.constant('K'), apiVersion: fc.constant('v1') }),
        (o) => o.uid,
        2,
      ),
    },
    { requiredKeys: ['name'] },
  ),
  spec: fc.record(
    {
      containers: unique(container, (c) => c.name, 4),
      tolerations: fc.array(fc.record({ key: str, operator: fc.constant('Exists') }), { maxLength: 2 }),
      volumes: unique(volume, (v) => v.name, 3),
      nodeSelector: fc.dictionary(fc.constantFrom('n1', 'n2'), str, { maxKeys: 2 }),
      restartPolicy: fc.constantFrom('Always', 'Never'),
    },
    { requiredKeys: [] },
  ),
});

/**
 * What the comparisons ignore: the order of `metadata.finalizers`, a merged list of scalars whose
 * order kubectl does not always transmit (a reordering into sorted order is invisible to it).
 * Everything else, including the order of merged lists of maps, must match exactly.
 */
function normalize(doc: Obj): Obj {
  const out = clone(doc);
  if (Array.isArray(out.metadata?.finalizers)) out.metadata.finalizers.sort();
  return out;
}

describe('patch computation properties', () => {
  it('two-way: applying the patch to the original yields the modified object', () => {
    fc.assert(
      fc.property(podDoc, podDoc, (original, modified) => {
        const o = clone(original) as Obj;
        const m = clone(modified) as Obj;
        const patch = createStrategicMergePatch(o, m, schema);
        expect(normalize(applyStrategicMergePatch(o, patch, schema) as Obj)).toEqual(normalize(m));
        expect(o).toEqual(clone(original));
      }),
      { numRuns: 400 },
    );
  });

  it("three-way: the result is the new configuration plus the live object's own changes", () => {
    fc.assert(
      fc.property(podDoc, podDoc, (original, modified) => {
        const o = clone(original) as Obj;
        const m = clone(modified) as Obj;
        // The live object: the last-applied configuration plus what the server and controllers set.
        const current = clone(o);
        current.status = { phase: 'Running' };
        current.metadata.resourceVersion = '7';
        current.metadata.annotations = { srv: 'x' };
        current.metadata.labels = { ...(current.metadata.labels ?? {}), srv: 'x' };
        current.metadata.finalizers = [...(current.metadata.finalizers ?? []), 'srv'];
        current.spec.nodeName = 'node-1';
        for (const c of current.spec.containers ?? []) c.terminationMessagePath = '/dev/termination-log';

        const patch = createThreeWayMergePatch(o, m, current, schema);
        const result = applyStrategicMergePatch(current, patch, schema) as Obj;

        const expected = clone(m);
        expected.status = { phase: 'Running' };
        expected.metadata.resourceVersion = '7';
        expected.metadata.annotations = { srv: 'x' };
        // A map or list the configuration dropped is deleted whole, server entries included.
        if (m.metadata.labels) expected.metadata.labels = { ...m.metadata.labels, srv: 'x' };
        else if (!o.metadata.labels) expected.metadata.labels = { srv: 'x' };
        if (m.metadata.finalizers) expected.metadata.finalizers = [...m.metadata.finalizers, 'srv'];
        else if (!o.metadata.finalizers) expected.metadata.finalizers = ['srv'];
        expected.spec.nodeName = 'node-1';
        const known = new Set(((o.spec.containers ?? []) as Obj[]).map((c) => c.name));
        for (const c of expected.spec.containers ?? []) if (known.has(c.name)) c.terminationMessagePath = '/dev/termination-log';

        expect(normalize(result)).toEqual(normalize(expected));
      }),
      { numRuns: 400 },
    );
  });

  it('three-way JSON merge patch (no strategic metadata) keeps fields only the live object has', () => {
    const doc = fc.dictionary(
      fc.constantFrom('a', 'b', 'c'),
      fc.oneof(str, fc.dictionary(fc.constantFrom('x', 'y'), str, { maxKeys: 2 }), fc.array(str, { maxLength: 2 })),
      {
        maxKeys: 3,
      },
    );
    fc.assert(
      fc.property(doc, doc, (original, modified) => {
        const current = { ...clone(original), status: { ok: true } };
        const patch = createThreeWayMergePatch(original, modified, current, undefined);
        expect(applyMergePatch(current, patch)).toEqual({ ...clone(modified), status: { ok: true } });
      }),
      { numRuns: 300 },
    );
  });
});
