/**
 * The parse tree of a JSONPath template, node for node as client-go's `util/jsonpath/node.go`
 * builds it: the evaluator (evaluate.ts) walks it as client-go's `JSONPath.walk` does, so the
 * shape decides behaviour (a bracket key `['a.b']` is two field nodes, `[*]` is a slice with no
 * bounds, `[-1]` a slice whose end is derived from its start).
 */

/** A sequence of nodes: the template's top level, one `{...}` action, a union member, a filter side. */
export interface ListNode {
  readonly type: 'list';
  readonly nodes: JsonPathNode[];
}

/** Plain text: template text between actions, or a quoted string inside one. */
export interface TextNode {
  readonly type: 'text';
  readonly text: string;
}

/** `.name`: a map key (backslashes removed, so `kubernetes\.io/name` is one key). */
export interface FieldNode {
  readonly type: 'field';
  readonly name: string;
}

/** A bare word: `range` and `end` mean something, any other fails when evaluated. */
export interface IdentifierNode {
  readonly type: 'identifier';
  readonly name: string;
}

/**
 * One bound of a slice (client-go's `ParamsEntry`). Values are Go `int`s (64 bits): kept as
 * bigint so `[9223372036854775807]` behaves, and overflows, as it does in Go.
 */
export interface SliceParam {
  readonly value: bigint;
  /** Written in the template (or derived); an unknown start is 0, an unknown end the length. */
  readonly known: boolean;
  /** The end of an index `[i]`: i+1, where 0 means "to the end" (so `[-1]` is the last item). */
  readonly derived: boolean;
}

/** `[i]`, `[a:b]`, `[a:b:step]`, `[*]`: start, end and step. */
export interface ArrayNode {
  readonly type: 'array';
  readonly params: readonly [SliceParam, SliceParam, SliceParam];
}

/** `[?(left op right)]`, or `[?(path)]` (operator `exists`). */
export interface FilterNode {
  readonly type: 'filter';
  readonly left: ListNode;
  readonly right: ListNode;
  /** The operator as written (`==`, `!=`, `<`, `>`, `<=`, `>=`, anything else made of `!<>=` fails when evaluated), or `exists`. */
  readonly operator: string;
}

/** An integer literal (a Go `int`). */
export interface IntNode {
  readonly type: 'int';
  readonly value: number;
}

/** A float literal (a Go `float64`), e.g. `1.5`, `2.0`, or an integer too large for an int. */
export interface FloatNode {
  readonly type: 'float';
  readonly value: number;
}

/** `true` or `false`. */
export interface BoolNode {
  readonly type: 'bool';
  readonly value: boolean;
}

/** `.*` (and `[*]` is a slice): every member value or item. */
export interface WildcardNode {
  readonly type: 'wildcard';
}

/** `..`: the value and everything inside it. */
export interface RecursiveNode {
  readonly type: 'recursive';
}

/** `[a,b,...]`: each member's results in turn. */
export interface UnionNode {
  readonly type: 'union';
  readonly nodes: ListNode[];
}

/** Any node of a parsed JSONPath template. */
export type JsonPathNode =
  ListNode | TextNode | FieldNode | IdentifierNode | ArrayNode | FilterNode | IntNode | FloatNode | BoolNode | WildcardNode | RecursiveNode | UnionNode;
