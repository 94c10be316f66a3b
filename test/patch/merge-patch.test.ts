import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyMergePatch, createMergePatch, PatchError, type MergePatchOptions } from '../../src/patch/index.js';

// Kubernetes applies merge patches with gopkg.in/evanphx/json-patch.v4 MergePatch (merge.go) from
// k8s.io/apiserver pkg/endpoints/handlers/patch.go; under fieldValidation Warn (the default) or
// Strict the body is first decoded strictly into map[string]any.

function fail(doc: unknown, patch: unknown, options?: MergePatchOptions): PatchError {
  try {
    applyMergePatch(doc, patch, options);
  } catch (e) {
    expect(e).toBeInstanceOf(PatchError);
    return e as PatchError;
  }
  throw new Error('patch unexpectedly applied');
}

const ignore = { fieldValidation: 'Ignore' } as const;

describe('applyMergePatch: RFC 7386 test vectors (appendix A) as Kubernetes answers them', () => {
  const vectors: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(vectors)('%j + %j', (doc, patch, expected) => {
    expect(applyMergePatch(doc, patch)).toEqual(expected);
  });

  it('replaces a non-object document with the patch, nulls pruned', () => {
    expect(applyMergePatch([1, 2], { a: 'b', c: null })).toEqual({ a: 'b' });
    expect(applyMergePatch('x', { a: { b: null } })).toEqual({ a: {} });
  });

  it('takes an array patch as the whole document (fieldValidation Ignore)', () => {
    expect(applyMergePatch({ a: 'b' }, ['c'], ignore)).toEqual(['c']);
    expect(applyMergePatch(['a', 'b'], ['c', 'd'], ignore)).toEqual(['c', 'd']);
    expect(applyMergePatch({}, [{ a: null, b: 1 }, null], ignore)).toEqual([{ b: 1 }, null]);
  });
});

describe('applyMergePatch: evanphx details', () => {
  it('prunes nulls from values added where the document has no object', () => {
    expect(applyMergePatch({ a: 1 }, { a: [{ x: null, y: 1 }, null] })).toEqual({ a: [{ y: 1 }, null] });
    expect(applyMergePatch({ a: null }, { a: { x: null, y: { z: null } } })).toEqual({ a: { y: {} } });
  });

  it('keeps nulls in a non-object value that replaces an object', () => {
    expect(applyMergePatch({ a: { x: 1 } }, { a: [{ x: null }] })).toEqual({ a: [{ x: null }] });
  });

  it('patches a Kubernetes object: labels merge, lists replace, null deletes', () => {
    const pod = {
      metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['a', 'b'] },
      spec: { containers: [{ name: 'c', image: 'nginx' }], nodeSelector: { disk: 'ssd' } },
    };
    const out = applyMergePatch(pod, {
      metadata: { labels: { tier: null, env: 'prod' }, finalizers: ['c'] },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], nodeSelector: null },
    });
    expect(out).toEqual({
      metadata: { name: 'p', labels: { app: 'web', env: 'prod' }, finalizers: ['c'] },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
    });
    expect(pod.metadata.labels).toEqual({ app: 'web', tier: 'front' });
  });
});

