import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonSyntaxError, parseJson } from '../../src/codec/json.js';
import { hasRawTexts, rawTextOf, writtenText } from '../../src/util/json-raw.js';

describe('parseJson', () => {
  it('reports duplicate keys with Kubernetes field paths; the last value wins', () => {
    const r = parseJson(
      '{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"spec":{"containers":[{"name":"c"},{"name":"d","image":"i","image":"j"}]},"kind":"Pod","kind":"Pod"}',
    );
    expect(r.duplicateFields).toEqual(['metadata.name', 'metadata.labels.x', 'spec.containers[1].image', 'kind']);
    expect((r.value as { metadata: { name: string } }).metadata.name).toBe('b');
  });

  it('handles escapes in keys and strings with braces', () => {
    const r = parseJson('{"a\\"b":"{[,]}","a\\"b":1,"c":["x,y",{"d":1,"d":2}]}');
    expect(r.duplicateFields).toEqual(['a"b', 'c[1].d']);
  });

  it('tells a key spelled with an escape from the same key spelled plainly as one key', () => {
    const r = parseJson('{"spec":{"a":1,"\\u0061":2},"list":[{},{"k\\\\":1,"k\\u005c":2}]}');
    expect(r.duplicateFields).toEqual(['spec.a', 'list[1].k\\']);
    expect(r.value).toEqual({ spec: { a: 2 }, list: [{}, { 'k\\': 2 }] });
  });

  it('finds a repeated member in an object of any size, whichever member repeats', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 60 }), fc.nat(), fc.nat(), (keys, which, where) => {
        const repeated = keys[which % keys.length]!;
        const members = keys.map((k, i) => `${JSON.stringify(k)}:${i}`);
        members.splice(where % (members.length + 1), 0, `${JSON.stringify(repeated)}:"again"`);
        const r = parseJson(`{"m":{${members.join(',')}}}`);
        expect(r.duplicateFields).toEqual([`m.${repeated}`]);
        expect(parseJson(`{"m":{${keys.map((k, i) => `${JSON.stringify(k)}:${i}`).join(',')}}}`).duplicateFields).toEqual([]);
      }),
    );
  });

  it('finds each member of a long object repeated at its end', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    for (const repeated of keys) {
      const text = `{${[...keys, repeated].map((k, i) => `"${k}":${i}`).join(',')}}`;
      expect(parseJson(text).duplicateFields).toEqual([repeated]);
    }
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

describe('parseJson with rawScalars', () => {
  const parse = (text: string) => parseJson(text, { rawScalars: true }).value as Record<string, unknown>;

  it('records the text of scalars JSON.stringify would spell differently, by holder and member', () => {
    const v = parse('{"a":80.0,"b":80,"c":"\\u0061","d":"a<b","e":[1e2,2,"\\/",-0],"f":{"g":1.50}}');
    expect(rawTextOf(v, 'a', 80)).toBe('80.0');
    expect(rawTextOf(v, 'b', 80)).toBeUndefined();
    expect(rawTextOf(v, 'c', 'a')).toBe('"\\u0061"');
    expect(rawTextOf(v, 'd', 'a<b')).toBeUndefined();
    const e = v.e as unknown[];
    expect([0, 1, 2, 3].map((i) => rawTextOf(e, i, e[i]))).toEqual(['1e2', undefined, '"\\/"', '-0']);
    expect(rawTextOf(v.f as object, 'g', 1.5)).toBe('1.50');
    expect(writtenText(v, 'a', 80)).toBe('80.0');
    expect(writtenText(v, 'b', 80)).toBe('80');
  });

  it('records nothing without the option, and nothing for ordinary documents', () => {
    const plain = parseJson('{"a":80.0}').value as object;
    expect(rawTextOf(plain, 'a', 80)).toBeUndefined();
    const v = parse('{"a":1,"b":"x","c":[true,null,-12,0.5,"y"]}');
    expect(hasRawTexts(v)).toBe(false);
    expect(hasRawTexts(v.c as object)).toBe(false);
  });

  it('keeps what the last of duplicate keys wrote, as Go does', () => {
    const v = parse('{"a":80.0,"a":80,"o":{"x":1.0,"y":2.0},"o":{"x":1},"p":{"x":1},"p":{"x":1.0}}');
    expect(rawTextOf(v, 'a', 80)).toBeUndefined();
    expect(rawTextOf(v.o as object, 'x', 1)).toBeUndefined();
    expect(rawTextOf(v.o as object, 'y', 2)).toBeUndefined();
    expect(rawTextOf(v.p as object, 'x', 1)).toBe('1.0');
  });

  it('ignores a record that no longer spells the value beside it', () => {
    const v = parse('{"a":80.0}');
    v.a = 81;
    expect(rawTextOf(v, 'a', 81)).toBeUndefined();
  });

  it('agrees with JSON.parse on any JSON value, spelled any way', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, spaced) => {
        const text = JSON.stringify(v, null, spaced ? 1 : undefined);
        expect(parseJson(text, { rawScalars: true }).value).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
