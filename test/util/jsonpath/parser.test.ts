import { describe, expect, it } from 'vitest';
import { JsonPathError, parseJsonPath, type JsonPathNode, type ListNode, type SliceParam } from '../../../src/util/jsonpath/index.js';

// Small builders for expected trees.
const list = (...nodes: JsonPathNode[]): ListNode => ({ type: 'list', nodes });
const text = (t: string): JsonPathNode => ({ type: 'text', text: t });
const field = (name: string): JsonPathNode => ({ type: 'field', name });
const ident = (name: string): JsonPathNode => ({ type: 'identifier', name });
const int = (value: number): JsonPathNode => ({ type: 'int', value });
const float = (value: number): JsonPathNode => ({ type: 'float', value });
const bool = (value: boolean): JsonPathNode => ({ type: 'bool', value });
const p = (value: number | bigint, known: boolean, derived = false): SliceParam => ({ value: BigInt(value), known, derived });
const none = p(0, false);
const array = (a: SliceParam, b: SliceParam, c: SliceParam): JsonPathNode => ({ type: 'array', params: [a, b, c] });
const filter = (left: ListNode, operator: string, right: ListNode = list()): JsonPathNode => ({ type: 'filter', left, right, operator });

function tree(template: string): JsonPathNode[] {
  return parseJsonPath(template).root.nodes;
}

function parseError(template: string): string {
  try {
    parseJsonPath(template);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonPathError);
    return (e as Error).message;
  }
  throw new Error(`${template} parsed`);
}

describe('parseJsonPath: the parse tree', () => {
  it('keeps text outside actions and makes one list per action', () => {
    expect(tree('hello jsonpath')).toEqual([text('hello jsonpath')]);
    expect(tree('hello {.jsonpath}')).toEqual([text('hello '), list(field('jsonpath'))]);
    expect(tree('{.a} and {.b}!')).toEqual([list(field('a')), text(' and '), list(field('b')), text('!')]);
    expect(tree('')).toEqual([]);
    expect(tree('{}')).toEqual([list()]);
  });

  it('reads a bracket key as the fields it names, dots included', () => {
    expect(tree("hello {['jsonpath']}")).toEqual([text('hello '), list(field('jsonpath'))]);
    expect(tree("{['book.price']}")).toEqual([list(field('book'), field('price'))]);
    expect(tree("{['']}")).toEqual([list(field(''))]);
    // Only an escaped dot stays in a key.
    expect(tree('{.metadata.labels.kubernetes\\.io/hostname}')).toEqual([list(field('metadata'), field('labels'), field('kubernetes.io/hostname'))]);
    // Characters that end no field name stay in it.
    expect(tree('{$.Labels.web/html}')).toEqual([list(field('Labels'), field('web/html'))]);
    expect(tree('{.Labels.k8s-app}')).toEqual([list(field('Labels'), field('k8s-app'))]);
    expect(tree('{.a!}')).toEqual([list(field('a!'))]);
  });

  it('reads quoted strings, numbers and words', () => {
    expect(tree('{"{"}')).toEqual([list(text('{'))]);
    expect(tree(`{'it''s'}`)).toEqual([list(text('it'), text('s'))]);
    expect(tree('{"a\\tb\\u00e9\\x41\\101"}')).toEqual([list(text('a\tbéAA'))]);
    expect(tree('{"\\xc3\\xa9"}')).toEqual([list(text('é'))]);
    expect(tree('{3}')).toEqual([list(int(3))]);
    expect(tree('{-3 +4}')).toEqual([list(int(-3), int(4))]);
    expect(tree('{1.5}')).toEqual([list(float(1.5))]);
    expect(tree('{2.}')).toEqual([list(float(2))]);
    expect(tree('{.5}')).toEqual([list(field('5'))]);
    expect(tree('{99999999999999999999}')).toEqual([list(float(1e20))]);
    expect(tree('{true false}')).toEqual([list(bool(true), bool(false))]);
    expect(tree('{nil}')).toEqual([list(ident('nil'))]);
    expect(tree('{range .items}{.name},{end}')).toEqual([list(ident('range'), field('items')), list(field('name')), text(','), list(ident('end'))]);
  });

  it('reads slices: an index ends at index+1 (derived), `*` has no bounds', () => {
    expect(tree('{[1:3]}')).toEqual([list(array(p(1, true), p(3, true), none))]);
    expect(tree('{.book[*].author}')).toEqual([list(field('book'), array(none, none, none), field('author'))]);
    expect(tree('{[-5:]}')).toEqual([list(array(p(-5, true), none, none))]);
    expect(tree('{[-1]}')).toEqual([list(array(p(-1, true), p(0, true, true), none))]);
    expect(tree('{[1:-1]}')).toEqual([list(array(p(1, true), p(-1, true), none))]);
    expect(tree('{[::2]}')).toEqual([list(array(none, none, p(2, true)))]);
    expect(tree('{[1:4:]}')).toEqual([list(array(p(1, true), p(4, true), none))]);
    // An empty bracket is `[0]` with an unknown start.
    expect(tree('{[]}')).toEqual([list(array(none, p(1, true, true), none))]);
    // Go's int arithmetic wraps.
    expect(tree('{[9223372036854775807]}')).toEqual([list(array(p(9223372036854775807n, true), p(-9223372036854775808n, true, true), none))]);
  });

  it('reads wildcards, recursive descent and unions', () => {
    expect(tree('{.bicycle.*}')).toEqual([list(field('bicycle'), { type: 'wildcard' })]);
    expect(tree('{.\\*}')).toEqual([list(field('*'))]);
    expect(tree('{..}')).toEqual([list({ type: 'recursive' })]);
    expect(tree('{..price}')).toEqual([list({ type: 'recursive' }, field('price'))]);
    expect(tree('{...price}')).toEqual([list({ type: 'recursive' }, field('price'))]);
    expect(tree("{['bicycle.price', 3, 'book.price']}")).toEqual([
      list({
        type: 'union',
        nodes: [list(field('bicycle'), field('price')), list(array(p(3, true), p(4, true, true), none)), list(field('book'), field('price'))],
      }),
    ]);
  });

  it('reads filters: left, operator, right; a filter without operator tests existence', () => {
    expect(tree('{[?(@.price<3)]}')).toEqual([list(filter(list(field('price')), '<', list(int(3))))]);
    expect(tree('{[?(@.z)].id}')).toEqual([list(filter(list(field('z')), 'exists'), field('id'))]);
    expect(tree('{[?(@.status.nodeInfo.osImage == "()")]}')).toEqual([
      list(filter(list(field('status'), field('nodeInfo'), field('osImage')), '==', list(text('()')))),
    ]);
    expect(tree('{[?(@.x == "(\\"\\")")]}')).toEqual([list(filter(list(field('x')), '==', list(text('("")'))))]);
    expect(tree('{[?(@.test == "())(")]}')).toEqual([list(filter(list(field('test')), '==', list(text('())('))))]);
    expect(tree("{[?(@.x == 'Linux')]}")).toEqual([list(filter(list(field('x')), '==', list(text('Linux'))))]);
    expect(tree('{[?(@.x == "{[()]}")]}')).toEqual([list(filter(list(field('x')), '==', list(text('{[()]}'))))]);
    expect(tree(`{[?(@.x == "''")]}`)).toEqual([list(filter(list(field('x')), '==', list(text("''"))))]);
    expect(tree(`{[?(@.x == '""')]}`)).toEqual([list(filter(list(field('x')), '==', list(text('""'))))]);
    expect(tree(`{[?(@.x == '\\\\\\'')]}`)).toEqual([list(filter(list(field('x')), '==', list(text("\\'"))))]);
    // Any run of !<>= is the operator; an unknown one fails only when evaluated.
    expect(tree('{[?(@.a<>10)]}')).toEqual([list(filter(list(field('a')), '<>', list(int(10))))]);
  });

  it('keeps only the first action of a bracket key, as client-go does', () => {
    expect(tree("{['a}b']}")).toEqual([list(field('a'))]);
  });
});

