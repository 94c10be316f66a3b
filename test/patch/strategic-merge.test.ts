import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyStrategicMergePatch, GENERIC_UNPROCESSABLE_MESSAGE, PANIC_MESSAGE, PatchError, UNSUPPORTED_SMP_MESSAGE } from '../../src/patch/index.js';
import { structuralOf, type StructuralNode } from '../../src/schema/structural.js';
import { Pod, Service } from '../../src/kinds/types/core-v1.js';
import { parseJson } from '../../src/codec/json.js';
import { StatefulSet } from '../../src/kinds/types/apps-v1.js';

// Semantics and messages: k8s.io/apimachinery pkg/util/strategicpatch/patch.go (mergeMap,
// mergeSlice, normalizeElementOrder, mergeSortedSlice) and pkg/util/mergepatch/errors.go; HTTP
// mapping: k8s.io/apiserver pkg/endpoints/handlers/patch.go (interpretStrategicMergePatchError).

const podSchema = structuralOf(Pod());
const stsSchema = structuralOf(StatefulSet());

function deepFreeze<T>(v: T): T {
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
      stack.push(...Object.values(x));
      Object.freeze(x);
    }
  }
  return v;
}

type Obj = Record<string, any>;

function smp(original: unknown, patch: unknown, schema: StructuralNode | undefined = podSchema): Obj {
  return applyStrategicMergePatch(deepFreeze(original), deepFreeze(patch), schema) as Obj;
}

function fail(original: unknown, patch: unknown, schema: StructuralNode | undefined = podSchema): PatchError {
  try {
    applyStrategicMergePatch(original, patch, schema);
  } catch (e) {
    expect(e).toBeInstanceOf(PatchError);
    return e as PatchError;
  }
  throw new Error('patch unexpectedly applied');
}

function pod(): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      labels: { app: 'web', tier: 'front' },
      finalizers: ['a', 'b'],
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1' }],
    },
    spec: {
      containers: [
        {
          name: 'a',
          image: 'i1',
          env: [
            { name: 'E1', value: '1' },
            { name: 'E2', value: '2' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
        },
        { name: 'b', image: 'i2' },
      ],
      tolerations: [{ key: 't1', operator: 'Exists' }],
      volumes: [{ name: 'v', emptyDir: {} }],
    },
  };
}

const names = (list: Obj[]): string[] => list.map((c) => c.name as string);

describe('lists of maps merged by patchMergeKey', () => {
  it('merges containers by name', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'b', image: 'x' }] } });
    expect(out.spec.containers).toEqual([pod().spec.containers[0], { name: 'b', image: 'x' }]);
  });

  it('puts a new element before the live ones it is not ordered against', () => {
    expect(names(smp(pod(), { spec: { containers: [{ name: 'c', image: 'i3' }] } }).spec.containers)).toEqual(['c', 'a', 'b']);
  });

  it('keeps the patch order and interleaves live elements by live position', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'a', image: 'y' }, { name: 'c' }] } });
    expect(names(out.spec.containers)).toEqual(['a', 'c', 'b']);
    expect(out.spec.containers[0].image).toBe('y');
  });

  it('orders by $setElementOrder', () => {
    const out = smp(pod(), {
      spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }, { name: 'a' }], containers: [{ name: 'c', image: 'i3' }] },
    });
    expect(names(out.spec.containers)).toEqual(['b', 'c', 'a']);
    expect(names(smp(pod(), { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } }).spec.containers)).toEqual(['b', 'a']);
  });

  it('deletes an element with $patch: delete', () => {
    expect(names(smp(pod(), { spec: { containers: [{ name: 'b', $patch: 'delete' }] } }).spec.containers)).toEqual(['a']);
  });

  it('replaces the list with $patch: replace', () => {
    const out = smp(pod(), { spec: { containers: [{ name: 'z', image: 'z' }, { $patch: 'replace' }] } });
    expect(out.spec.containers).toEqual([{ name: 'z', image: 'z' }]);
  });

  it('merges env by name inside a container, patch elements in patch order', () => {
    const out = smp(pod(), {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'E2', value: 'two' },
              { name: 'E3', value: '3' },
              { name: 'E1', value: null },
            ],
          },
        ],
      },
    });
    // Every element is in the patch, so the patch's order wins; null deleted E1's value.
    expect(out.spec.containers[0].env).toEqual([{ name: 'E2', value: 'two' }, { name: 'E3', value: '3' }, { name: 'E1' }]);
  });

  it('merges ports on containerPort alone (so 53/TCP merges into 53/UDP)', () => {
    const p = pod();
    p.spec.containers[0].ports = [
      { containerPort: 53, protocol: 'UDP', name: 'dns' },
      { containerPort: 53, protocol: 'TCP', name: 'dns-tcp' },
    ];
    const out = smp(p, { spec: { containers: [{ name: 'a', ports: [{ containerPort: 53, protocol: 'TCP', hostPort: 53 }] }] } });
    expect(out.spec.containers[0].ports).toEqual([
      { containerPort: 53, protocol: 'TCP', name: 'dns', hostPort: 53 },
      { containerPort: 53, protocol: 'TCP', name: 'dns-tcp' },
    ]);
  });

  it('merges ownerReferences by uid', () => {
    const out = smp(pod(), {
      metadata: {
        ownerReferences: [
          { uid: 'u1', controller: true },
          { uid: 'u2', apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' },
        ],
      },
    });
    expect(out.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true },
      { uid: 'u2', apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' },
    ]);
  });

  it('reaches nested lists through structs (StatefulSet template)', () => {
    const sts = { spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } }, updateStrategy: { type: 'RollingUpdate' } } };
    const out = smp(sts, { spec: { template: { spec: { containers: [{ name: 'a', image: 'y' }] } } } }, stsSchema);
    expect(out.spec.template.spec.containers).toEqual([{ name: 'a', image: 'y' }]);
  });
});

