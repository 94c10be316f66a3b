/**
 * The CEL abstract syntax tree, in the shape cel-go's checker, planner and cost estimator walk
 * (common/ast): macros are already expanded into comprehensions, every node has an id, and the
 * parser records where each id starts in the source.
 */
import type { Value } from '../values/values.js';

/** A node of the tree. Every node has an id unique within its expression. */
export type Expr = LiteralExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr;

/** A constant: int (bigint), uint, double (number), string, bytes, bool or null. */
export interface LiteralExpr {
  readonly kind: 'literal';
  readonly id: number;
  readonly value: Value;
}

/** A name: a variable, or (after checking) a qualified name the checker resolved. */
export interface IdentExpr {
  readonly kind: 'ident';
  readonly id: number;
  name: string;
}

/** `operand.field`, or `has(operand.field)` when `testOnly`. */
export interface SelectExpr {
  readonly kind: 'select';
  readonly id: number;
  readonly operand: Expr;
  readonly field: string;
  readonly testOnly: boolean;
}

/** A function or operator call; `target` is the receiver of a member call. */
export interface CallExpr {
  readonly kind: 'call';
  readonly id: number;
  fn: string;
  target: Expr | undefined;
  readonly args: Expr[];
}

/** `[a, ?b]`: `optionalIndices` lists the elements written with `?`. */
export interface ListExpr {
  readonly kind: 'list';
  readonly id: number;
  readonly elements: Expr[];
  readonly optionalIndices: readonly number[];
}

/** One `key: value` of a map literal. */
export interface MapEntry {
  readonly id: number;
  readonly key: Expr;
  readonly value: Expr;
  readonly optional: boolean;
}

/** `{k: v, ?k2: v2}`. */
export interface MapExpr {
  readonly kind: 'map';
  readonly id: number;
  readonly entries: MapEntry[];
}

/** One `field: value` of a message literal. */
export interface StructField {
  readonly id: number;
  readonly name: string;
  readonly value: Expr;
  readonly optional: boolean;
}

/** `Type{field: value}`. */
export interface StructExpr {
  readonly kind: 'struct';
  readonly id: number;
  readonly typeName: string;
  readonly fields: StructField[];
}

/** The fold every macro expands to (cel-go's Comprehension). */
export interface ComprehensionExpr {
  readonly kind: 'comprehension';
  readonly id: number;
  readonly iterRange: Expr;
  readonly iterVar: string;
  /** The second variable of a two-variable comprehension (index or key, then value). */
  readonly iterVar2: string | undefined;
  readonly accuVar: string;
  readonly accuInit: Expr;
  readonly loopCondition: Expr;
  readonly loopStep: Expr;
  readonly result: Expr;
}

/** cel-go's name of the accumulator the macros declare (parser.HiddenAccumulatorName). */
export const ACCUMULATOR = '@result';
/** The accumulator name older parsers used; an iteration variable may not take it either. */
export const LEGACY_ACCUMULATOR = '__result__';

/** A parsed expression: its tree and, per node id, the UTF-16 offset where the node starts. */
export interface ParsedExpr {
  readonly expr: Expr;
  readonly offsets: ReadonlyMap<number, number>;
  readonly source: string;
}

/** Calls `visit` on `e` and every node below it, parents first. */
export function walkExpr(e: Expr, visit: (e: Expr) => void): void {
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    visit(cur);
    switch (cur.kind) {
      case 'select':
        stack.push(cur.operand);
        break;
      case 'call':
        for (let i = cur.args.length - 1; i >= 0; i--) stack.push(cur.args[i]!);
        if (cur.target) stack.push(cur.target);
        break;
      case 'list':
        for (let i = cur.elements.length - 1; i >= 0; i--) stack.push(cur.elements[i]!);
        break;
      case 'map':
        for (let i = cur.entries.length - 1; i >= 0; i--) stack.push(cur.entries[i]!.value, cur.entries[i]!.key);
        break;
      case 'struct':
        for (let i = cur.fields.length - 1; i >= 0; i--) stack.push(cur.fields[i]!.value);
        break;
      case 'comprehension':
        stack.push(cur.result, cur.loopStep, cur.loopCondition, cur.accuInit, cur.iterRange);
        break;
      default:
        break;
    }
  }
}
