/**
 * structured-merge-diff's operations on typed values, over plain JSON: `Compare` (which fields
 * were added, modified, removed), `Merge` (an apply configuration into the live object),
 * `RemoveItems` (pruning), `EnsureNamedFieldsAreMembers` and the validation SMD runs when it
 * types an apply configuration. Inputs are never mutated; outputs share no structure with them.
 *
 * "Absent" (Go's nil `Value`) is `undefined`; JSON `null` is a present value.
 */
import type { StructuralNode } from '../../schema/structural.js';
import { goFormatFloat } from '../../util/go-format.js';
import { goPrintValue } from '../../util/go-print.js';
import { isJsonObject } from '../../util/go-value.js';
import { cloneJsonDocument } from '../../util/json-clone.js';
import { jsonEqual } from '../../util/json-equal.js';
import { getOwn, setOwn } from '../../util/own.js';
import { comparePathElements, pathElement, pathElementString, PathElementMap, type PathElement } from './field-path.js';
import { FieldSet, FieldSetBuilder } from './field-set.js';
import { deduce, fieldType, fieldTypeLenient, resolve, type Atom, type ListAtom, type TypeRef } from './schema.js';
import { ListItemError, listItemPathElement, tryListItemPathElement } from './to-field-set.js';
import { hasDefinedOwn, ownKeys } from './value.js';

const NO_KEYS: readonly string[] = [];

// ---------------------------------------------------------------------------------------------
// Compare

/** What changed between two objects (SMD's `typed.Comparison`). */
export interface Comparison {
  readonly removed: FieldSet;
  readonly modified: FieldSet;
  readonly added: FieldSet;
}

interface CompareOut {
  removed: FieldSetBuilder;
  modified: FieldSetBuilder;
  added: FieldSetBuilder;
}

interface Walk {
  inLeaf: boolean;
}

function mapOf(v: unknown): Record<string, unknown> | undefined {
  return isJsonObject(v) ? v : undefined;
}