describe('lists without merge strategy and lists of scalars', () => {
  it('replaces tolerations (no patchStrategy) whole, nulls and all', () => {
    const out = smp(pod(), { spec: { tolerations: [{ key: 't2', operator: 'Exists', value: null }] } });
    expect(out.spec.tolerations).toEqual([{ key: 't2', operator: 'Exists', value: null }]);
  });

  it('unions finalizers (merge strategy) in Kubernetes order', () => {
    expect(smp(pod(), { metadata: { finalizers: ['c', 'a'] } }).metadata.finalizers).toEqual(['c', 'a', 'b']);
    expect(smp(pod(), { metadata: { finalizers: ['b', 'b'] } }).metadata.finalizers).toEqual(['a', 'b']);
  });

  it('removes values listed in $deleteFromPrimitiveList', () => {
    expect(smp(pod(), { metadata: { '$deleteFromPrimitiveList/finalizers': ['a', 'zzz'] } }).metadata.finalizers).toEqual(['b']);
    const noList = pod();
    delete noList.metadata.finalizers;
    expect(smp(noList, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }).metadata).not.toHaveProperty('finalizers');
    // A null deletion list deletes the list itself (the key is processed as the list's own key).
    expect(smp(pod(), { metadata: { '$deleteFromPrimitiveList/finalizers': null } }).metadata).not.toHaveProperty('finalizers');
  });

  it('orders the merged list by $setElementOrder, additions and deletions included', () => {
    const out = smp(pod(), {
      metadata: { '$setElementOrder/finalizers': ['b', 'c'], finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'] },
    });
    expect(out.metadata.finalizers).toEqual(['b', 'c']);
    const keep = smp(pod(), { metadata: { '$setElementOrder/finalizers': ['b', 'c'], finalizers: ['c'] } });
    expect(keep.metadata.finalizers).toEqual(['a', 'b', 'c']);
  });
});

