/**
 * The CEL type checker, ported rule for rule from cel-go's checker/checker.go so that compile
 * errors carry cel-go's exact messages: `undeclared reference to 'x' (in container '')`,
 * `undefined field 'foo'`, `found no matching overload for '_==_' applied to '(string, int)'`,
 * `expected type 'bool' but found 'int'` ...
 */
import type { ComprehensionExpr, Expr, ParsedExpr } from '../syntax/ast.js';
import type { Issue } from '../syntax/issues.js';
import type { Overload } from '../functions/declarations.js';
import { TypeMapping, isAssignable, isAssignableList, isDynOrError, mostGeneral, substitute } from '../types/assignability.js';
import {
  BOOL,
  BYTES,
  CelType,
  DOUBLE,
  DYN,
  ERROR,
  INT,
  NULL,
  STRING,
  UINT,
  formatFunction,
  formatType,
  functionType,
  isExactType,
  isOptional,
  listType,
  mapType,
  optionalType,
  typeParam,
} from '../types/types.js';
import { CelUint } from '../values/values.js';
import type { CheckerEnv, IdentDecl } from './env.js';

/** What a node refers to: a variable (by its resolved name) or the overloads a call may take. */
export type Reference = { readonly kind: 'ident'; readonly name: string } | { readonly kind: 'function'; readonly overloads: readonly string[] };

/** A checked expression: the tree, each node's type and each name's or call's reference. */
export interface CheckedExpr {
  readonly parsed: ParsedExpr;
  readonly types: ReadonlyMap<number, CelType>;
  readonly refs: ReadonlyMap<number, Reference>;
}

/** The result of checking: the checked expression when there were no errors. */
export interface CheckResult {
  readonly checked: CheckedExpr | undefined;
  readonly issues: Issue[];
}

class Scopes {
  private readonly frames: Map<string, IdentDecl>[] = [];
  push(): void {
    this.frames.push(new Map());
  }
  pop(): void {
    this.frames.pop();
  }
  add(d: IdentDecl): void {
    this.frames[this.frames.length - 1]!.set(d.name, d);
  }
  find(name: string): IdentDecl | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const d = this.frames[i]!.get(name);
      if (d) return d;
    }
    return undefined;
  }
}

class Checker {
  readonly types = new Map<number, CelType>();
  readonly refs = new Map<number, Reference>();
  readonly issues: Issue[] = [];
  private mappings = new TypeMapping();
  private freeTypeVars = 0;
  private readonly scopes = new Scopes();

  constructor(
    private readonly env: CheckerEnv,
    private readonly parsed: ParsedExpr,
  ) {}

  private error(id: number, message: string): void {
    this.issues.push({ offset: this.parsed.offsets.get(id), message });
  }
  private setType(e: { id: number }, t: CelType): void {
    this.types.set(e.id, t);
  }
  private getType(e: { id: number }): CelType {
    return this.types.get(e.id) ?? ERROR;
  }
  private lookupIdent(name: string): IdentDecl | undefined {
    if (!name.startsWith('.')) {
      const local = this.scopes.find(name);
      if (local) return local;
    }
    return this.env.lookupIdent(name);
  }