describe('applyMergePatch: failures', () => {
  it('rejects a null or scalar patch with 400 Invalid JSON Patch', () => {
    for (const patch of [null, 'bar', 5, true]) {
      const e = fail({ a: 'foo' }, patch, ignore);
      expect(e.toStatus()).toEqual({ code: 400, reason: 'BadRequest', message: 'Invalid JSON Patch' });
    }
    expect(fail({ a: 'foo' }, null).message).toBe('Invalid JSON Patch');
  });

  it('rejects non-object bodies while decoding under Warn (the default) and Strict', () => {
    const cases: Array<[unknown, string]> = [
      [['c'], 'array'],
      ['bar', 'string'],
      [5, 'number'],
      [false, 'bool'],
    ];
    for (const [patch, kind] of cases) {
      for (const fieldValidation of [undefined, 'Warn', 'Strict'] as const) {
        expect(fail({ a: 1 }, patch, { fieldValidation }).toStatus()).toEqual({
          code: 400,
          reason: 'BadRequest',
          message: `error decoding patch: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
        });
      }
    }
  });
});

describe('applyMergePatch: hostile input', () => {
  it('rejects patches nested deeper than 10000 with 400 invalid JSON patch', () => {
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(fail({}, deep).toStatus()).toEqual({ code: 400, reason: 'BadRequest', message: 'invalid JSON patch' });
  });

  it('merges deep documents without exhausting the stack', () => {
    let doc: unknown = { leaf: 1, gone: 2 };
    let patch: unknown = { gone: null, extra: { x: null } };
    for (let i = 0; i < 9_000; i++) {
      doc = { a: doc };
      patch = { a: patch };
    }
    let out = applyMergePatch(doc, patch) as Record<string, unknown>;
    for (let i = 0; i < 9_000; i++) out = out.a as Record<string, unknown>;
    expect(out).toEqual({ leaf: 1, extra: {} });
  });

  it('treats __proto__ as an ordinary member', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true},"a":{"__proto__":{"x":1}}}') as unknown;
    const out = applyMergePatch(JSON.parse('{"a":{"__proto__":{"y":2}}}'), patch) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe('{"a":{"__proto__":{"y":2,"x":1}},"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('createMergePatch', () => {
  it('lists changes, additions and removals; replaces arrays whole', () => {
    const original = { a: 1, b: { c: 1, d: [1, 2] }, e: 'x', f: { g: 1 }, same: { s: [1] } };
    const modified = { a: 2, b: { c: 1, d: [2] }, f: 'now a string', h: null, same: { s: [1] } };
    expect(createMergePatch(original, modified)).toEqual({ a: 2, b: { d: [2] }, e: null, f: 'now a string', h: null });
  });

  it('is empty for equal documents and treats null documents as empty', () => {
    expect(createMergePatch({ a: [{ b: 1 }] }, { a: [{ b: 1 }] })).toEqual({});
    expect(createMergePatch(null, { a: 1 })).toEqual({ a: 1 });
  });

  it('diffs arrays of documents element by element', () => {
    expect(createMergePatch([{ a: 1 }, { b: 1 }], [{ a: 2 }, { b: 1 }])).toEqual([{ a: 2 }, {}]);
  });

  it('fails like evanphx on mismatched documents', () => {
    const err = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return (e as PatchError).message;
      }
      return 'no error';
    };
    expect(err(() => createMergePatch([{}], {}))).toBe('Mismatched JSON Documents');
    expect(err(() => createMergePatch([{}], [{}, {}]))).toBe('Invalid JSON Document');
    expect(err(() => createMergePatch('x', {}))).toBe('Invalid JSON Document');
  });
});

describe('merge patch properties', () => {
  // Documents without nulls: a merge patch cannot set a member to null (null deletes).
  const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }), fc.boolean());
  const { doc } = fc.letrec((tie) => ({
    doc: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', '__proto__'), tie('value'), { maxKeys: 4 }),
    value: fc.oneof({ maxDepth: 3 }, scalar, fc.array(fc.oneof(scalar, tie('doc')), { maxLength: 3 }), tie('doc')),
  }));

  it('applying createMergePatch(original, modified) to original yields modified', () => {
    fc.assert(
      fc.property(doc, doc, (original, modified) => {
        const o = JSON.parse(JSON.stringify(original)) as unknown;
        const m = JSON.parse(JSON.stringify(modified)) as unknown;
        const patch = createMergePatch(o, m);
        expect(canonical(applyMergePatch(o, patch))).toBe(canonical(m));
        expect(canonical(o)).toBe(canonical(JSON.parse(JSON.stringify(original))));
      }),
      { numRuns: 400 },
    );
  });
});

/** JSON text with object keys sorted, so member order does not matter. */
function canonical(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort())
    Object.defineProperty(out, k, { value: sortKeys((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}
