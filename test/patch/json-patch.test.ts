import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import {
  applyJsonPatch,
  GENERIC_UNPROCESSABLE_MESSAGE,
  jsonPatchUnknownFields,
  PANIC_MESSAGE,
  PatchError,
  type JsonPatchOptions,
} from '../../src/patch/index.js';
import { parseJson } from '../../src/codec/json.js';

// Expected texts are evanphx/json-patch v4.13.0 (gopkg.in/evanphx/json-patch.v4, patch.go) and
// k8s.io/apiserver pkg/endpoints/handlers/patch.go (applyJSPatch).

function fail(doc: unknown, patch: unknown, options?: JsonPatchOptions): PatchError {
  try {
    applyJsonPatch(doc, patch, options);
  } catch (e) {
    expect(e).toBeInstanceOf(PatchError);
    return e as PatchError;
  }
  throw new Error('patch unexpectedly applied');
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    Object.values(v).forEach(deepFreeze);
    Object.freeze(v);
  }
  return v;
}

const pod = () =>
  deepFreeze({
    metadata: { name: 'p', labels: { app: 'web' }, finalizers: ['a', 'b'] },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });

describe('applyJsonPatch: RFC 6902 operations', () => {
  it('adds, removes, replaces, moves, copies and tests', () => {
    const out = applyJsonPatch(pod(), [
      { op: 'test', path: '/metadata/name', value: 'p' },
      { op: 'add', path: '/metadata/labels/tier', value: 'front' },
      { op: 'remove', path: '/metadata/labels/app' },
      { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.27' },
      { op: 'copy', from: '/spec/containers/0', path: '/spec/containers/-' },
      { op: 'replace', path: '/spec/containers/1/name', value: 'd' },
      { op: 'move', from: '/metadata/finalizers/0', path: '/metadata/finalizers/-' },
      { op: 'test', path: '/metadata/finalizers', value: ['b', 'a'] },
    ]);
    expect(out).toEqual({
      metadata: { name: 'p', labels: { tier: 'front' }, finalizers: ['b', 'a'] },
      spec: {
        containers: [
          { name: 'c', image: 'nginx:1.27' },
          { name: 'd', image: 'nginx:1.27' },
        ],
      },
    });
  });

  it('never touches its inputs and copies values it inserts', () => {
    const value = { x: [1] };
    const patch = [
      { op: 'add', path: '/v', value },
      { op: 'add', path: '/v/x/-', value: 2 },
    ];
    const out = applyJsonPatch(pod(), patch) as { v: unknown };
    expect(out.v).toEqual({ x: [1, 2] });
    expect(value).toEqual({ x: [1] });
  });

  it('is atomic: a failing operation applies nothing', () => {
    const doc = { a: 1 };
    const e = fail(doc, [
      { op: 'add', path: '/b', value: 2 },
      { op: 'test', path: '/a', value: 2 },
    ]);
    expect(e.kind).toBe('test-failed');
    expect(doc).toEqual({ a: 1 });
  });

  it('returns the document unchanged for a null patch and an empty one', () => {
    expect(applyJsonPatch({ a: 1 }, null)).toEqual({ a: 1 });
    expect(applyJsonPatch({ a: 1 }, [])).toEqual({ a: 1 });
  });

  it('unescapes ~1 and ~0 in reference tokens', () => {
    const doc = { metadata: { annotations: { 'example.com/a~b': 'x' } } };
    const out = applyJsonPatch(doc, [{ op: 'replace', path: '/metadata/annotations/example.com~1a~0b', value: 'y' }]);
    expect(out).toEqual({ metadata: { annotations: { 'example.com/a~b': 'y' } } });
  });
});

describe('applyJsonPatch: evanphx/json-patch v4 behaviour Kubernetes has', () => {
  it('replace of a missing object member adds it', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }])).toEqual({ a: 1, b: 2 });
  });

  it('add and replace without a value store null', () => {
    expect(
      applyJsonPatch({ a: 1 }, [
        { op: 'add', path: '/b' },
        { op: 'replace', path: '/a' },
      ]),
    ).toEqual({ a: null, b: null });
  });

  it('test without a value, or with null, passes on a missing or null member', () => {
    expect(
      applyJsonPatch({ a: null }, [
        { op: 'test', path: '/missing' },
        { op: 'test', path: '/a', value: null },
      ]),
    ).toEqual({ a: null });
    expect(fail({ a: 1 }, [{ op: 'test', path: '/a' }]).message).toBe('testing value /a failed: test failed');
    expect(fail({ a: 1 }, [{ op: 'test', path: '/a', value: null }]).message).toBe('testing value /a failed: test failed');
  });

  it('copy from a missing member copies null', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'copy', from: '/nope', path: '/b' }])).toEqual({ a: 1, b: null });
  });

  it('counts negative indexes from the end and parses indexes with strconv.Atoi', () => {
    const doc = { l: ['a', 'b', 'c'] };
    expect(applyJsonPatch(doc, [{ op: 'remove', path: '/l/-1' }])).toEqual({ l: ['a', 'b'] });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/l/-1', value: 'z' }])).toEqual({ l: ['a', 'b', 'c', 'z'] });
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '/l/-3', value: 'z' }])).toEqual({ l: ['z', 'b', 'c'] });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/l/+1', value: 'z' }])).toEqual({ l: ['a', 'z', 'b', 'c'] });
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '/l/01', value: 'z' }])).toEqual({ l: ['a', 'z', 'c'] });
    expect(applyJsonPatch(doc, [{ op: 'test', path: '/l/-1', value: 'c' }])).toEqual(doc);
  });

  it('ignores the first path segment', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'add', path: 'x/b', value: 2 }])).toEqual({ a: 1, b: 2 });
  });

  it('replaces the whole document at the root path and tests it', () => {
    expect(
      applyJsonPatch({ a: 1 }, [
        { op: 'replace', path: '', value: { b: 2 } },
        { op: 'test', path: '', value: { b: 2 } },
      ]),
    ).toEqual({ b: 2 });
  });
});

