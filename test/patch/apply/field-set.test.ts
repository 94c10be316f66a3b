import { describe, expect, it } from 'vitest';
import {
  comparePathElements,
  deserializePathElement,
  FieldSet,
  FieldsV1Error,
  pathElement as pe,
  pathString,
  serializePathElement,
  UNKNOWN_PATH_ELEMENT,
} from '../../../src/patch/apply/index.js';

const f = pe.field;

describe('path elements', () => {
  it('order field names < keys < values < indexes, as SMD does', () => {
    const els = [pe.index(0), pe.value('a'), pe.key({ name: 'c' }), f('b'), f('a'), pe.value(1), pe.index(-1)];
    const sorted = [...els].sort(comparePathElements).map(serializePathElement);
    expect(sorted).toEqual(['f:a', 'f:b', 'k:{"name":"c"}', 'v:1', 'v:"a"', 'i:-1', 'i:0']);
  });

  it('print the way conflict messages show them', () => {
    expect(pathString([f('spec'), f('containers'), pe.key({ name: 'c' }), f('image')])).toBe('.spec.containers[name="c"].image');
    expect(pathString([f('spec'), f('ports'), pe.key({ protocol: 'TCP', port: 80 })])).toBe('.spec.ports[port=80,protocol="TCP"]');
    expect(pathString([f('metadata'), f('finalizers'), pe.value('a/b')])).toBe('.metadata.finalizers[="a/b"]');
    expect(pathString([f('spec'), f('args'), pe.index(2)])).toBe('.spec.args[2]');
    expect(pathString([f('x'), pe.value(1.5)])).toBe('.x[=1.5]');
  });

  it('serialize keys sorted by field name, values as Go JSON (HTML-escaped)', () => {
    expect(serializePathElement(pe.key({ protocol: 'TCP', containerPort: 80 }))).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(serializePathElement(pe.value('<a&b>'))).toBe('v:"\\u003ca\\u0026b\\u003e"');
    expect(serializePathElement(f('a<b'))).toBe('f:a<b');
    expect(serializePathElement(pe.index(3))).toBe('i:3');
  });

  it('deserialize, and fail with SMD messages', () => {
    expect(deserializePathElement('k:{"protocol":"TCP","containerPort":80}')).toEqual(pe.key({ containerPort: 80, protocol: 'TCP' }));
    expect(deserializePathElement('v:true')).toEqual(pe.value(true));
    expect(deserializePathElement('i:007')).toEqual(pe.index(7));
    expect(deserializePathElement('x:whatever')).toBe(UNKNOWN_PATH_ELEMENT);
    expect(() => deserializePathElement('f')).toThrow('key must be 2 characters long:');
    expect(() => deserializePathElement('fx')).toThrow('missing colon: fx');
    expect(() => deserializePathElement('i:1.5')).toThrow('strconv.Atoi: parsing "1.5": invalid syntax');
    expect(() => deserializePathElement('i:99999999999999999999')).toThrow('strconv.Atoi: parsing "99999999999999999999": value out of range');
    expect(() => deserializePathElement('v:1 2')).toThrow(
      'managedFields parsing: unexpected trailing data after JSON object, error found in #2 byte of ...|1 2|..., bigger context ...|1 2|...',
    );
    expect(() => deserializePathElement('k:[1]')).toThrow('ReadObjectCB: expect { or n, but found [');
  });
});

describe('FieldSet', () => {
  const a = FieldSet.of([f('a')], [f('a'), f('b')], [f('c'), f('d')]);
  const b = FieldSet.of([f('a'), f('b')], [f('c'), f('e')]);

  it('has set algebra', () => {
    expect(a.union(b).paths().map(pathString)).toEqual(['.a', '.a.b', '.c.d', '.c.e']);
    expect(a.intersection(b).paths().map(pathString)).toEqual(['.a.b']);
    expect(a.difference(b).paths().map(pathString)).toEqual(['.a', '.c.d']);
    expect(a.has([f('a'), f('b')])).toBe(true);
    expect(a.has([f('c')])).toBe(false);
    expect(a.size).toBe(3);
    expect(FieldSet.EMPTY.empty).toBe(true);
    expect(a.difference(a).empty).toBe(true);
  });

  it('leaves() drops members with members below them; recursiveDifference drops whole subtrees', () => {
    expect(a.leaves().paths().map(pathString)).toEqual(['.a.b', '.c.d']);
    expect(
      a
        .recursiveDifference(FieldSet.of([f('c')]))
        .paths()
        .map(pathString),
    ).toEqual(['.a', '.a.b']);
    expect(
      a
        .difference(FieldSet.of([f('c')]))
        .paths()
        .map(pathString),
    ).toEqual(['.a', '.a.b', '.c.d']);
  });

  it('never changes its operands', () => {
    const before = a.toFieldsV1String();
    a.union(b);
    a.difference(b);
    a.with([f('z')]);
    expect(a.toFieldsV1String()).toBe(before);
  });
});

