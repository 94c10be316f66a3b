import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonSyntaxError, parseJson } from '../../src/codec/json.js';

describe('parseJson', () => {
  it('reports duplicate keys with Kubernetes field paths; the last value wins', () => {
    const r = parseJson('{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"spec":{"containers":[{"name":"c"},{"name":"d","image":"i","image":"j"}]},"kind":"Pod","kind":"Pod"}');
    expect(r.duplicateFields).toEqual(['metadata.name', 'metadata.labels.x', 'spec.containers[1].image', 'kind']);
    expect((r.value as { metadata: { name: string } }).metadata.name).toBe('b');
  });

  it('handles escapes in keys and strings with braces', () => {
    const r = parseJson('{"a\\"b":"{[,]}","a\\"b":1,"c":["x,y",{"d":1,"d":2}]}');
    expect(r.duplicateFields).toEqual(['a"b', 'c[1].d']);
  });

  it('finds no duplicates in ordinary documents', () => {
    expect(parseJson('[{"a":1},{"a":2}]').duplicateFields).toEqual([]);
    expect(parseJson('"x"').duplicateFields).toEqual([]);
  });

  it('throws JsonSyntaxError for malformed text', () => {
    for (const t of ['', '{', '{"a":}', '[1,]', 'nul', '{"a":1}}']) expect(() => parseJson(t)).toThrow(JsonSyntaxError);
  });

  it('survives 10,000 levels of nesting', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(parseJson(deep).duplicateFields).toEqual([]);
    const deepObj = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    expect(parseJson(deepObj).duplicateFields).toEqual([]);
  });

  it('agrees with JSON.parse on any JSON value and never reports duplicates for stringified objects', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        const r = parseJson(text);
        expect(r.value).toEqual(JSON.parse(text));
        expect(r.duplicateFields).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('throws only JsonSyntaxError for random text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (t) => {
        try {
          parseJson(t);
        } catch (e) {
          expect(e).toBeInstanceOf(JsonSyntaxError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