describe('applyJsonPatch: test compares bytes, as evanphx does', () => {
  /** A patch as the HTTP decoder hands it over: parsed, with the raw text of unusual scalars. */
  const wire = (text: string): unknown => parseJson(text, { rawScalars: true }).value;
  const passes = (doc: unknown, text: string): boolean => {
    try {
      applyJsonPatch(doc, wire(text));
      return true;
    } catch (e) {
      expect(e).toBeInstanceOf(PatchError);
      expect((e as PatchError).kind).toBe('test-failed');
      return false;
    }
  };
  const doc = deepFreeze({ data: { lt: 'a<b', amp: 'x&y', ls: 'p\u2028q', a: 'a' }, n: 80, f: 1.5, l: [80, 'a'] });

  it("compares a stored string with Go's HTML-safe encoding of it", () => {
    expect(passes(doc, '[{"op":"test","path":"/data/lt","value":"a<b"}]')).toBe(false);
    expect(passes(doc, '[{"op":"test","path":"/data/lt","value":"a\\u003cb"}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/data/amp","value":"x&y"}]')).toBe(false);
    expect(passes(doc, '[{"op":"test","path":"/data/amp","value":"x\\u0026y"}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/data/ls","value":"p\u2028q"}]')).toBe(false);
    expect(passes(doc, '[{"op":"test","path":"/data/ls","value":"p\\u2028q"}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/data/a","value":"a"}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/data/a","value":"\\u0061"}]')).toBe(false);
  });

  it('compares numbers as written: 80.0 and 8e1 are not 80, 1.50 is not 1.5', () => {
    expect(passes(doc, '[{"op":"test","path":"/n","value":80}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/n","value":80.0}]')).toBe(false);
    expect(passes(doc, '[{"op":"test","path":"/n","value":8e1}]')).toBe(false);
    expect(passes(doc, '[{"op":"test","path":"/f","value":1.5}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/f","value":1.50}]')).toBe(false);
    expect(passes(doc, '[{"op":"test","path":"/l","value":[80,"a"]}]')).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"/l","value":[80.0,"a"]}]')).toBe(false);
    expect(
      passes(doc, '[{"op":"test","path":"","value":{"data":{"lt":"a\\u003cb","amp":"x\\u0026y","ls":"p\\u2028q","a":"a"},"n":80,"f":1.5,"l":[80,"a"]}}]'),
    ).toBe(true);
    expect(passes(doc, '[{"op":"test","path":"","value":{"data":{"lt":"a<b","amp":"x\\u0026y","ls":"p\\u2028q","a":"a"},"n":80,"f":1.5,"l":[80,"a"]}}]')).toBe(
      false,
    );
  });

  it('ignores blanks between tokens, which Go compacts away', () => {
    expect(passes(doc, '[{"op":"test","path":"/l","value":[ 80 , "a" ]}]')).toBe(true);
  });

  it("compares values an earlier operation put in place with the patch's own text", () => {
    expect(passes(doc, '[{"op":"add","path":"/data/k","value":"a<b"},{"op":"test","path":"/data/k","value":"a<b"}]')).toBe(true);
    expect(passes(doc, '[{"op":"add","path":"/data/k","value":"a<b"},{"op":"test","path":"/data/k","value":"a\\u003cb"}]')).toBe(false);
    expect(passes(doc, '[{"op":"replace","path":"/n","value":80.0},{"op":"test","path":"/n","value":80.0}]')).toBe(true);
    expect(passes(doc, '[{"op":"replace","path":"/n","value":80.0},{"op":"test","path":"/n","value":80}]')).toBe(false);
    expect(passes(doc, '[{"op":"add","path":"/o","value":{"x":[1.0, "<"]}},{"op":"test","path":"/o/x","value":[1.0,"<"]}]')).toBe(true);
    expect(passes(doc, '[{"op":"add","path":"/o","value":{"x":[1.0]}},{"op":"test","path":"/o","value":{"x":[1]}}]')).toBe(false);
    expect(passes(doc, '[{"op":"replace","path":"","value":{"v":"<"}},{"op":"test","path":"/v","value":"<"}]')).toBe(true);
  });

  it('keeps the bytes of moved values and HTML-escapes copied ones, as Go re-marshals a copy', () => {
    const base = '[{"op":"add","path":"/data/k","value":"a<b"},';
    expect(passes(doc, base + '{"op":"move","from":"/data/k","path":"/m"},{"op":"test","path":"/m","value":"a<b"}]')).toBe(true);
    expect(passes(doc, base + '{"op":"copy","from":"/data/k","path":"/c"},{"op":"test","path":"/c","value":"a<b"}]')).toBe(false);
    expect(passes(doc, base + '{"op":"copy","from":"/data/k","path":"/c"},{"op":"test","path":"/c","value":"a\\u003cb"}]')).toBe(true);
    expect(passes(doc, base + '{"op":"copy","from":"/data/k","path":"/c"},{"op":"test","path":"/data/k","value":"a<b"}]')).toBe(true);
    // Escapes other than the HTML-safe ones, and number spellings, survive a copy.
    expect(passes(doc, '[{"op":"add","path":"/x","value":[1.0]},{"op":"copy","from":"/x","path":"/y"},{"op":"test","path":"/y/0","value":1.0}]')).toBe(true);
  });

  it('follows array elements as operations shift them', () => {
    const ops = '[{"op":"add","path":"/l/0","value":80.0},{"op":"add","path":"/l/0","value":"z"},';
    expect(passes(doc, ops + '{"op":"test","path":"/l","value":["z",80.0,80,"a"]}]')).toBe(true);
    expect(passes(doc, ops + '{"op":"remove","path":"/l/0"},{"op":"test","path":"/l/0","value":80.0}]')).toBe(true);
    expect(passes(doc, ops + '{"op":"remove","path":"/l/1"},{"op":"test","path":"/l","value":["z",80,"a"]}]')).toBe(true);
    expect(passes(doc, ops + '{"op":"remove","path":"/l/1"},{"op":"test","path":"/l/1","value":80.0}]')).toBe(false);
  });

  it('takes a value built in process for the text JSON.stringify writes', () => {
    expect(() => applyJsonPatch(doc, [{ op: 'test', path: '/data/lt', value: 'a<b' }])).toThrow(PatchError);
    expect(
      applyJsonPatch(doc, [
        { op: 'test', path: '/n', value: 80 },
        { op: 'test', path: '/data/a', value: 'a' },
      ]),
    ).toEqual(doc);
    expect(
      applyJsonPatch(doc, [
        { op: 'add', path: '/k', value: 'a<b' },
        { op: 'test', path: '/k', value: 'a<b' },
      ]),
    ).toMatchObject({ k: 'a<b' });
  });
});