describe('FieldsV1', () => {
  it('round-trips what kubectl create configmap stores', () => {
    const v = { 'f:data': { '.': {}, 'f:key': {} } };
    const set = FieldSet.fromFieldsV1(v);
    expect(set.paths().map(pathString)).toEqual(['.data', '.data.key']);
    expect(set.toFieldsV1()).toEqual(v);
    expect(set.toFieldsV1String()).toBe('{"f:data":{".":{},"f:key":{}}}');
  });

  it('round-trips a pod as kubectl run and the kubelet leave it', () => {
    const run = {
      'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"nginx"}': {
            '.': {},
            'f:env': { '.': {}, 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
            'f:image': {},
            'f:imagePullPolicy': {},
            'f:name': {},
            'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
            'f:resources': {},
            'f:terminationMessagePath': {},
            'f:terminationMessagePolicy': {},
          },
        },
        'f:dnsPolicy': {},
        'f:enableServiceLinks': {},
        'f:restartPolicy': {},
        'f:schedulerName': {},
        'f:securityContext': {},
        'f:terminationGracePeriodSeconds': {},
      },
    };
    const kubelet = {
      'f:status': {
        'f:conditions': {
          'k:{"type":"ContainersReady"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
          'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
        },
        'f:containerStatuses': {},
        'f:hostIP': {},
        'f:phase': {},
        'f:podIP': {},
        'f:podIPs': { '.': {}, 'k:{"ip":"10.244.0.5"}': { '.': {}, 'f:ip': {} } },
        'f:startTime': {},
      },
    };
    for (const v of [run, kubelet]) {
      const set = FieldSet.fromFieldsV1(v);
      expect(set.toFieldsV1()).toEqual(v);
      expect(JSON.stringify(set.toFieldsV1())).toBe(JSON.stringify(v));
    }
    expect(
      FieldSet.fromFieldsV1(run).has([
        f('spec'),
        f('containers'),
        pe.key({ name: 'nginx' }),
        f('ports'),
        pe.key({ containerPort: 80, protocol: 'TCP' }),
        f('protocol'),
      ]),
    ).toBe(true);
  });

  it('sorts what it writes, whatever order it read', () => {
    const set = FieldSet.fromFieldsV1({ 'i:1': {}, 'v:"b"': {}, 'k:{"b":1,"a":2}': {}, 'f:z': { '.': {}, 'f:y': {} }, 'f:a': {} });
    expect(set.toFieldsV1String()).toBe('{"f:a":{},"f:z":{".":{},"f:y":{}},"k:{\\"a\\":2,\\"b\\":1}":{},"v:\\"b\\"":{},"i:1":{}}');
  });

  it('reads a node without "." as not a member, drops keys of unknown types, and takes null and {} alike', () => {
    const set = FieldSet.fromFieldsV1({ 'f:a': { 'f:b': {} }, 'z:1': { anything: 1 }, 'f:c': null, 'f:d': { 'q:x': {} } });
    expect(set.paths().map(pathString)).toEqual(['.c', '.d', '.a.b']);
    expect(FieldSet.fromFieldsV1(null).empty).toBe(true);
    expect(FieldSet.fromFieldsV1('{}').empty).toBe(true);
  });

  it('rejects malformed FieldsV1 with the decoder messages', () => {
    const err = (v: unknown) => {
      try {
        FieldSet.fromFieldsV1(v);
      } catch (e) {
        expect(e).toBeInstanceOf(FieldsV1Error);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err({ 'f:a': [] })).toBe('ReadMapCB: expect { or n, but found [, error found in #8 byte of ...|{"f:a":[]}|..., bigger context ...|{"f:a":[]}|...');
    expect(err([])).toBe('ReadMapCB: expect { or n, but found [, error found in #1 byte of ...|[]|..., bigger context ...|[]|...');
    expect(err({ 'f:a': 1 })).toBe('ReadMapCB: expect { or n, but found 1, error found in #8 byte of ...|{"f:a":1}|..., bigger context ...|{"f:a":1}|...');
    expect(err({ x: {} })).toBe(
      'parsing key as path element: key must be 2 characters long:, error found in #5 byte of ...|{"x":{}}|..., bigger context ...|{"x":{}}|...',
    );
    expect(err({ 'i:abc': {} })).toBe(
      'parsing key as path element: strconv.Atoi: parsing "abc": invalid syntax, error found in #9 byte of ...|{"i:abc":{}}|..., bigger context ...|{"i:abc":{}}|...',
    );
    expect(err({ 'k:{"name":}': {} })).toBe(
      'parsing key as path element: Read: unexpected value type: 0, error found in #8 byte of ...|{"name":}|..., bigger context ...|{"name":}|..., error found in #10 byte of ...|name\\":}":{}}|..., bigger context ...|{"k:{\\"name\\":}":{}}|...',
    );
    expect(err('{"f:a":{}} x')).toContain('managedFields parsing: unexpected trailing data after JSON object');
  });

  it('treats __proto__ as an ordinary (invalid) key, and as a field name under f:', () => {
    const hostile = JSON.parse('{"__proto__":{"f:x":{}}}') as unknown;
    expect(() => FieldSet.fromFieldsV1(hostile)).toThrow('parsing key as path element: missing colon: __proto__');
    const ok = FieldSet.fromFieldsV1(JSON.parse('{"f:__proto__":{"f:polluted":{}}}'));
    expect(ok.paths().map(pathString)).toEqual(['.__proto__.polluted']);
    const out = ok.toFieldsV1();
    expect(Object.keys(out)).toEqual(['f:__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
