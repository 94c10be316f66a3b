import { describe, expect, it } from 'vitest';
import { GoPanic } from '../../../src/util/go-value.js';
import { GoNumber, JsonPathError, parseJsonPath } from '../../../src/util/jsonpath/index.js';

function run(template: string, data: unknown, allowMissingKeys = false): string {
  return parseJsonPath(template).execute(data, { allowMissingKeys });
}

function failure(template: string, data: unknown, allowMissingKeys = false): string {
  try {
    run(template, data, allowMissingKeys);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonPathError);
    return (e as Error).message;
  }
  throw new Error(`${template} did not fail`);
}

const types = {
  bools: [true, false, true, false],
  integers: [1, 2, 3, 4],
  floats: [1.0, 2.25, 3.5, 4.0],
  strings: ['uno', 'dos', 'tres', 'cuatro'],
  mixed: [true, 'uno', 1, 1.25],
  maps: [
    { name: 'uno', value: 1 },
    { name: 'dos', value: 2.5 },
    { name: 'tres', value: 3.75 },
    { name: 'cuatro', value: 4.125 },
  ],
};

describe('evaluation: slices of every type', () => {
  it.each([
    ['{ .bools }', '[true,false,true,false]'],
    ['{ .bools[0] }', 'true'],
    ['{ .bools[-1] }', 'false'],
    ['{ .bools[0:2] }', 'true false'],
    ['{ .bools[:2] }', 'true false'],
    ['{ .bools[:4:2] }', 'true true'],
    ['{ .integers }', '[1,2,3,4]'],
    ['{ .integers[-2] }', '3'],
    ['{ .integers[:4:2] }', '1 3'],
    // A float64 that is integral prints as an int64 would: Go cannot tell them apart after a round trip.
    ['{ .floats }', '[1,2.25,3.5,4]'],
    ['{ .floats[0] }', '1'],
    ['{ .floats[-2] }', '3.5'],
    ['{ .floats[:4:2] }', '1 3.5'],
    ['{ .strings }', '["uno","dos","tres","cuatro"]'],
    ['{ .strings[-2] }', 'tres'],
    ['{ .strings[:4:2] }', 'uno tres'],
    ['{ .mixed }', '[true,"uno",1,1.25]'],
    ['{ .mixed[0:2] }', 'true uno'],
    ['{ .mixed[:4:2] }', 'true 1'],
    ['{ .maps[0] }', '{"name":"uno","value":1}'],
    ['{ .maps[-2] }', '{"name":"tres","value":3.75}'],
    ['{ .maps[0:2] }', '{"name":"uno","value":1} {"name":"dos","value":2.5}'],
    ['{ .maps[::2] }', '{"name":"uno","value":1} {"name":"tres","value":3.75}'],
    ['{ .maps[1::2] }', '{"name":"dos","value":2.5} {"name":"cuatro","value":4.125}'],
  ])('%s prints %s', (template, expected) => {
    expect(run(template, types)).toBe(expected);
  });
});