describe('applyJsonPatch: failures', () => {
  const cases: Array<[string, unknown, unknown, string]> = [
    ['failing test', { a: 1 }, [{ op: 'test', path: '/a', value: 2 }], 'testing value /a failed: test failed'],
    [
      'add under a missing parent',
      { a: 1 },
      [{ op: 'add', path: '/x/y', value: 1 }],
      'add operation does not apply: doc is missing path: "/x/y": missing value',
    ],
    ['add at the root', { a: 1 }, [{ op: 'add', path: '', value: {} }], 'add operation does not apply: doc is missing path: "": missing value'],
    ['add without a path', { a: 1 }, [{ op: 'add', value: 1 }], 'add operation failed to decode path: missing value'],
    [
      'add past the end',
      { l: [1] },
      [{ op: 'add', path: '/l/2', value: 1 }],
      "error in add for path: '/l/2': Unable to access invalid index: 2: invalid index referenced",
    ],
    [
      'add at a non-numeric index',
      { l: [1] },
      [{ op: 'add', path: '/l/x', value: 1 }],
      `error in add for path: '/l/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    ['remove a missing member', { a: 1 }, [{ op: 'remove', path: '/b' }], "error in remove for path: '/b': Unable to remove nonexistent key: b: missing value"],
    [
      'remove past the end',
      { l: [1] },
      [{ op: 'remove', path: '/l/1' }],
      "error in remove for path: '/l/1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      'remove a too negative index',
      { l: [1] },
      [{ op: 'remove', path: '/l/-2' }],
      "error in remove for path: '/l/-2': Unable to access invalid index: -2: invalid index referenced",
    ],
    [
      'remove at an index out of int64 range',
      { l: [1] },
      [{ op: 'remove', path: '/l/99999999999999999999' }],
      `error in remove for path: '/l/99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
    ],
    ['remove under a scalar', { a: 1 }, [{ op: 'remove', path: '/a/b' }], 'remove operation does not apply: doc is missing path: "/a/b": missing value'],
    [
      'replace past the end',
      { l: [1] },
      [{ op: 'replace', path: '/l/1', value: 2 }],
      'replace operation does not apply: doc is missing key: /l/1: missing value',
    ],
    ['replace without a path', { a: 1 }, [{ op: 'replace', value: 2 }], 'replace operation failed to decode path: operation missing path field: missing value'],
    ['replace the root with a scalar', { a: 1 }, [{ op: 'replace', path: '', value: 5 }], 'replace operation value must be object or array: %!w(<nil>)'],
    [
      'replace under a missing parent',
      { a: 1 },
      [{ op: 'replace', path: '/x/y', value: 1 }],
      'replace operation does not apply: doc is missing path: /x/y: missing value',
    ],
    [
      'move from a missing member',
      { a: 1 },
      [{ op: 'move', from: '/b', path: '/c' }],
      "error in move for path: 'b': Unable to remove nonexistent key: b: missing value",
    ],
    ['move without from', { a: 1 }, [{ op: 'move', path: '/c' }], 'move operation failed to decode from: operation, missing from field: missing value'],
    [
      'move from a missing parent',
      { a: 1 },
      [{ op: 'move', from: '/x/y', path: '/c' }],
      'move operation does not apply: doc is missing from path: /x/y: missing value',
    ],
    [
      'move into itself',
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/b' }],
      'move operation does not apply: doc is missing destination path: /a/b: missing value',
    ],
    ['move without a path', { a: 1 }, [{ op: 'move', from: '/a' }], 'move operation failed to decode path: operation missing path field: missing value'],
    ['copy without from', { a: 1 }, [{ op: 'copy', path: '/b' }], 'copy operation failed to decode from: operation, missing from field: missing value'],
    [
      'copy from a missing parent',
      { a: 1 },
      [{ op: 'copy', from: '/x/y', path: '/b' }],
      'copy operation does not apply: doc is missing from path: /x/y: missing value',
    ],
    [
      'copy from past the end',
      { l: [1] },
      [{ op: 'copy', from: '/l/3', path: '/b' }],
      "error in copy for from: '/l/3': Unable to access invalid index: 3: invalid index referenced",
    ],
    ['copy without a path', { a: 1 }, [{ op: 'copy', from: '/a' }], 'copy operation failed to decode path: missing value'],
    [
      'copy to a missing parent',
      { a: 1 },
      [{ op: 'copy', from: '/a', path: '/x/y' }],
      'copy operation does not apply: doc is missing destination path: /x/y: missing value',
    ],
    [
      'copy past the end',
      { a: 1, l: [] },
      [{ op: 'copy', from: '/a', path: '/l/1' }],
      'error while adding value during copy: Unable to access invalid index: 1: invalid index referenced',
    ],
    ['test under a missing parent', { a: 1 }, [{ op: 'test', path: '/x/y', value: 1 }], 'test operation does not apply: is missing path: /x/y: missing value'],
    ['test a bad index', { l: [1] }, [{ op: 'test', path: '/l/x', value: 1 }], `error in test for path: '/l/x': strconv.Atoi: parsing "x": invalid syntax`],
    ['test without a path', { a: 1 }, [{ op: 'test', value: 1 }], 'test operation failed to decode path: operation missing path field: missing value'],
    ['an unknown op', { a: 1 }, [{ op: 'merge', path: '/a' }], 'Unexpected kind: merge'],
    ['a missing op', { a: 1 }, [{ path: '/a' }], 'Unexpected kind: unknown'],
    ['a null operation', { a: 1 }, [null], 'Unexpected kind: unknown'],
    ['an upper-case op', { a: 1 }, [{ op: 'ADD', path: '/a', value: 1 }], 'Unexpected kind: ADD'],
  ];
  it.each(cases)('%s: 422 with the generic message', (_name, doc, patch, message) => {
    const e = fail(doc, patch);
    expect(e.message).toBe(message);
    expect(e.kind === 'apply-failed' || e.kind === 'test-failed').toBe(true);
    expect(e.toStatus()).toEqual({ code: 422, reason: 'Invalid', message: GENERIC_UNPROCESSABLE_MESSAGE, details: {} });
  });

  it('reports a failing test as test-failed', () => {
    expect(fail({ a: [1, { b: 2 }] }, [{ op: 'test', path: '/a', value: [1, { b: 3 }] }]).kind).toBe('test-failed');
  });

  it('limits what copy operations may add (3 MiB by default)', () => {
    // Each copy adds the JSON size of the value: 1 MiB including the quotes.
    const big = 'x'.repeat(1024 * 1024 - 2);
    const patch = [1, 2, 3, 4].map((i) => ({ op: 'copy', from: '/a', path: `/c${i}` }));
    const e = fail({ a: big }, patch);
    expect(e.message).toBe('Unable to complete the copy, the accumulated size increase of copy is 4194304, exceeding the limit 3145728');
    expect(fail({ a: '<' }, patch, { maxCopyBytes: 16 }).message).toBe(
      'Unable to complete the copy, the accumulated size increase of copy is 24, exceeding the limit 16',
    );
    expect(Object.keys(applyJsonPatch({ a: big }, patch.slice(0, 3)) as object)).toHaveLength(4);
    expect(fail({ a: 'abc' }, patch, { maxCopyBytes: 6 }).message).toBe(
      'Unable to complete the copy, the accumulated size increase of copy is 10, exceeding the limit 6',
    );
  });

  it('panics (500, plain text) where evanphx dereferences nil', () => {
    for (const patch of [[{ op: 'replace', path: '' }], [{ op: 'test', path: '' }], [{ op: 'test', path: '/a', value: [null] }]]) {
      const e = fail({ a: [null] }, patch);
      expect(e.kind).toBe('panic');
      expect(e.toStatus()).toEqual({ code: 500, message: PANIC_MESSAGE, plainText: true });
    }
  });
});

