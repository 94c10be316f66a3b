/**
 * Type unification for the checker: which argument types an overload accepts and what its type
 * parameters stand for (cel-go checker/types.go and mapping.go). Substitutions live in a
 * `TypeMapping`, copied before each attempt so a failed overload leaves no trace.
 */
import { BOOL, CelType, DYN, formatType, isAssignableType, isExactType, listType, mapType, typeOfType } from './types.js';

/** The type parameters bound so far, by name. */
export class TypeMapping {
  private readonly m: Map<string, CelType>;
  constructor(from?: Map<string, CelType>) {
    this.m = new Map(from);
  }
  add(from: CelType, to: CelType): void {
    this.m.set(formatType(from), to);
  }
  find(from: CelType): CelType | undefined {
    return this.m.get(formatType(from));
  }
  copy(): TypeMapping {
    return new TypeMapping(this.m);
  }
}

function isDyn(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'any';
}

/** dyn, any or the error type. */
export function isDynOrError(t: CelType): boolean {
  return t.kind === 'error' || isDyn(t);
}

function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === 'typeparam') return true;
  if (isDyn(t2) || t2.kind === 'typeparam') return false;
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case 'opaque':
      if (t1.name !== t2.name || t1.params.length !== t2.params.length) return false;
      return t1.params.every((p, i) => isEqualOrLessSpecific(p, t2.params[i]!));
    case 'list':
      return isEqualOrLessSpecific(t1.params[0]!, t2.params[0]!);
    case 'map':
      return isEqualOrLessSpecific(t1.params[0]!, t2.params[0]!) && isEqualOrLessSpecific(t1.params[1]!, t2.params[1]!);
    case 'type':
      return true;
    default:
      return isExactType(t1, t2);
  }
}

/** The less specific of two types that unify (cel-go mostGeneral). */
export function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

function notReferencedIn(m: TypeMapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  switch (within.kind) {
    case 'typeparam': {
      const sub = m.find(within);
      return sub === undefined ? true : notReferencedIn(m, t, sub);
    }
    case 'opaque':
    case 'list':
    case 'map':
    case 'type':
      return within.params.every((p) => notReferencedIn(m, t, p));
    default:
      return true;
  }
}

function isValidTypeSubstitution(m: TypeMapping, t1: CelType, t2: CelType): [valid: boolean, hasSub: boolean] {
  if (t1.kind === t2.kind && isExactType(t1, t2)) return [true, true];
  const t2Sub = m.find(t2);
  if (t2Sub) {
    if (t1.kind === t2Sub.kind && isExactType(t1, t2Sub)) return [true, true];
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.add(t2, t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return [true, false];
  }
  return [false, false];
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'struct' || t.kind === 'any' || t.kind === 'duration' || t.kind === 'timestamp';
}

function internalIsAssignableNull(t: CelType): boolean {
  return isLegacyNullable(t) || t.kind === 'null' || t.kind === 'dyn';
}

function internalIsAssignableList(m: TypeMapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  for (let i = 0; i < l1.length; i++) if (!internalIsAssignable(m, l1[i]!, l2[i]!)) return false;
  return true;
}

function internalIsAssignable(m: TypeMapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'typeparam') {
    const [valid, t2HasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (t2HasSub) return false;
  }
  if (t1.kind === 'typeparam') return isValidTypeSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null') return internalIsAssignableNull(t2);
  if (t2.kind === 'null') return internalIsAssignableNull(t1);
  switch (t1.kind) {
    case 'bool':
    case 'bytes':
    case 'double':
    case 'int':
    case 'string':
    case 'uint':
    case 'any':
    case 'duration':
    case 'timestamp':
    case 'struct':
      return isAssignableType(t1, t2);
    case 'type':
      return t2.kind === 'type';
    case 'opaque':
    case 'list':
    case 'map':
      return t1.kind === t2.kind && t1.name === t2.name && internalIsAssignableList(m, t1.params, t2.params);
    default:
      return false;
  }
}

/** Whether `t2` may be used where `t1` is expected: the extended mapping, or undefined. */
export function isAssignable(m: TypeMapping, t1: CelType, t2: CelType): TypeMapping | undefined {
  const copy = m.copy();
  return internalIsAssignable(copy, t1, t2) ? copy : undefined;
}

/** Whether each of `l2` may be used where the matching `l1` is expected. */
export function isAssignableList(m: TypeMapping, l1: readonly CelType[], l2: readonly CelType[]): TypeMapping | undefined {
  const copy = m.copy();
  return internalIsAssignableList(copy, l1, l2) ? copy : undefined;
}

/** Replaces bound type parameters in `t`; unbound ones become dyn when `typeParamToDyn`. */
export function substitute(m: TypeMapping, t: CelType, typeParamToDyn: boolean): CelType {
  const sub = m.find(t);
  if (sub) return substitute(m, sub, typeParamToDyn);
  if (typeParamToDyn && t.kind === 'typeparam') return DYN;
  switch (t.kind) {
    case 'opaque':
      return new CelType(
        'opaque',
        t.name,
        t.params.map((p) => substitute(m, p, typeParamToDyn)),
      );
    case 'list':
      return listType(substitute(m, t.params[0]!, typeParamToDyn));
    case 'map':
      return mapType(substitute(m, t.params[0]!, typeParamToDyn), substitute(m, t.params[1]!, typeParamToDyn));
    case 'type':
      return t.params.length > 0 ? typeOfType(substitute(m, t.params[0]!, typeParamToDyn)) : t;
    default:
      return t;
  }
}

/** Re-exported for the checker's `&&`/`||` rule. */
export { BOOL };
