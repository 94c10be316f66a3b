/** CEL types of schema nodes (SchemaDeclType), property name escaping, and reading data through them. */
import { describe, expect, it } from 'vitest';
import { compileError, compileOk, integerType, listType, mapType, objectType, stringType } from './helpers.js';
import { escapePropertyName, ruleScope, schemaDeclType, unescapePropertyName } from '../../src/cel/index.js';

describe('property name escaping', () => {
  const cases: [string, string | undefined][] = [
    ['foo', 'foo'],
    ['_foo', '_foo'],
    ['foo.bar', 'foo__dot__bar'],
    ['foo-bar', 'foo__dash__bar'],
    ['foo/bar', 'foo__slash__bar'],
    ['a__b', 'a__underscores__b'],
    ['__', '__underscores__'],
    ['true', '__true__'],
    ['namespace', '__namespace__'],
    ['in', '__in__'],
    ['1foo', undefined],
    ['foo bar', undefined],
    ['föo', undefined],
    ['', undefined],
  ];
  for (const [name, escaped] of cases) {
    it(`${JSON.stringify(name)} → ${JSON.stringify(escaped)}`, () => {
      expect(escapePropertyName(name)).toBe(escaped);
      if (escaped !== undefined) expect(unescapePropertyName(escaped)).toBe(name);
    });
  }

  it('makes escaped properties selectable, and drops the rest', () => {
    const s = objectType({ 'foo-bar': stringType, namespace: stringType, 'a b': stringType });
    const rule = "self.foo__dash__bar == 'x' && self.__namespace__ == 'y'";
    expect(compileOk(s, rule).program!.evaluate({ 'foo-bar': 'x', namespace: 'y' })).toMatchObject({ ok: true, value: true });
    expect(compileError(s, "self.a_b == ''")).toMatch(/undefined field 'a_b'/);
  });
});

describe('declared types', () => {
  it('objects, maps and lists, with the bounds cost estimates use', () => {
    const d = schemaDeclType(
      objectType({ m: mapType(integerType, { maxProperties: 5 }), l: listType(stringType, { maxItems: 3 }), s: { type: 'string', maxLength: 10 } }),
      false,
    )!;
    expect(d.kind).toBe('object');
    expect(d.fields!.get('m')!.type).toMatchObject({ kind: 'map', maxElements: 5 });
    expect(d.fields!.get('l')!.type).toMatchObject({ kind: 'list', maxElements: 3 });
    // maxLength counts code points; the estimator sizes bytes, at most 4 per code point.
    expect(d.fields!.get('s')!.type).toMatchObject({ kind: 'string', maxElements: 40 });
  });

  it('formats become timestamps, durations and bytes', () => {
    const s = objectType({
      t: { type: 'string', format: 'date-time' },
      d: { type: 'string', format: 'duration' },
      b: { type: 'string', format: 'byte' },
      day: { type: 'string', format: 'date' },
    });
    const rule = "self.t > timestamp('2020-01-01T00:00:00Z') && self.d == duration('90s') && self.b == b'AB' && self.day.getFullYear() == 2021";
    const r = compileOk(s, rule).program!.evaluate({ t: '2021-01-01T00:00:00Z', d: '1m30s', b: 'QUI=', day: '2021-05-06' });
    expect(r).toMatchObject({ ok: true, value: true });
  });

  it('x-kubernetes-int-or-string is dyn', () => {
    const s = objectType({ v: { 'x-kubernetes-int-or-string': true } });
    const rule = "type(self.v) == string ? self.v.endsWith('%') : self.v < 10";
    const p = compileOk(s, rule).program!;
    expect(p.evaluate({ v: '50%' })).toMatchObject({ ok: true, value: true });
    expect(p.evaluate({ v: 5 })).toMatchObject({ ok: true, value: true });
    expect(p.evaluate({ v: 50 })).toMatchObject({ ok: true, value: false });
  });

  it('an object with x-kubernetes-preserve-unknown-fields shows only its declared properties', () => {
    const s = objectType({ known: stringType }, { 'x-kubernetes-preserve-unknown-fields': true });
    expect(compileError(s, "self.unknown == 'x'")).toMatch(/undefined field 'unknown'/);
    expect(compileOk(s, "self.known == 'x'").program!.evaluate({ known: 'x', unknown: 1 })).toMatchObject({ ok: true, value: true });
  });

  it('embedded resources and the resource root get apiVersion, kind and metadata.name/generateName', () => {
    const embedded = objectType({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } });
    const rule = "self.template.kind == 'Pod' && self.template.metadata.name.startsWith('p') && self.template.apiVersion == 'v1'";
    const r = compileOk(embedded, rule).program!.evaluate({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod-1' } } });
    expect(r).toMatchObject({ ok: true, value: true });
    expect(compileError(embedded, "self.template.metadata.namespace == ''")).toMatch(/undefined field 'namespace'/);
    const root = schemaDeclType(objectType({ spec: objectType({}) }), true)!;
    expect([...root.fields!.keys()].sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('names object types by path', () => {
    const c = compileError(objectType({ spec: objectType({ x: integerType }) }), 'self.spec == 1');
    expect(c).toContain("found no matching overload for '_==_' applied to '(selfType0.spec, int)'");
  });

  it('set and map lists compare regardless of order', () => {
    const s = objectType({
      a: { type: 'array', items: stringType, 'x-kubernetes-list-type': 'set' },
      m: { type: 'array', items: objectType({ k: stringType, v: integerType }), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
    });
    const p = compileOk(s, 'self.a == oldSelf.a && self.m == oldSelf.m').program!;
    const now = {
      a: ['x', 'y'],
      m: [
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
      ],
    };
    const before = {
      a: ['y', 'x'],
      m: [
        { k: 'b', v: 2 },
        { k: 'a', v: 1 },
      ],
    };
    expect(p.evaluate(now, before)).toMatchObject({ ok: true, value: true });
    expect(
      p.evaluate(now, {
        ...before,
        m: [
          { k: 'b', v: 3 },
          { k: 'a', v: 1 },
        ],
      }),
    ).toMatchObject({ ok: true, value: false });
  });

  it('absent fields: has() is false, selecting them is an error', () => {
    const s = objectType({ x: integerType });
    expect(compileOk(s, '!has(self.x)').program!.evaluate({})).toMatchObject({ ok: true, value: true });
    expect(compileOk(s, 'self.x == 1').program!.evaluate({})).toMatchObject({ ok: false, error: 'no such key: x' });
  });
});

describe('keywords as field names', () => {
  // A property named like a CEL keyword is declared escaped (`__namespace__`) but may be selected
  // by its own name, as Kubernetes' type provider recognizes keywords as field names.
  const scope = ruleScope(
    { type: 'object', properties: { metadata: { type: 'object', properties: { namespace: { type: 'string' }, name: { type: 'string' } } } } } as never,
    { isResourceRoot: false },
  );

  it('compiles and reads `self.metadata.namespace`, has() included', () => {
    if ('error' in scope) throw new Error(scope.error);
    const c = scope.compileRule({ rule: '!has(self.metadata.namespace) || self.metadata.namespace == "ns"' });
    expect(c.error).toBeUndefined();
    expect(c.program!.evaluate({ metadata: { namespace: 'ns' } })).toMatchObject({ ok: true, value: true });
    expect(c.program!.evaluate({ metadata: { namespace: 'other' } })).toMatchObject({ ok: true, value: false });
    expect(c.program!.evaluate({ metadata: {} })).toMatchObject({ ok: true, value: true });
    expect(scope.compileRule({ rule: 'self.metadata.__namespace__ == "ns"' }).error).toBeUndefined();
  });
});