describe('applyJsonPatch: decoding the body', () => {
  it('rejects what does not decode as []jsonPatchOp (fieldValidation Warn/Strict, the default)', () => {
    const cases: Array<[unknown, string]> = [
      [{ op: 'add' }, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
      ['x', 'error decoding patch: json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp'],
      [[1], 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
      [[[]], 'error decoding patch: json: cannot unmarshal array into Go value of type handlers.jsonPatchOp'],
      [[{ op: 1, path: '/a' }], 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
      [[{ op: 'add', path: true }], 'error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.path of type string'],
      [[{ op: 'move', from: {}, path: '/a' }], 'error decoding patch: json: cannot unmarshal object into Go struct field jsonPatchOp.from of type string'],
    ];
    for (const [patch, message] of cases) {
      for (const fieldValidation of [undefined, 'Warn', 'Strict'] as const) {
        const e = fail({}, patch, { fieldValidation });
        expect(e.message).toBe(message);
        expect(e.toStatus()).toEqual({ code: 400, reason: 'BadRequest', message });
      }
    }
  });

  it('rejects what does not decode as jsonpatch.Patch (fieldValidation Ignore)', () => {
    const ignore = { fieldValidation: 'Ignore' } as const;
    expect(fail({}, { op: 'add' }, ignore).message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(fail({}, [true], ignore).message).toBe('json: cannot unmarshal bool into Go value of type jsonpatch.Operation');
    // Member types are only checked when the operation runs.
    expect(fail({}, [{ op: 1 }], ignore).toStatus()?.code).toBe(422);
    expect(fail({ a: 1 }, [{ op: 'replace', path: 5, value: 2 }], ignore).message).toBe(
      'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string',
    );
  });

  it('rejects more than 10000 operations with 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 }));
    const e = fail({ a: 1 }, ops);
    expect(e.toStatus()).toEqual({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
    expect(applyJsonPatch({ a: 1 }, ops.slice(1))).toEqual({ a: 1 });
  });

  it('lists unknown operation members as strict decoding errors', () => {
    expect(jsonPatchUnknownFields([{ op: 'add', path: '/a', value: 1, extra: 1 }, null, { Op: 'x' }])).toEqual([
      'json patch unknown field "[0].extra"',
      'json patch unknown field "[2].Op"',
    ]);
    expect(jsonPatchUnknownFields({})).toEqual([]);
  });
});

describe('applyJsonPatch: hostile input', () => {
  it('rejects patches nested deeper than Go accepts (400 invalid JSON patch)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const e = fail({}, [{ op: 'add', path: '/a', value: deep }]);
    expect(e.toStatus()).toEqual({ code: 400, reason: 'BadRequest', message: 'invalid JSON patch' });
  });

  it('handles values nested almost as deep as allowed', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 9_990; i++) deep = { a: deep };
    const out = applyJsonPatch({}, [
      { op: 'add', path: '/v', value: deep },
      { op: 'test', path: '/v', value: deep },
      { op: 'copy', from: '/v', path: '/w' },
    ]) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['v', 'w']);
  });

  it('writes __proto__ as an own member and never reaches prototypes', () => {
    const out = applyJsonPatch({}, [
      { op: 'add', path: '/__proto__', value: { polluted: true } },
      { op: 'add', path: '/__proto__/x', value: 1 },
    ]) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse('{"__proto__":{"polluted":true,"x":1}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(fail({}, [{ op: 'add', path: '/constructor/prototype/polluted', value: 1 }]).message).toBe(
      'add operation does not apply: doc is missing path: "/constructor/prototype/polluted": missing value',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('applyJsonPatch: properties', () => {
  const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  const object = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 6 });

  it('applying the RFC patch between two documents yields the second', () => {
    fc.assert(
      fc.property(object, object, (a, b) => {
        const ops = jsonpatch.compare(a, b);
        const before = JSON.stringify(a);
        expect(applyJsonPatch(a, ops)).toEqual(b);
        expect(JSON.stringify(a)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws anything but PatchError on arbitrary operations', () => {
    const op = fc.record(
      {
        op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'nope'),
        path: fc.oneof(fc.constantFrom('', '/', '/a', '/a/0', '/a/-', '/a/-1', '/b/c', 'a/b', '/__proto__'), fc.string()),
        from: fc.constantFrom('/a', '/a/0', '/b', '', '/x/y'),
        value: json,
      },
      { requiredKeys: ['op'] },
    );
    fc.assert(
      fc.property(object, fc.array(op, { maxLength: 6 }), (doc, ops) => {
        try {
          applyJsonPatch(doc, ops);
        } catch (e) {
          expect(e).toBeInstanceOf(PatchError);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