describe('maps', () => {
  it('merges labels and deletes with null', () => {
    expect(smp(pod(), { metadata: { labels: { tier: null, env: 'prod', absent: null } } }).metadata.labels).toEqual({ app: 'web', env: 'prod' });
  });

  it('replaces a map with $patch: replace and empties it with $patch: delete', () => {
    expect(smp(pod(), { metadata: { labels: { $patch: 'replace', only: 'x' } } }).metadata.labels).toEqual({ only: 'x' });
    expect(smp(pod(), { metadata: { labels: { $patch: 'delete' } } }).metadata.labels).toEqual({});
  });

  it('replaces the whole object with a top-level $patch: replace', () => {
    expect(smp(pod(), { $patch: 'replace', metadata: { name: 'q' } })).toEqual({ metadata: { name: 'q' } });
  });

  it('clears keys missing from $retainKeys (Pod volumes are merge,retainKeys)', () => {
    const out = smp(pod(), { spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] } });
    expect(out.spec.volumes).toEqual([{ name: 'v', hostPath: { path: '/x' } }]);
    const without = smp(pod(), { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } });
    expect(without.spec.volumes).toEqual([{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }]);
  });

  it('applies $retainKeys on any map (StatefulSet updateStrategy)', () => {
    const sts = { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } } };
    const out = smp(sts, { spec: { updateStrategy: { $retainKeys: ['type'], type: 'OnDelete' } } }, stsSchema);
    expect(out.spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('replaces a map whose field has patchStrategy replace', () => {
    const schema = structuralWith({ type: 'map', values: { type: 'string' }, patchStrategy: 'replace' });
    expect(smp({ m: { a: '1', b: '2' } }, { m: { b: '3' } }, schema)).toEqual({ m: { b: '3' } });
  });

  it('takes values for absent keys without nulls or directive maps', () => {
    const out = smp(pod(), {
      metadata: { annotations: { a: null, b: 'x' } },
      spec: {
        initContainers: [
          { name: 'i', $patch: 'delete' },
          { name: 'j', env: [{ name: 'E', value: null }] },
        ],
      },
    });
    expect(out.metadata.annotations).toEqual({ b: 'x' });
    expect(out.spec.initContainers).toEqual([{ name: 'j', env: [{ name: 'E' }] }]);
  });
});

describe('fields the schema does not know', () => {
  it('takes unknown fields from the patch (the decoder drops or reports them later)', () => {
    const out = smp(pod(), { spec: { bogus: { a: null, b: 1 } }, $unknownDirective: 1 });
    expect(out.spec.bogus).toEqual({ b: 1 });
    expect(out.$unknownDirective).toBe(1);
  });

  it('fails when it has to look an unknown field up', () => {
    const p = pod();
    p.spec.bogus = { a: 1 };
    const e = fail(p, { spec: { bogus: { b: 1 } } });
    expect(e.message).toBe('unable to find api field in struct PodSpec for the json field "bogus"');
    expect(e.toStatus()).toEqual({ code: 500, message: e.message });
    expect(fail(pod(), { spec: { '$setElementOrder/bogus': [] } }).message).toBe('unable to find api field in struct PodSpec for the json field "bogus"');
  });

  it('finds fields case-insensitively, as Go does', () => {
    // `Containers` resolves to `containers`; neither object nor patch holds a `Containers` list.
    expect(smp(pod(), { spec: { '$setElementOrder/Containers': [{ name: 'b' }, { name: 'a' }] } })).toEqual(pod());
  });

  it('cannot look inside map-typed fields or into a non-list field as a list', () => {
    expect(fail(pod(), { metadata: { labels: { '$setElementOrder/x': [] } } }).message).toBe(
      'merging an object in json but data type is not struct, instead is: map',
    );
    // The live value is checked to be a list before the field is looked up.
    expect(fail(pod(), { metadata: { '$setElementOrder/labels': [] } }).message).toBe('expected a []interface {}, but received a map[string]interface {}');
    const unlabelled = pod();
    delete unlabelled.metadata.labels;
    expect(fail(unlabelled, { metadata: { '$setElementOrder/labels': [] } }).message).toBe('expected slice or array type, but got: struct');
  });
});