function listOf(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

function handle(atom: Atom, on: { map: () => void; scalar: () => void; list: () => void }): void {
  if (atom.map) on.map();
  else if (atom.scalar) on.scalar();
  else if (atom.list) on.list();
}

/**
 * SMD's `compare` of one node. Written without per-call closures: this runs for every field of
 * every write (field management), so it allocates only what the result needs.
 */
function compareNode(l: unknown, r: unknown, t: TypeRef, path: PathElement[], out: CompareOut): void {
  const atom = resolve(t);
  const al = deduce(atom, l);
  const ar = deduce(atom, r);
  const w: Walk = { inLeaf: false };
  if (r === undefined) compareAtom(al, l, r, path, out, w);
  else if (l === undefined || al === ar) compareAtom(ar, l, r, path, out, w);
  else {
    compareAtom(al, l, r, path, out, { ...w });
    compareAtom(ar, l, r, path, out, w);
  }
  if (!w.inLeaf) {
    if (l === undefined) out.added.insert(path);
    else if (r === undefined) out.removed.insert(path);
  }
}

/** The node compared as one leaf (once per walk state). */
function compareLeaf(l: unknown, r: unknown, path: PathElement[], out: CompareOut, state: Walk): void {
  if (state.inLeaf) return;
  state.inLeaf = true;
  if (l === undefined) out.added.insert(path);
  else if (r === undefined) out.removed.insert(path);
  else if (!jsonEqual(l, r)) out.modified.insert(path);
}

/** The node compared as the atom `a` says: a map's fields, a list's items, or a leaf. */
function compareAtom(a: Atom, l: unknown, r: unknown, path: PathElement[], out: CompareOut, state: Walk): void {
  if (a.map) {
    const m = a.map;
    const lm = mapOf(l);
    const rm = mapOf(r);
    const lKeys = lm ? ownKeys(lm) : NO_KEYS;
    const rKeys = rm ? ownKeys(rm) : NO_KEYS;
    if (m.atomic || (lKeys.length === 0 && rKeys.length === 0)) {
      compareLeaf(l, r, path, out, state);
      return;
    }
    // The keys of the left side, then those only on the right; `path` grows and shrinks in place
    // (the builders keep its elements, never the array).
    for (const k of lKeys) {
      path.push(pathElement.field(k));
      compareNode(getOwn(lm!, k), rm && getOwn(rm, k), fieldTypeLenient(m, k), path, out);
      path.pop();
    }
    for (const k of rKeys) {
      if (lm && hasDefinedOwn(lm, k)) continue;
      path.push(pathElement.field(k));
      compareNode(undefined, getOwn(rm!, k), fieldTypeLenient(m, k), path, out);
      path.pop();
    }
  } else if (a.scalar) {
    compareLeaf(l, r, path, out, state);
  } else if (a.list) {
    const list = a.list;
    const ll = listOf(l);
    const rl = listOf(r);
    const empty = (!ll || ll.length === 0) && (!rl || rl.length === 0);
    if (list.atomic || empty) {
      compareLeaf(l, r, path, out, state);
      return;
    }
    compareListItems(list, ll ?? [], rl ?? [], path, out);
  }
}

function compareListItems(list: ListAtom, lhs: unknown[], rhs: unknown[], path: PathElement[], out: CompareOut): void {
  const all: PathElement[] = [];
  const lValues = new PathElementMap<unknown[]>();
  for (const item of lhs) {
    const pe = tryListItemPathElement(list, item);
    if (!pe) continue;
    const seen = lValues.get(pe);
    if (seen) seen.push(item);
    else {
      lValues.set(pe, [item]);
      all.push(pe);
    }
  }
  const rValues = new PathElementMap<unknown[]>();
  for (const item of rhs) {
    const pe = tryListItemPathElement(list, item);
    if (!pe) continue;
    const seen = rValues.get(pe);
    if (seen) seen.push(item);
    else {
      rValues.set(pe, [item]);
      if (!lValues.has(pe)) all.push(pe);
    }
  }
  for (const pe of all) {
    const lList = lValues.get(pe) ?? [];
    const rList = rValues.get(pe) ?? [];
    path.push(pe);
    if (lList.length <= 1 && rList.length <= 1) {
      compareNode(lList[0], rList[0], list.elem, path, out);
    } else if (lList.length >= 2 && rList.length >= 2) {
      if (lList.length !== rList.length || !lList.every((x, i) => jsonEqual(x, rList[i]))) out.modified.insert(path);
    } else if (lList.length >= 2) {
      if (rList.length !== 0) compareNode(undefined, rList[0], list.elem, path, out);
      out.removed.insert(path);
    } else {
      if (lList.length !== 0) compareNode(lList[0], undefined, list.elem, path, out);
      out.added.insert(path);
    }
    path.pop();
  }
}

/** SMD's `TypedValue.Compare`: the fields removed, modified and added from `lhs` to `rhs`. */
export function compare(lhs: unknown, rhs: unknown, schema: StructuralNode | TypeRef): Comparison {
  const out: CompareOut = { removed: new FieldSetBuilder(), modified: new FieldSetBuilder(), added: new FieldSetBuilder() };
  compareNode(lhs, rhs, schema, [], out);
  return { removed: out.removed.build(), modified: out.modified.build(), added: out.added.build() };
}

// ---------------------------------------------------------------------------------------------
// Validation errors

/** One error SMD reports while typing or merging a value. */
export interface TypedError {
  /** The path prefix, e.g. `.spec.containers[name="c"].ports`; empty at the root. */
  readonly path: string;
  readonly message: string;
}

/** SMD's `ValidationErrors.Error()`: one error as `path: message`, several under `errors:`. */
export function typedErrorsMessage(errors: readonly TypedError[]): string {
  const one = (e: TypedError) => (e.path ? `${e.path}: ${e.message}` : e.message);
  if (errors.length === 1) return one(errors[0]!);
  return ['errors:', ...errors.map((e) => `  ${one(e)}`)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Merge

/** A merge that failed (duplicate keys in the configuration, items without keys). */
export class MergeError extends Error {
  constructor(readonly errors: readonly TypedError[]) {
    super(typedErrorsMessage(errors));
    this.name = 'MergeError';
  }
}

function mergeNode(l: unknown, r: unknown, t: TypeRef, path: PathElement[], errs: TypedError[]): unknown {
  const atom = resolve(t);
  const al = deduce(atom, l);
  const ar = deduce(atom, r);
  const w: Walk & { out: unknown } = { inLeaf: false, out: undefined };

  const run = (a: Atom, state: Walk & { out: unknown }) =>
    handle(a, {
      scalar: () => {
        if (state.inLeaf) return;
        state.inLeaf = true;
        state.out = r !== undefined ? cloneJsonDocument(r) : cloneJsonDocument(l);
      },
      map: () => {
        const m = a.map!;
        const lm = mapOf(l);
        const rm = mapOf(r);
        const lEmpty = !lm || ownKeys(lm).length === 0;
        const rEmpty = !rm || ownKeys(rm).length === 0;
        if (m.atomic || (lEmpty && rEmpty)) {
          if (state.inLeaf) return;
          state.inLeaf = true;
          state.out = r !== undefined ? cloneJsonDocument(r) : cloneJsonDocument(l);
          return;
        }
        if (!lm && !rm) return;
        const keys = new Set<string>(lm ? ownKeys(lm) : []);
        if (rm) for (const k of ownKeys(rm)) keys.add(k);
        const outMap: Record<string, unknown> = {};
        for (const k of keys) {
          const v = mergeNode(lm && getOwn(lm, k), rm && getOwn(rm, k), fieldTypeLenient(m, k), [...path, pathElement.field(k)], errs);
          if (v !== undefined) setOwn(outMap, k, v);
        }
        if (ownKeys(outMap).length > 0) state.out = outMap;
      },
      list: () => {
        const list = a.list!;
        const ll = listOf(l);
        const rl = listOf(r);
        const empty = (!ll || ll.length === 0) && (!rl || rl.length === 0);
        if (list.atomic || empty) {
          if (state.inLeaf) return;
          state.inLeaf = true;
          state.out = r !== undefined ? cloneJsonDocument(r) : cloneJsonDocument(l);
          return;
        }
        if (!ll && !rl) return;
        const merged = mergeListItems(list, ll ?? [], rl ?? [], path, errs);
        if (merged !== undefined && merged.length > 0) state.out = merged;
      },
    });

  if (r === undefined) run(al, w);
  else if (l === undefined || al === ar) run(ar, w);
  else {
    run(al, { ...w });
    run(ar, w);
  }
  return w.out;
}

interface Indexed {
  pes: PathElement[];
  observed: PathElementMap<unknown>;
  errors: TypedError[];
}

function indexList(list: ListAtom, items: unknown[], allowDuplicates: boolean, path: PathElement[]): Indexed {
  const pes: PathElement[] = [];
  const observed = new PathElementMap<unknown>();
  const errors: TypedError[] = [];
  const at = pathString(path);
  items.forEach((item, i) => {
    let pe: PathElement;
    try {
      pe = listItemPathElement(list, item);
    } catch (e) {
      if (!(e instanceof ListItemError)) throw e;
      errors.push({ path: at, message: `element ${i}: ${e.message}` });
      return;
    }
    if (observed.has(pe)) {
      if (!allowDuplicates) {
        errors.push({ path: at, message: `duplicate entries for key ${pathElementString(pe)}` });
        return;
      }
      observed.set(pe, null);
    } else observed.set(pe, item);
    pes.push(pe);
  });
  return { pes, observed, errors };
}

function pathString(path: readonly PathElement[]): string {
  return path.map(pathElementString).join('');
}

function samePe(a: PathElement | undefined, b: PathElement): boolean {
  return a !== undefined && comparePathElements(a, b) === 0;
}

function mergeListItems(list: ListAtom, lhs: unknown[], rhs: unknown[], path: PathElement[], errs: TypedError[]): unknown[] | undefined {
  const r = indexList(list, rhs, false, path);
  const l = indexList(list, lhs, true, path);
  if (r.errors.length || l.errors.length) {
    errs.push(...r.errors, ...l.errors);
    return undefined;
  }
  const out: unknown[] = [];
  const push = (pe: PathElement, lChild: unknown, rChild: unknown) => {
    const v = mergeNode(lChild, rChild, list.elem, [...path, pe], errs);
    if (v !== undefined) out.push(v);
  };
  const shared = r.pes.filter((pe) => l.observed.has(pe));
  let nextShared: PathElement | undefined = shared.shift();
  const mergedRHS = new PathElementMap<true>();
  const lLen = l.pes.length;
  const rLen = r.pes.length;
  let lI = 0;
  let rI = 0;
  while (lI < lLen || rI < rLen) {
    if (lI < lLen && rI < rLen) {
      const pe = l.pes[lI]!;
      if (samePe(pe, r.pes[rI]!)) {
        mergedRHS.set(pe, true);
        push(pe, l.observed.get(pe), r.observed.get(pe));
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (r.observed.has(pe) && nextShared !== undefined && !samePe(nextShared, pe)) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const pe = l.pes[lI]!;
      if (!r.observed.has(pe)) {
        push(pe, lhs[lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(pe)) {
        lI++;
      }
    }
    if (rI < rLen) {
      const pe = r.pes[rI]!;
      mergedRHS.set(pe, true);
      push(pe, l.observed.has(pe) ? l.observed.get(pe) : undefined, r.observed.get(pe));
      rI++;
      if (nextShared !== undefined && samePe(nextShared, pe)) nextShared = shared.shift();
    }
  }
  return out;
}

/**
 * SMD's `TypedValue.Merge` (rule: keep the right-hand side): `rhs` merged into `lhs` by schema.
 * Throws {@link MergeError} when a list cannot be merged.
 */
export function merge(lhs: unknown, rhs: unknown, schema: StructuralNode | TypeRef): unknown {
  const errs: TypedError[] = [];
  const out = mergeNode(lhs, rhs, schema, [], errs);
  if (errs.length) throw new MergeError(errs);
  return out;
}

// ---------------------------------------------------------------------------------------------
// RemoveItems

/**
 * SMD's removing walker. As in Go, a map or list left empty by removal (and an empty or atomic
 * one walked into) becomes `null`: the typed object later drops such a field, an unstructured one
 * keeps the `null`.
 */
function removeNode(v: unknown, toRemove: FieldSet, t: TypeRef): unknown {
  const atom = deduce(resolve(t), v);
  if (atom.map) {
    const m = atom.map;
    if (!isJsonObject(v)) return null;
    const keys = ownKeys(v);
    if (keys.length === 0 || m.atomic) return null;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const pe = pathElement.field(k);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.withPrefix(pe);
      setOwn(out, k, sub.empty ? cloneJsonDocument(v[k]) : removeNode(v[k], sub, fieldTypeLenient(m, k)));
    }
    return ownKeys(out).length ? out : null;
  }
  if (atom.scalar) return cloneJsonDocument(v);
  if (atom.list) {
    const l = atom.list;
    if (!Array.isArray(v) || v.length === 0 || l.atomic) return null;
    const items: unknown[] = [];
    for (const item of v) {
      const pe = tryListItemPathElement(l, item);
      if (pe && toRemove.hasMember(pe)) continue;
      const sub = pe ? toRemove.withPrefix(pe) : FieldSet.EMPTY;
      items.push(sub.empty ? cloneJsonDocument(item) : removeNode(item, sub, l.elem));
    }
    return items.length ? items : null;
  }
  return cloneJsonDocument(v);
}

/** SMD's `TypedValue.RemoveItems`: `value` without the paths of `toRemove`. */
export function removeItems(value: unknown, toRemove: FieldSet, schema: StructuralNode | TypeRef): unknown {
  const out = removeNode(value, toRemove, schema);
  return out === null ? {} : out;
}

// ---------------------------------------------------------------------------------------------
// EnsureNamedFieldsAreMembers

/**
 * SMD's `Set.EnsureNamedFieldsAreMembers`: every struct field that has children in the set is
 * made a member too (so pruning removes the field, not just its content).
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: StructuralNode | TypeRef): FieldSet {
  const b = new FieldSetBuilder();
  ensureInto(set, schema, b);
  return b.build();
}

function ensureInto(set: FieldSet, t: TypeRef, b: FieldSetBuilder): void {
  const atom = resolve(t);
  for (const m of set.memberElements()) b.insertMember(m);
  for (const { pe, set: child } of set.childEntries()) {
    let ct: TypeRef = undefined;
    if (pe.kind === 'field' && atom.map) {
      if (atom.map.fields?.has(pe.name)) b.insertMember(pe);
      ct = fieldType(atom.map, pe.name);
    } else if (pe.kind === 'key' && atom.list) {
      ct = atom.list.elem;
    }
    ensureInto(child, ct, b.descend(pe));
  }
}

// ---------------------------------------------------------------------------------------------
// Validation (typing an apply configuration)

/** Go's `%#v` of a decoded JSON value. */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFormatFloat(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isJsonObject(v)) {
    return `map[string]interface {}{${ownKeys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${goSharpV(v[k])}`)
      .join(', ')}}`;
  }
  return String(v);
}

function goTypeOf(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (isJsonObject(v)) return 'map[string]interface {}';
  return '<nil>';
}

function validateScalar(kind: NonNullable<Atom['scalar']>, v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  const scalar = typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
  switch (kind) {
    case 'numeric':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeOf(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got &{${goPrintValue(v)}}`;
    default:
      return scalar ? undefined : `expected any scalar, got &{${goPrintValue(v)}}`;
  }
}

function validateNode(v: unknown, t: TypeRef, path: string, errs: TypedError[]): void {
  const atom = deduce(resolve(t), v);
  if (atom.map) {
    const m = atom.map;
    if (v === null) return;
    if (!isJsonObject(v)) {
      errs.push({ path, message: `expected map, got &{${goPrintValue(v)}}` });
      return;
    }
    for (const k of ownKeys(v)) {
      const ft = fieldType(m, k);
      const p = `${path}.${k}`;
      if (ft === undefined) {
        errs.push({ path: p, message: 'field not declared in schema' });
        return;
      }
      validateNode(v[k], ft, p, errs);
    }
    return;
  }
  if (atom.scalar) {
    const msg = validateScalar(atom.scalar, v);
    if (msg) errs.push({ path, message: msg });
    return;
  }
  if (atom.list) {
    const l = atom.list;
    if (v === null || v === undefined) return;
    if (!Array.isArray(v)) {
      errs.push({ path, message: `expected list, got &{${goPrintValue(v)}}` });
      return;
    }
    const observed = new PathElementMap<true>();
    for (let i = 0; i < v.length; i++) {
      let pe: PathElement;
      if (l.atomic) pe = pathElement.index(i);
      else {
        try {
          pe = listItemPathElement(l, v[i]);
        } catch (e) {
          if (!(e instanceof ListItemError)) throw e;
          errs.push({ path, message: `element ${i}: ${e.message}` });
          return;
        }
        if (observed.has(pe)) errs.push({ path, message: `duplicate entries for key ${pathElementString(pe)}` });
        observed.set(pe, true);
      }
      validateNode(v[i], l.elem, `${path}${pathElementString(pe)}`, errs);
    }
  }
}

/**
 * The errors SMD reports when it types an apply configuration (`ObjectToTyped` without
 * duplicates allowed): undeclared fields, wrong scalar types, list items without keys,
 * duplicate keys.
 */
export function validateTyped(value: unknown, schema: StructuralNode | TypeRef): TypedError[] {
  const errs: TypedError[] = [];
  validateNode(value, schema, '', errs);
  return errs;
}