const shop = {
  Name: 'jsonpath',
  Book: [
    { Category: 'reference', Author: 'Ann Author', Title: 'First', Price: 8.95 },
    { Category: 'fiction', Author: 'Bob Writer', Title: 'Second', Price: 12.99 },
    { Category: 'fiction', Author: 'Cy Scribe', Title: 'Third', Price: 8.99 },
  ],
  Bicycle: [
    { Color: 'red', Price: 19.95, IsNew: true },
    { Color: 'green', Price: 20.01, IsNew: false },
  ],
  Labels: { engineer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

describe('evaluation: the shop', () => {
  it.each([
    ['hello jsonpath', null, 'hello jsonpath'],
    ['{..}', [1, 2, 3], '[1,2,3]'],
    ['{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['{"{"}', null, '{'],
    ['{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['{[0:2]}', ['Monday', 'Tuesday'], 'Monday Tuesday'],
    ['hello {.Name}', shop, 'hello jsonpath'],
    ['{$.Labels.web/html}', shop, '15'],
    ['{$.Employees.jason}', shop, 'manager'],
    ['{.Labels.k8s-app}', shop, '20'],
    ['{.Bicycle[*].Color}', shop, 'red green'],
    ['{.Book[*].Author}', shop, 'Ann Author Bob Writer Cy Scribe'],
    // Map members come in Go's sorted key order (Go itself ranges over a map at random).
    ['{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', shop, '{red true 19.95} {green false 20.01} '],
    ['{..Price}', shop, '19.95 20.01 8.95 12.99 8.99'],
    ['{...Price}', shop, '19.95 20.01 8.95 12.99 8.99'],
    ['{.Bicycle}', shop, '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]'],
    ['{range .Bicycle[*]}{ @ }{ " " }{end}', shop, '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} '],
    ['{.Book[-1:]}', shop, '{"Author":"Cy Scribe","Category":"fiction","Price":8.99,"Title":"Third"}'],
    ['{..Book[2]}', shop, '{"Author":"Cy Scribe","Category":"fiction","Price":8.99,"Title":"Third"}'],
    ['{.Bicycle[?(@.IsNew==true)]}', shop, '{"Color":"red","IsNew":true,"Price":19.95}'],
  ])('%s prints %j', (template, data, expected) => {
    expect(run(template, data)).toBe(expected);
  });

  it('fails on a parse of too many dots', () => {
    expect(() => parseJsonPath('{' + '.'.repeat(60) + 'Price}')).toThrow('invalid multiple recursive descent');
  });

  it('yields nothing for a missing key when missing keys are allowed', () => {
    expect(run('{.hello}', shop, true)).toBe('');
    expect(run('before-{.hello}after', shop, true)).toBe('before-after');
    expect(parseJsonPath('{.hello}').findResults(shop, { allowMissingKeys: true })).toEqual([[]]);
  });

  it.each([
    ['{hello}', 'unrecognized identifier hello'],
    ['{nil}', 'unrecognized identifier nil'],
    ['{.hello}', 'hello is not found'],
    ['{.Labels[0]}', 'map[string]interface {} is not array or slice'],
    ['{.Name[0]}', 'string is not array or slice'],
    ['{.Labels.engineer[0]}', 'int64 is not array or slice'],
    ['{.Book[0].Price[0]}', 'float64 is not array or slice'],
    ['{.Bicycle[0].IsNew[0]}', 'bool is not array or slice'],
    ['{5[0]}', 'int is not array or slice'],
    ['{.Book[?(@.Price<>10)]}', 'unrecognized filter operator <>'],
    ['{.Book[?(@.Price=10)]}', 'unrecognized filter operator ='],
    ['{range .Labels.*}{@}{end}{end}', 'not in range, nothing to end'],
    ['{end}', 'not in range, nothing to end'],
  ])('%s fails with %j', (template, message) => {
    expect(failure(template, shop)).toBe(message);
  });
});

describe('evaluation: JSON input', () => {
  const points = [
    { id: 'i1', x: 4, y: -5 },
    { id: 'i2', x: -2, y: -5, z: 1 },
    { id: 'i3', x: 8, y: 3 },
    { id: 'i4', x: -6, y: -1 },
    { id: 'i5', x: 0, y: 2, z: 1 },
    { id: 'i6', x: 1, y: 4 },
    { id: 'i7', x: null, y: 4 },
  ];

  it('filters by existence, reads bracket keys, prints a null member as null', () => {
    expect(run('{[?(@.z)].id}', points)).toBe('i2 i5');
    expect(run("{[0]['id']}", points)).toBe('i1');
    expect(run("{[-1]['x']}", points)).toBe('null');
    // A null member exists.
    expect(run('{[?(@.x)].id}', points)).toBe('i1 i2 i3 i4 i5 i6 i7');
  });
});

const nodes = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
};

describe('evaluation: Kubernetes lists', () => {
  it.each([
    ['{range .items[*]}{.metadata.name}, {end}{.kind}', '127.0.0.1, 127.0.0.2, List'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{end}', '127.0.0.1\t127.0.0.2\t'],
    ['{.items[*].status.addresses[*].address}', '127.0.0.1 127.0.0.2 127.0.0.3'],
    ['{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
    ['{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    ["{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ['{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['{.items[0].metadata.labels.kubernetes\\.io/hostname}', '127.0.0.1'],
    ['{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', 'None'],
    ['{.items[?(@..ready==true)].metadata.name}', '127.0.0.1'],
    ['{..name}', '127.0.0.1 127.0.0.2 myself e2e'],
  ])('%s prints %j', (template, expected) => {
    expect(run(template, nodes)).toBe(expected);
  });

  it('runs an empty range once on no value, to find its end', () => {
    const empty = { items: [] };
    expect(run('{range .items[*]}{.metadata.name}{end}', empty, true)).toBe('');
    expect(run('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', empty, true)).toBe('');
    // Without allowMissingKeys the field fails on that no value.
    expect(failure('{range .items[*]}{.metadata.name}{end}', empty)).toBe('metadata is not found');
    expect(run('{range .items[*]}{.x}{end}after', empty, true)).toBe('after');
  });

  const pods = {
    items: [
      {
        metadata: { name: 'pod1' },
        spec: {
          containers: [
            { name: 'foo', another: [{ name: 'value1' }, { name: 'value2' }] },
            { name: 'bar', another: [{ name: 'value1' }, { name: 'value2' }] },
          ],
        },
      },
      { metadata: { name: 'pod2' }, spec: { containers: [{ name: 'baz', another: [{ name: 'value1' }, { name: 'value2' }] }] } },
    ],
  };

  it('nests ranges', () => {
    expect(run('{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', pods)).toBe('pod1:foo,bar,+pod2:baz,+');
    expect(
      run('{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}', pods),
    ).toBe('pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#');
    expect(
      run(
        '{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}',
        pods,
      ),
    ).toBe('pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n');
  });

  it('gives one result list per action, per range value', () => {
    expect(parseJsonPath('{range .items[*]}{.metadata.name}:{end}').findResults(pods)).toEqual([['pod1'], [':'], ['pod2'], [':']]);
  });

  it('without an end, a range runs to the end of the template, which then goes on at the top level', () => {
    expect(run('{range .a[*]}{.b}', { a: [{ b: 1 }, { b: 2 }] }, true)).toBe('12');
    expect(failure('{range .a[*]}{.b}', { a: [{ b: 1 }, { b: 2 }] })).toBe('b is not found');
  });

  it('a range over a null item starts from no value', () => {
    expect(run('{range .a[*]}{@};{end}', { a: [null, 1] })).toBe('<no value>;1;');
    expect(run('{range .a[*]}{.x};{end}', { a: [null, { x: 2 }] }, true)).toBe(';2;');
  });

  const annotated = {
    kind: 'List',
    items: [
      { kind: 'Pod', metadata: { name: 'pod1', annotations: { color: 'blue' } } },
      { kind: 'Pod', metadata: { name: 'pod2' } },
      { kind: 'Pod', metadata: { name: 'pod3', annotations: { color: 'green' } } },
      { kind: 'Pod', metadata: { name: 'pod4', annotations: { color: 'blue' } } },
    ],
  };

  it('filters over items missing the compared field only when missing keys are allowed', () => {
    expect(run('{.items[?(@.metadata.annotations.color=="blue")].metadata.name}', annotated, true)).toBe('pod1 pod4');
    expect(failure('{.items[?(@.metadata.annotations.color=="blue")].metadata.name}', annotated)).toBe('annotations is not found');
  });

  it('filters without @', () => {
    const running = {
      kind: 'List',
      items: [
        { kind: 'Pod', metadata: { name: 'pod1' }, status: { phase: 'Running' } },
        { kind: 'Pod', metadata: { name: 'pod2' }, status: { phase: 'Running' } },
        { kind: 'Pod', metadata: { name: 'pod3' }, status: { phase: 'Running' } },
        { resourceVersion: '' },
      ],
    };
    expect(run('{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}', running, true)).toBe(
      'pod1 is Running\npod2 is Running\npod3 is Running\n',
    );
  });
});

describe('evaluation: indexes, slices and steps', () => {
  const pod = { spec: { containers: ['fake0', 'fake1', 'fake2', 'fake3'].map((name) => ({ image: 'busybox', name })) } };

  it.each([
    ['{.spec.containers[0].name}', 'fake0'],
    ['{.spec.containers[0:0].name}', ''],
    ['{.spec.containers[0:-1].name}', 'fake0 fake1 fake2'],
    ['{.spec.containers[-1].name}', 'fake3'],
    ['{.spec.containers[-1:].name}', 'fake3'],
    ['{.spec.containers[-2].name}', 'fake2'],
    ['{.spec.containers[-2:].name}', 'fake2 fake3'],
    ['{.spec.containers[-3].name}', 'fake1'],
    ['{.spec.containers[-4].name}', 'fake0'],
    ['{.spec.containers[-4:].name}', 'fake0 fake1 fake2 fake3'],
    ['{.spec.containers[5:5].name}', ''],
    ['{.spec.containers[-5:-5].name}', ''],
    ['{.spec.containers[].name}', 'fake0'],
    ['{.spec.containers[*].name}', 'fake0 fake1 fake2 fake3'],
  ])('%s prints %j', (template, expected) => {
    expect(run(template, pod)).toBe(expected);
  });

  it.each([
    ['{.spec.containers[-1:0].name}', 'starting index 3 is greater than ending index 0'],
    ['{.spec.containers[-5].name}', 'array index out of bounds: index -1, length 4'],
    ['{.spec.containers[4].name}', 'array index out of bounds: index 4, length 4'],
    ['{.spec.containers[1:9].name}', 'array index out of bounds: index 8, length 4'],
    ['{.spec.containers[3:1].name}', 'starting index 3 is greater than ending index 1'],
    ['{.spec.containers[-1:-2].name}', 'starting index 3 is greater than ending index 2'],
    ['{.spec.containers[0:4:0].name}', 'step must be > 0'],
    ['{.spec.containers[0:4:-1].name}', 'step must be > 0'],
    ['{.spec.containers[9223372036854775807].name}', 'array index out of bounds: index 9223372036854775807, length 4'],
  ])('%s fails with %j', (template, message) => {
    expect(failure(template, pod)).toBe(message);
  });

  const six = { spec: { containers: [0, 1, 2, 3, 4, 5].map((i) => ({ name: `fake${i}` })) } };

  it.each([
    ['{.spec.containers[0:].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['{.spec.containers[0:6:].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['{.spec.containers[0:6:1].name}', 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['{.spec.containers[1:4:2].name}', 'fake1 fake3'],
    ['{.spec.containers[1:4:3].name}', 'fake1'],
    ['{.spec.containers[1:4:4].name}', 'fake1'],
    ['{.spec.containers[0:6:2].name}', 'fake0 fake2 fake4'],
    ['{.spec.containers[0:6:3].name}', 'fake0 fake3'],
    ['{.spec.containers[0:6:5].name}', 'fake0 fake5'],
    ['{.spec.containers[0:6:6].name}', 'fake0'],
    ['{.spec.containers[0:6:9223372036854775807].name}', 'fake0'],
  ])('%s prints %j', (template, expected) => {
    expect(run(template, six)).toBe(expected);
  });

  it('stops a slice step at the first input that selects nothing, dropping the rest', () => {
    expect(run('{[*][1:]}', [[5, 6], [7], [8, 9]])).toBe('6');
  });

  it('skips null inputs', () => {
    expect(run('{[*][0]}', [null, [1]])).toBe('1');
  });
});

describe('evaluation: filters compare as text/template does', () => {
  const data = { items: [{ n: 1, f: 1.5, s: 'b', b: true, o: {}, z: null }] };

  it.each([
    ['{.items[?(@.n==1)].s}', 'b'],
    ['{.items[?(@.n!=1)].s}', ''],
    ['{.items[?(@.n<2)].s}', 'b'],
    ['{.items[?(@.n<=1)].s}', 'b'],
    ['{.items[?(@.n>=1)].s}', 'b'],
    ['{.items[?(@.n>1)].s}', ''],
    ['{.items[?(@.n>0)].s}', 'b'],
    ['{.items[?(@.f==1.5)].s}', 'b'],
    ['{.items[?(@.f>1.25)].s}', 'b'],
    ['{.items[?(@.s=="b")].n}', '1'],
    ["{.items[?(@.s=='b')].n}", '1'],
    ['{.items[?(@.s<"c")].n}', '1'],
    ['{.items[?(@.s>"a")].n}', '1'],
    ['{.items[?(@.b==true)].n}', '1'],
    ['{.items[?(@.b!=false)].n}', '1'],
    ['{.items[?(@.n == @.n)].n}', '1'],
    // No value on a side: the item is skipped, the operator never looked at.
    ['{.items[?(@.missing<>1)].n}', ''],
  ])('%s prints %j', (template, expected) => {
    expect(run(template, data, true)).toBe(expected);
  });

  it.each([
    ['{.items[?(@.n==1.0)].s}', 'incompatible types for comparison'],
    ['{.items[?(@.f==1)].s}', 'incompatible types for comparison'],
    ['{.items[?(@.s==1)].s}', 'incompatible types for comparison'],
    ['{.items[?(@.b<true)].s}', 'invalid type for comparison'],
    ['{.items[?(@.b<1)].s}', 'incompatible types for comparison'],
    ['{.items[?(@.o=="x")].s}', 'invalid type for comparison'],
    ['{.items[?(@.z=="x")].s}', 'invalid type for comparison'],
    ['{.items[?(@.s==@.o)].s}', 'invalid type for comparison'],
    ['{.items[?(@.missing==1)].s}', 'missing is not found'],
    ['{.items[?(@.n==@.missing)].s}', 'missing is not found'],
    ['{.items[?(@.*==1)].s}', 'can only compare one element at a time'],
    ['{.items[?(@.n==@.*)].s}', 'can only compare one element at a time'],
    ['{.items.n[?(@.x)]}', 'n is not found'],
    ['{.items[0][?(@.x)]}', 'map[b:true f:1.5 n:1 o:map[] s:b z:<nil>] is not array or slice and cannot be filtered'],
    ['{.items[0].z[?(@.x)]}', '<nil> is not array or slice and cannot be filtered'],
    ['{.items[0].s[?(@.x)]}', 'b is not array or slice and cannot be filtered'],
  ])('%s fails with %j', (template, message) => {
    expect(failure(template, data)).toBe(message);
  });

  it('an existence filter keeps an item whenever its path gave values, errors or not', () => {
    const items = [{ name: 'abc' }, { name: ['x'] }, { other: 1 }];
    // `.name[0]` fails on a string but hands its input back: the string item "exists".
    expect(run('{[?(@.name[0])].name}', items)).toBe('abc ["x"]');
    expect(run('{[?(@.name)].name}', items)).toBe('abc ["x"]');
    expect(run('{[?(@.name.deeper)].name}', items)).toBe('');
  });

  it('compares a byte of a string (uint8) with an integer across signedness', () => {
    expect(run('{.a[?(@.*==104)]}', { a: ['h', 'i'] })).toBe('h');
    expect(run('{.a[?(@.*<105)]}', { a: ['h', 'i'] })).toBe('h');
    expect(run('{.a[?(@.*>=-1)]}', { a: ['h'] })).toBe('h');
    expect(failure('{.a[?(@.*==104.0)]}', { a: ['h'] })).toBe('incompatible types for comparison');
    expect(failure('{.a[?(@.*==104)]}', { a: ['hi'] })).toBe('can only compare one element at a time');
  });

  it('fails on filtering no value', () => {
    expect(failure('{[?(@.x)]}', null)).toBe('<invalid reflect.Value> is not array or slice and cannot be filtered');
  });
});

describe('evaluation: wildcards and recursive descent', () => {
  it('lists map members in sorted key order, items in order, a string as its UTF-8 bytes', () => {
    expect(run('{.*}', { b: 1, a: 2, 10: 3, 9: 4 })).toBe('3 4 2 1');
    expect(run('{.a.*}', { a: [1, 'x'] })).toBe('1 x');
    expect(run('{.a.*}', { a: 'hé' })).toBe('104 195 169');
    expect(parseJsonPath('{.a.*}').findResults({ a: 'A' })).toEqual([[new GoNumber('uint8', 65)]]);
    expect(run('{.a.*}', { a: 5 })).toBe('');
    expect(run('{.*}', null)).toBe('');
  });

  it('lists every non-empty map, slice and string, depth first', () => {
    expect(run('{..}', { a: 'x', b: [], c: { d: [1] }, e: '', f: 2 })).toBe('{"a":"x","b":[],"c":{"d":[1]},"e":"","f":2} x {"d":[1]} [1]');
    expect(run('{..}', null)).toBe('');
    expect(failure('{..[0]}', { a: [1] })).toBe('map[string]interface {} is not array or slice');
  });

  it('a field after .. looks in every map found', () => {
    expect(run('{..name}', { name: 'a', list: [{ name: 'b' }, { x: { name: 'c' } }] })).toBe('a b c');
    expect(failure('{..name}', { x: 1 })).toBe('name is not found');
  });
});

describe('evaluation: no value and panics', () => {
  it('prints a nil root as no value', () => {
    expect(run('{@}', null)).toBe('<no value>');
    expect(run('{@}', undefined)).toBe('<no value>');
    expect(run('{.a}', null, true)).toBe('');
  });

  it('throws GoPanic where client-go panics', () => {
    expect(() => run('{range .a[*]}{[0]}{end}', { a: [] })).toThrow(GoPanic);
    expect(() => run('{range .a[*]}{[0]}{end}', { a: [] })).toThrow('reflect: call of reflect.Value.Type on zero Value');
    expect(() => run('{range @}{end}', null)).toThrow('reflect: call of reflect.Value.Interface on zero Value');
    expect(() => run('{[0]}', null)).toThrow(GoPanic);
  });

  it('evaluates literals once per input value', () => {
    expect(run('{5}', {})).toBe('5');
    expect(run('{2.0}', {})).toBe('2');
    expect(run('{100000000.0}', {})).toBe('1e+08');
    expect(run('{-0.0}', {})).toBe('-0');
    expect(run('{true}', {})).toBe('true');
    expect(run('{.a[*] 1}', { a: [7, 8] })).toBe('1 1');
    expect(run('{.a[*] "x"}', { a: [7, 8] })).toBe('x');
  });

  it('does not read inherited members', () => {
    expect(failure('{.constructor}', {})).toBe('constructor is not found');
    expect(run('{.__proto__}', JSON.parse('{"__proto__": 1}'))).toBe('1');
  });
});

describe('JsonPath objects', () => {
  it('can be evaluated again and again, ranges included', () => {
    const path = parseJsonPath('{range .a[*]}{@},{end}');
    expect(path.execute({ a: [1, 2] })).toBe('1,2,');
    expect(path.execute({ a: [3] })).toBe('3,');
    expect(() => path.execute({ a: [[]] }, { maxSteps: 2 })).toThrow(JsonPathError);
    expect(path.execute({ a: [4] })).toBe('4,');
  });
});