describe('malformed patches (400 BadRequest)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['an array', [], 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a string', 'x', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['a number', 1, 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['a bool', true, 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
    ['$deleteFromPrimitiveList without a field', { metadata: { $deleteFromPrimitiveList: ['a'] } }, 'invalid patch format of primitive list'],
    ['a misspelt deletion prefix', { metadata: { '$deleteFromPrimitiveListX/finalizers': ['a'] } }, 'invalid patch format of primitive list'],
    ['$setElementOrder without a field', { metadata: { $setElementOrder: ['a'] } }, 'invalid patch format of setElementOrder list'],
    ['$retainKeys that is not a list', { spec: { $retainKeys: 'containers' } }, 'invalid patch format of retainKeys'],
    [
      '$retainKeys missing a patched key',
      { spec: { volumes: [{ name: 'v', $retainKeys: ['name'], hostPath: { path: '/x' } }] } },
      'invalid patch format of retainKeys',
    ],
  ];
  it.each(cases)('%s', (_name, patch, message) => {
    expect(fail(pod(), patch).toStatus()).toEqual({ code: 400, reason: 'BadRequest', message });
  });

  it('treats a null patch as empty', () => {
    expect(smp(pod(), null)).toEqual(pod());
  });
});

describe('invalid directives and lists (500 with the Go error text)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['an unknown $patch on a map', { spec: { $patch: 'foo' } }, 'unknown patch type: foo in map: map[$patch:foo]'],
    ['a non-string $patch', { metadata: { labels: { $patch: 5, a: 'b' } } }, 'unknown patch type: %!s(int64=5) in map: map[$patch:5 a:b]'],
    ['$patch: merge on a map', { metadata: { $patch: 'merge', name: 'n' } }, 'unknown patch type: merge in map: map[$patch:merge name:n]'],
    ['$patch: merge in a list', { spec: { containers: [{ name: 'a', $patch: 'merge' }] } }, 'merging lists cannot yet be specified in the patch'],
    ['an unknown $patch in a list', { spec: { containers: [{ name: 'a', $patch: 'bogus' }] } }, 'unknown patch type: bogus in map: map[$patch:bogus name:a]'],
    [
      'an element without its merge key',
      { spec: { containers: [{ image: 'z', resources: { limits: { cpu: 1 } } }] } },
      'map: map[image:z resources:map[limits:map[cpu:1]]] does not contain declared merge key: name',
    ],
    [
      'a delete directive without its merge key',
      { spec: { containers: [{ $patch: 'delete' }] } },
      'map: map[$patch:delete] does not contain declared merge key: name',
    ],
    ['mixed element types', { metadata: { finalizers: [1.5, 'x'] } }, 'list element types are not identical: [[a b] [1.5 x]]'],
    [
      'a patch list out of $setElementOrder order',
      { metadata: { '$setElementOrder/finalizers': ['a', 'b'], finalizers: ['c'] } },
      "The order in patch list:\n[c]\n doesn't match $setElementOrder list:\n[a b]\n",
    ],
    [
      'a map list out of $setElementOrder order',
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }],
          containers: [
            { name: 'b', image: 'x' },
            { name: 'a', image: 'y' },
          ],
        },
      },
      "The order in patch list:\n[map[image:x name:b] map[image:y name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n",
    ],
    ['a $setElementOrder that is not a list', { metadata: { '$setElementOrder/finalizers': 'x' } }, 'expected a []interface {}, but received a string'],
    [
      'a $setElementOrder entry without the merge key',
      { spec: { '$setElementOrder/containers': [{ image: 'x' }] } },
      'map: map[image:x] does not contain declared merge key: name',
    ],
  ];
  it.each(cases)('%s', (_name, patch, message) => {
    const e = fail(pod(), patch);
    expect(e.message).toBe(message);
    expect(e.kind).toBe('server-error');
    expect(e.toStatus()).toEqual({ code: 500, message });
  });

  it('ignores a directive map for a key the object lacks', () => {
    const p = pod();
    delete p.spec;
    expect(smp(p, { spec: { $patch: 'foo' } })).not.toHaveProperty('spec');
  });

  it('answers lists of lists with 422 and the generic message', () => {
    const p = pod();
    p.metadata.finalizers = [];
    const e = fail(p, { metadata: { finalizers: [['x']] } });
    expect(e.message).toBe('lists of lists are not supported');
    expect(e.toStatus()).toEqual({ code: 422, reason: 'Invalid', message: GENERIC_UNPROCESSABLE_MESSAGE, details: {} });
  });

  it('answers Go panics with 500 and the plain-text body', () => {
    const emptyFinalizers = pod();
    emptyFinalizers.metadata.finalizers = [];
    const cases: Array<[Obj, unknown]> = [
      [pod(), { spec: { containers: [{ name: { x: 1 } }] } }],
      [pod(), { spec: { volumes: [{ name: 'v', $retainKeys: [{}] }] } }],
      [pod(), { metadata: { '$setElementOrder/finalizers': [{}] } }],
      [emptyFinalizers, { metadata: { finalizers: [null] } }],
    ];
    for (const [original, patch] of cases) {
      const e = fail(original, patch);
      expect(e.kind).toBe('panic');
      expect(e.toStatus()).toEqual({ code: 500, message: PANIC_MESSAGE, plainText: true });
    }
  });
});