  check(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        this.setType(e, literalType(e.value));
        return;
      case 'ident':
        return this.checkIdent(e);
      case 'select':
        return this.checkSelect(e);
      case 'call':
        return this.checkCall(e);
      case 'list':
        return this.checkList(e);
      case 'map':
        return this.checkMap(e);
      case 'struct':
        return this.checkStruct(e);
      case 'comprehension':
        return this.checkComprehension(e);
    }
  }

  private checkIdent(e: Extract<Expr, { kind: 'ident' }>): void {
    const d = this.lookupIdent(e.name);
    if (d) {
      this.setType(e, d.type);
      this.refs.set(e.id, { kind: 'ident', name: d.name });
      return;
    }
    this.setType(e, ERROR);
    this.error(e.id, `undeclared reference to '${e.name}' (in container '')`);
  }

  private checkSelect(e: Extract<Expr, { kind: 'select' }>): void {
    // A qualified name such as `a.b.c` may name a declared identifier as a whole.
    if (!e.testOnly) {
      const qualifiers: string[] = [];
      let cur: Expr = e;
      while (cur.kind === 'select' && !cur.testOnly) {
        qualifiers.unshift(cur.field);
        cur = cur.operand;
      }
      if (cur.kind === 'ident' && !this.scopes.find(cur.name)) {
        const d = this.env.lookupIdent([cur.name, ...qualifiers].join('.'));
        if (d) {
          this.setType(e, d.type);
          this.refs.set(e.id, { kind: 'ident', name: d.name });
          return;
        }
      }
    }
    let result = this.checkSelectField(e, e.operand, e.field, false);
    if (e.testOnly) result = BOOL;
    this.setType(e, substitute(this.mappings, result, false));
  }

  private checkSelectField(e: Expr, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const operandType = substitute(this.mappings, this.getType(operand), false);
    const [target, isOpt] = isOptional(operandType) ? [operandType.params[0]!, true] : [operandType, false];
    let result: CelType = ERROR;
    switch (target.kind) {
      case 'map':
        result = target.params[1]!;
        break;
      case 'struct': {
        const ft = this.lookupFieldType(e.id, target.name, field);
        if (ft) result = ft;
        break;
      }
      case 'typeparam':
        this.isAssignable(DYN, target);
        result = DYN;
        break;
      default:
        if (!isDynOrError(target)) this.error(e.id, `type '${formatType(target)}' does not support field selection`);
        result = DYN;
    }
    return isOpt || optional ? optionalType(result) : result;
  }

  private lookupFieldType(id: number, structName: string, field: string): CelType | undefined {
    if (!this.env.types.hasStructType(structName)) {
      this.error(id, `unexpected failed resolution of '${structName}'`);
      return undefined;
    }
    const t = this.env.types.fieldType(structName, field);
    if (t) return t;
    this.error(id, `undefined field '${field}'`);
    return undefined;
  }

  private checkOptSelect(e: Extract<Expr, { kind: 'call' }>): void {
    const [operand, field] = e.args as [Expr, Expr];
    if (field.kind !== 'literal' || typeof field.value !== 'string') {
      this.error(field.id, `unsupported optional field selection: ${field.kind}`);
      return;
    }
    const result = this.checkSelectField(e, operand, field.value, true);
    this.setType(e, substitute(this.mappings, result, false));
    this.refs.set(e.id, { kind: 'function', overloads: ['select_optional_field'] });
  }

  private checkCall(e: Extract<Expr, { kind: 'call' }>): void {
    if (e.fn === '_?._' && !e.target) return this.checkOptSelect(e);
    for (const a of e.args) this.check(a);
    if (!e.target) {
      const fn = this.env.functions.lookup(e.fn);
      if (!fn) {
        this.error(e.id, `undeclared reference to '${e.fn}' (in container '')`);
        this.setType(e, ERROR);
        return;
      }
      return this.resolveOverloadOrError(e, fn.name, fn.overloads, undefined);
    }
    // `sets.contains(...)`: a receiver that is a qualified name may be a function's namespace.
    const qualified = qualifiedName(e.target);
    if (qualified !== undefined) {
      const fn = this.env.functions.lookup(`${qualified}.${e.fn}`);
      if (fn) {
        e.fn = fn.name;
        e.target = undefined;
        return this.resolveOverloadOrError(e, fn.name, fn.overloads, undefined);
      }
    }
    this.check(e.target);
    const fn = this.env.functions.lookup(e.fn);
    if (fn) return this.resolveOverloadOrError(e, fn.name, fn.overloads, e.target);
    this.setType(e, ERROR);
    this.error(e.id, `undeclared reference to '${e.fn}' (in container '')`);
  }

  private resolveOverloadOrError(e: Extract<Expr, { kind: 'call' }>, name: string, overloads: readonly Overload[], target: Expr | undefined): void {
    const argTypes: CelType[] = [];
    if (target) argTypes.push(this.getType(target));
    for (const a of e.args) argTypes.push(this.getType(a));
    let resultType: CelType | undefined;
    const ids: string[] = [];
    for (const o of overloads) {
      if ((target === undefined && o.member) || (target !== undefined && !o.member)) continue;
      if (name === '_&&_' || name === '_||_') {
        let failed = false;
        argTypes.forEach((t, i) => {
          if (!this.isAssignable(t, BOOL)) {
            this.error(e.args[i]!.id, `expected type 'bool' but found '${formatType(t)}'`);
            failed = true;
          }
        });
        if (failed) {
          this.setType(e, ERROR);
          return;
        }
        this.setType(e, BOOL);
        this.refs.set(e.id, { kind: 'function', overloads: [o.id] });
        return;
      }
      let signature = functionType(o.result, o.args);
      if (o.typeParams.length > 0) {
        const subs = new TypeMapping();
        for (const p of o.typeParams) subs.add(typeParam(p), this.newTypeVar());
        signature = substitute(subs, signature, false);
      }
      const candidate = signature.params.slice(1);
      if (this.isAssignableList(argTypes, candidate)) {
        ids.push(o.id);
        const fnResult = substitute(this.mappings, signature.params[0]!, false);
        if (resultType === undefined) resultType = fnResult;
        else if (resultType.kind !== 'dyn' && resultType.kind !== 'any' && !isExactType(fnResult, resultType)) resultType = DYN;
      }
    }
    if (resultType === undefined) {
      const shown = argTypes.map((t) => substitute(this.mappings, t, true));
      this.error(e.id, `found no matching overload for '${name}' applied to '${formatFunction(undefined, shown, target !== undefined)}'`);
      this.setType(e, ERROR);
      return;
    }
    this.setType(e, resultType);
    this.refs.set(e.id, { kind: 'function', overloads: ids });
  }

  private checkList(e: Extract<Expr, { kind: 'list' }>): void {
    let elemsType: CelType | undefined;
    const optionals = new Set(e.optionalIndices);
    e.elements.forEach((el, i) => {
      this.check(el);
      let t = this.getType(el);
      if (optionals.has(i)) {
        if (isOptional(t)) t = t.params[0]!;
        else if (t.kind !== 'dyn' && t.kind !== 'any') this.error(el.id, `expected type '${formatType(optionalType(t))}' but found '${formatType(t)}'`);
      }
      elemsType = this.joinTypes(el, elemsType, t);
    });
    this.setType(e, listType(elemsType ?? this.newTypeVar()));
  }

  private checkMap(e: Extract<Expr, { kind: 'map' }>): void {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    for (const entry of e.entries) {
      this.check(entry.key);
      keyType = this.joinTypes(entry.key, keyType, this.getType(entry.key));
      this.check(entry.value);
      let vt = this.getType(entry.value);
      if (entry.optional) {
        if (isOptional(vt)) vt = vt.params[0]!;
        else if (vt.kind !== 'dyn' && vt.kind !== 'any')
          this.error(entry.value.id, `expected type '${formatType(optionalType(vt))}' but found '${formatType(vt)}'`);
      }
      valueType = this.joinTypes(entry.value, valueType, vt);
    }
    this.setType(e, mapType(keyType ?? this.newTypeVar(), valueType ?? this.newTypeVar()));
  }

  private checkStruct(e: Extract<Expr, { kind: 'struct' }>): void {
    // No environment of Kubernetes' declares a message type that can be built.
    this.error(e.id, `undeclared reference to '${e.typeName}' (in container '')`);
    this.setType(e, ERROR);
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.scopes.push();
    this.scopes.add({ name: e.accuVar, type: accuType });
    let varType: CelType;
    let var2Type: CelType | undefined;
    const two = e.iterVar2 !== undefined;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.params[0]!;
        if (two) {
          var2Type = varType;
          varType = INT;
        }
        break;
      case 'map':
        varType = rangeType.params[0]!;
        if (two) var2Type = rangeType.params[1]!;
        break;
      case 'dyn':
      case 'any':
      case 'error':
      case 'typeparam':
        this.isAssignable(DYN, rangeType);
        varType = DYN;
        if (two) var2Type = DYN;
        break;
      default:
        this.error(e.iterRange.id, `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        varType = ERROR;
        if (two) var2Type = ERROR;
    }
    this.scopes.push();
    this.scopes.add({ name: e.iterVar, type: varType });
    if (two) this.scopes.add({ name: e.iterVar2!, type: var2Type! });
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, BOOL);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scopes.pop();
    this.check(e.result);
    this.scopes.pop();
    this.setType(e, substitute(this.mappings, this.getType(e.result), false));
  }

  private joinTypes(e: Expr, previous: CelType | undefined, current: CelType): CelType {
    if (previous === undefined) return current;
    if (this.isAssignable(previous, current)) return mostGeneral(previous, current);
    // Kubernetes' environment requires homogeneous aggregate literals.
    this.error(e.id, `expected type '${formatType(previous)}' but found '${formatType(current)}'`);
    return ERROR;
  }

  private newTypeVar(): CelType {
    return typeParam(`_var${this.freeTypeVars++}`);
  }
  private isAssignable(t1: CelType, t2: CelType): boolean {
    const m = isAssignable(this.mappings, t1, t2);
    if (!m) return false;
    this.mappings = m;
    return true;
  }
  private isAssignableList(l1: readonly CelType[], l2: readonly CelType[]): boolean {
    const m = isAssignableList(this.mappings, l1, l2);
    if (!m) return false;
    this.mappings = m;
    return true;
  }
  private assertType(e: Expr, t: CelType): void {
    if (!this.isAssignable(t, this.getType(e))) this.error(e.id, `expected type '${formatType(t)}' but found '${formatType(this.getType(e))}'`);
  }

  /** Replaces type variables left in the type map, unbound ones by dyn. */
  finish(): void {
    for (const [id, t] of this.types) this.types.set(id, substitute(this.mappings, t, true));
  }
}

function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const prefix = qualifiedName(e.operand);
    return prefix === undefined ? undefined : `${prefix}.${e.field}`;
  }
  return undefined;
}

function literalType(v: unknown): CelType {
  if (v === null) return NULL;
  if (typeof v === 'boolean') return BOOL;
  if (typeof v === 'bigint') return INT;
  if (typeof v === 'number') return DOUBLE;
  if (typeof v === 'string') return STRING;
  if (v instanceof Uint8Array) return BYTES;
  if (v instanceof CelUint) return UINT;
  return DYN;
}

/** Type-checks a parsed expression. */
export function check(parsed: ParsedExpr, env: CheckerEnv): CheckResult {
  const c = new Checker(env, parsed);
  c.check(parsed.expr);
  c.finish();
  if (c.issues.length > 0) return { checked: undefined, issues: c.issues };
  return { checked: { parsed, types: c.types, refs: c.refs }, issues: [] };
}
