/**
 * Builds tree nodes with fresh ids and records where each starts, for the parser and the macros.
 */
import type { ComprehensionExpr, Expr, MapEntry, StructField } from './ast.js';
import { ACCUMULATOR } from './ast.js';
import type { Value } from '../values/values.js';

/** Node construction with id allocation; `at` is the UTF-16 offset new nodes are attributed to. */
export class ExprFactory {
  private next = 1;
  readonly offsets = new Map<number, number>();

  /** A fresh id starting at `offset`. */
  id(offset: number): number {
    const id = this.next++;
    this.offsets.set(id, offset);
    return id;
  }
  literal(at: number, value: Value): Expr {
    return { kind: 'literal', id: this.id(at), value };
  }
  ident(at: number, name: string): Expr {
    return { kind: 'ident', id: this.id(at), name };
  }
  accuIdent(at: number): Expr {
    return this.ident(at, ACCUMULATOR);
  }
  select(at: number, operand: Expr, field: string, testOnly = false): Expr {
    return { kind: 'select', id: this.id(at), operand, field, testOnly };
  }
  call(at: number, fn: string, ...args: Expr[]): Expr {
    return { kind: 'call', id: this.id(at), fn, target: undefined, args };
  }
  callWithId(id: number, fn: string, args: Expr[], target?: Expr): Expr {
    return { kind: 'call', id, fn, target, args };
  }
  memberCall(at: number, fn: string, target: Expr, ...args: Expr[]): Expr {
    return { kind: 'call', id: this.id(at), fn, target, args };
  }
  list(at: number, elements: Expr[] = [], optionalIndices: number[] = []): Expr {
    return { kind: 'list', id: this.id(at), elements, optionalIndices };
  }
  map(at: number, entries: MapEntry[] = []): Expr {
    return { kind: 'map', id: this.id(at), entries };
  }
  struct(id: number, typeName: string, fields: StructField[]): Expr {
    return { kind: 'struct', id, typeName, fields };
  }
  comprehension(at: number, parts: Omit<ComprehensionExpr, 'kind' | 'id' | 'iterVar2' | 'accuVar'> & { iterVar2?: string; accuVar?: string }): Expr {
    return { kind: 'comprehension', id: this.id(at), iterVar2: undefined, accuVar: ACCUMULATOR, ...parts };
  }
}