describe('kinds without strategic metadata', () => {
  it('refuses strategic merge patch with 415, as for custom resources', () => {
    let error: unknown;
    try {
      applyStrategicMergePatch({ spec: {} }, { spec: { a: 1 } }, undefined);
    } catch (e) {
      error = e;
    }
    expect((error as PatchError).toStatus()).toEqual({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: UNSUPPORTED_SMP_MESSAGE,
    });
    expect(UNSUPPORTED_SMP_MESSAGE).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });
});

describe('merge keys keep the Go type the patch text gives them', () => {
  // The apiserver decodes the patch with PreserveInts (a number with a `.` or an exponent is a
  // float64) and converts the live object to int64s; `==` never finds float64(80) equal to int64(80).
  const svcSchema = structuralOf(Service());
  const svc = () => deepFreeze({ spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } });
  const wire = (text: string): unknown => parseJson(text, { rawScalars: true }).value;
  const ports = (out: Obj) => out.spec.ports as Obj[];

  it('appends an element whose merge key was written 80.0 or 8e1 instead of merging it into port 80', () => {
    for (const port of ['80.0', '8e1', '80.00']) {
      const out = applyStrategicMergePatch(svc(), wire(`{"spec":{"ports":[{"port":${port},"protocol":"TCP","name":"x"}]}}`), svcSchema) as Obj;
      expect(ports(out)).toEqual([
        { port: 80, protocol: 'TCP', name: 'x' },
        { port: 80, protocol: 'TCP', targetPort: 80 },
      ]);
    }
    const merged = applyStrategicMergePatch(svc(), wire('{"spec":{"ports":[{"port":80,"protocol":"TCP","name":"x"}]}}'), svcSchema) as Obj;
    expect(ports(merged)).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80, name: 'x' }]);
    // -0 has no `.`: PreserveInts decodes it as int64 0.
    const zero = applyStrategicMergePatch(
      { spec: { ports: [{ port: 0, protocol: 'TCP' }] } },
      wire('{"spec":{"ports":[{"port":-0,"name":"z"}]}}'),
      svcSchema,
    ) as Obj;
    expect(JSON.parse(JSON.stringify(ports(zero)))).toEqual([{ port: 0, protocol: 'TCP', name: 'z' }]);
  });

  it('matches two float64 keys with each other', () => {
    const out = applyStrategicMergePatch(svc(), wire('{"spec":{"ports":[{"port":80.0,"name":"a"},{"port":8e1,"protocol":"UDP"}]}}'), svcSchema) as Obj;
    expect(ports(out)).toEqual([
      { port: 80, name: 'a', protocol: 'UDP' },
      { port: 80, protocol: 'TCP', targetPort: 80 },
    ]);
  });

  it('deletes nothing with `$patch: delete` on a key written 80.0', () => {
    const out = applyStrategicMergePatch(svc(), wire('{"spec":{"ports":[{"port":80.0,"$patch":"delete"}]}}'), svcSchema) as Obj;
    expect(ports(out)).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    const deleted = applyStrategicMergePatch(svc(), wire('{"spec":{"ports":[{"port":80,"$patch":"delete"}]}}'), svcSchema) as Obj;
    expect(ports(deleted)).toEqual([]);
  });

  it('fails a `$setElementOrder` list whose key is an int64 where the patch list has the float64', () => {
    const e = (() => {
      try {
        applyStrategicMergePatch(svc(), wire('{"spec":{"$setElementOrder/ports":[{"port":80}],"ports":[{"port":80.0,"protocol":"TCP"}]}}'), svcSchema);
      } catch (err) {
        return err as PatchError;
      }
      throw new Error('patch unexpectedly applied');
    })();
    expect(e).toBeInstanceOf(PatchError);
    expect(e.toStatus()).toMatchObject({
      code: 500,
      message: "The order in patch list:\n[map[port:80 protocol:TCP]]\n doesn't match $setElementOrder list:\n[map[port:80]]\n",
    });
    const both = applyStrategicMergePatch(
      svc(),
      wire('{"spec":{"$setElementOrder/ports":[{"port":80.0},{"port":80}],"ports":[{"port":80.0,"protocol":"UDP"}]}}'),
      svcSchema,
    ) as Obj;
    expect(ports(both)).toEqual([
      { port: 80, protocol: 'UDP' },
      { port: 80, protocol: 'TCP', targetPort: 80 },
    ]);
  });

  it('takes an in-process number for what JSON.stringify writes (80.0 is 80)', () => {
    const out = smp(svc(), { spec: { ports: [{ port: 80.0, name: 'x' }] } }, svcSchema);
    expect(ports(out)).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80, name: 'x' }]);
  });
});

