import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/util/json-clone.js';

describe('cloneJson', () => {
  it('copies `__proto__`, `constructor` and `toString` keys as ordinary keys', () => {
    const input = JSON.parse('{"data":{"__proto__":"x","constructor":"y","toString":"z"},"l":[{"__proto__":{"a":1}}]}') as Record<string, unknown>;
    const out = cloneJson(input);
    expect(JSON.stringify(out)).toBe(JSON.stringify(input));
    expect(Object.keys(out.data as object)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((out.l as object[])[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });
});

describe('cloneJson of a frozen stored value', () => {
  it('answers a mutable copy at every depth that shares nothing with its source', () => {
    const freeze = <T>(v: T): T => {
      if (v !== null && typeof v === 'object') {
        for (const child of Object.values(v)) freeze(child);
        Object.freeze(v);
      }
      return v;
    };
    const source = freeze({
      metadata: { name: 'a', labels: { x: '1' }, managedFields: [{ fieldsV1: { 'f:data': {} } }] },
      data: { k: 'v' },
      n: null,
      list: [[1], { b: true }],
    });
    const out = cloneJson(source);
    expect(out).toEqual(source);
    out.metadata.labels.x = '2';
    out.metadata.managedFields[0]!.fieldsV1['f:data'] = { changed: true } as never;
    (out.list[0] as number[]).push(2);
    out.data.k = 'w';
    expect(source.metadata.labels.x).toBe('1');
    expect(source.metadata.managedFields[0]!.fieldsV1['f:data']).toEqual({});
    expect(source.list[0]).toEqual([1]);
    expect(source.data.k).toBe('v');
    for (const copy of [out, out.metadata, out.metadata.labels, out.list, out.list[1]]) expect(Object.isFrozen(copy)).toBe(false);
  });
});

describe('cloneJson of any JSON value', () => {
  it('answers a value equal to its JSON round trip, with the same key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = cloneJson(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        expect(copy).toEqual(value);
      }),
      { numRuns: 500 },
    );
  });
});