describe('parseJsonPath: errors, word for word', () => {
  it.each([
    ['{.hello', 'unclosed action'],
    ['{', 'unclosed action'],
    ['{.a\n}', 'unclosed action'],
    ['{.a\r}', 'unclosed action'],
    ['{*}', "unrecognized character in action: U+002A '*'"],
    ['{!}', "unrecognized character in action: U+0021 '!'"],
    ['{.a !}', "unrecognized character in action: U+0021 '!'"],
    ['{.a ==}', "unrecognized character in action: U+003D '='"],
    ['{\t}', 'unrecognized character in action: U+0009'],
    ['{\u00a0}', 'unrecognized character in action: U+00A0'],
    ['{😀}', "unrecognized character in action: U+1F600 '😀'"],
    ['{\\\\\\}', "unrecognized character in action: U+005C '\\'"],
    ['{+12.3.0}', 'cannot parse number +12.3.0'],
    ['{+}', 'cannot parse number +'],
    ['{١}', 'cannot parse number ١'],
    ['{1' + '0'.repeat(400) + '}', `cannot parse number 1${'0'.repeat(400)}`],
    ['{[1}', 'unterminated array'],
    ['{[1\n]}', 'unterminated array'],
    ['{[a]}', 'invalid array index a'],
    ['{[1:2:3:4]}', 'invalid array index 1:2:3:4'],
    ["{['a]}", "invalid array index 'a"],
    ['{[-]}', 'array index - is not a number'],
    ['{[1:-]}', 'array index - is not a number'],
    ['{[99999999999999999999]}', 'array index 99999999999999999999 is not a number'],
    ['{[1,a]}', 'invalid array index a'],
    ['{[?(.price]}', 'unterminated filter'],
    ['{[?(@.a}', 'unterminated filter'],
    ['{[?(@.a)}', 'unclosed array expect ]'],
    ['{[?(@.a)x]}', 'unclosed array expect ]'],
    ['{[?(==1)]}', "unrecognized character in action: U+003D '='"],
    ['{........}', 'invalid multiple recursive descent'],
    ['{..*}', "unrecognized character in action: U+002A '*'"],
    ['{....a}', 'invalid multiple recursive descent'],
    ['{"abc}', 'unterminated quoted string'],
    ['{"a\nb"}', 'unterminated quoted string'],
    ["{'\\\\'}", 'unterminated quoted string'],
    ['{"\\q"}', 'unquote string "\\q" error invalid syntax'],
    ['{"a\\\\"b"}', 'unquote string "a\\\\"b" error invalid syntax'],
    ['{"\\\'"}', 'unquote string "\\\'" error invalid syntax'],
    ['{"\\ud800"}', 'unquote string "\\ud800" error invalid syntax'],
    ['{"\\400"}', 'unquote string "\\400" error invalid syntax'],
    ['{"\\x4"}', 'unquote string "\\x4" error invalid syntax'],
  ])('%j fails with %j', (template, message) => {
    expect(parseError(template)).toBe(message);
  });

  it('checks what is inside a printer column path as Kubernetes wraps it', () => {
    expect(parseError('{.status.conditions[?(@.type=="Ready"].status}')).toBe('unterminated filter');
    expect(parseError('{.spec.containers[x].image}')).toBe('invalid array index x');
    expect(parseJsonPath('{.spec.replicas}', 'Replicas').name).toBe('Replicas');
  });
});