describe('hostile input', () => {
  it('never modifies its inputs', () => {
    const original = deepFreeze(pod());
    const patch = deepFreeze({
      metadata: { labels: { x: null }, '$deleteFromPrimitiveList/finalizers': ['a'] },
      spec: { containers: [{ name: 'a', env: [{ name: 'E1', $patch: 'delete' }] }, { name: 'n' }], volumes: [{ name: 'v', $retainKeys: ['name'] }] },
    });
    expect(() => applyStrategicMergePatch(original, patch, podSchema)).not.toThrow();
  });

  it('keeps __proto__ as an ordinary key', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true},"metadata":{"labels":{"__proto__":"x"}}}') as unknown;
    const out = smp(pod(), patch);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(out.metadata.labels, '__proto__')).toBe(true);
    expect(({} as Obj).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('rejects patches nested deeper than 10000 and handles deep ones', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 9_990; i++) deep = { a: deep };
    const out = smp(pod(), { spec: { bogus: deep } });
    expect(out.spec.bogus).toBeTypeOf('object');
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(fail(pod(), { spec: { bogus: deep } }).toStatus()).toEqual({ code: 400, reason: 'BadRequest', message: 'invalid JSON patch' });
  });

  it('merges large lists quickly', () => {
    const n = 5000;
    const p = pod();
    p.spec.containers = Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image: 'old' }));
    const order = Array.from({ length: 2 * n }, (_, i) => ({ name: `c${2 * n - 1 - i}` }));
    const patchList = Array.from({ length: n }, (_, i) => ({ name: `c${2 * n - 1 - 2 * i}`, image: 'new' }));
    const start = Date.now();
    const out = smp(p, { spec: { '$setElementOrder/containers': order, containers: patchList } });
    expect(Date.now() - start).toBeLessThan(5000);
    const exists = (name: string): boolean => Number(name.slice(1)) < n || Number(name.slice(1)) % 2 === 1;
    expect(names(out.spec.containers)).toEqual(order.map((o) => o.name).filter(exists));
    expect(out.spec.containers.find((c: Obj) => c.name === 'c1').image).toBe('new');
    expect(out.spec.containers.find((c: Obj) => c.name === 'c2').image).toBe('old');
  });

  it('only ever fails with PatchError on arbitrary patches', () => {
    const key = fc.constantFrom(
      'metadata',
      'spec',
      'labels',
      'finalizers',
      'containers',
      'name',
      'image',
      'env',
      'volumes',
      '$patch',
      '$retainKeys',
      '$setElementOrder/containers',
      '$deleteFromPrimitiveList/finalizers',
      '$setElementOrder/finalizers',
      '__proto__',
      'tolerations',
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { maxDepth: 4 },
        fc.constantFrom(null, 'a', 'b', 'delete', 'replace', 'merge', 1, true),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, (patch) => {
        try {
          applyStrategicMergePatch(pod(), patch, podSchema);
        } catch (e) {
          expect(e).toBeInstanceOf(PatchError);
        }
        expect(({} as Obj).polluted).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });
});

function structuralWith(field: StructuralNode): StructuralNode {
  return { type: 'object', id: 'test.Thing', properties: new Map([['m', field]]), required: new Set() };
}
