/**
 * A set of field paths, as structured-merge-diff's `fieldpath.Set`: a trie whose nodes hold the
 * path elements that are themselves members ("members") and the ones that lead further
 * ("children"), both kept in SMD's element order. Sets are values: every operation returns a new
 * set and leaves its operands alone.
 *
 * `toFieldsV1()` / `FieldSet.fromFieldsV1()` convert to and from the FieldsV1 form stored in
 * `metadata.managedFields` (`{"f:data":{".":{},"f:key":{}}}`), byte for byte as Kubernetes writes
 * it and with the errors Kubernetes reports for malformed input.
 */
import { GoJsonIter } from './go-json-iter.js';
import {
  comparePathElements,
  deserializePathElement,
  PathElementError,
  serializePathElement,
  UNKNOWN_PATH_ELEMENT,
  type FieldPath,
  type PathElement,
} from './field-path.js';
import { goJsonInOrder } from './value.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function search<T>(arr: readonly T[], pe: PathElement, get: (t: T) => PathElement): { index: number; found: boolean } {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePathElements(get(arr[mid]!), pe);
    if (c === 0) return { index: mid, found: true };
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return { index: lo, found: false };
}

/**
 * The empty object of a FieldsV1 document's leaves (`"f:name": {}`, `".": {}`), one frozen object
 * for all: a document is frozen once stored anyway, and a create or update writes tens of leaves,
 * each otherwise an object to allocate and freeze.
 */
export const FIELDS_V1_LEAF: Readonly<Record<string, never>> = Object.freeze({});

const selfPe = (pe: PathElement): PathElement => pe;
const childPe = (c: Child): PathElement => c.pe;

/** A malformed FieldsV1 document, with the message Kubernetes' decoder gives. */
export class FieldsV1Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldsV1Error';
  }
}

/** A set of field paths (SMD's `fieldpath.Set`). */
export class FieldSet implements Iterable<FieldPath> {
  /** The empty set. */
  static readonly EMPTY: FieldSet = new FieldSet([], []);

  private constructor(
    private readonly members: readonly PathElement[],
    private readonly children: readonly Child[],
  ) {}

  /** A set holding the given paths (empty paths are ignored, as in SMD). */
  static of(...paths: FieldPath[]): FieldSet {
    const b = new FieldSetBuilder();
    for (const p of paths) b.insert(p);
    return b.build();
  }

  /** This set plus `path`. */
  with(path: FieldPath): FieldSet {
    return this.union(FieldSet.of(path));
  }

  /** True when the path is a member of the set. */
  has(path: FieldPath): boolean {
    if (path.length === 0) return false;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let s: FieldSet = this;
    for (let i = 0; ; i++) {
      const pe = path[i]!;
      if (i === path.length - 1) return search(s.members, pe, selfPe).found;
      const r = search(s.children, pe, childPe);
      if (!r.found) return false;
      s = s.children[r.index]!.set;
    }
  }

  /** True when the element is a member at this level. */
  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, selfPe).found;
  }

  /** The subset under `pe` (SMD's `WithPrefix`): empty when there is none. */
  withPrefix(pe: PathElement): FieldSet {
    const r = search(this.children, pe, childPe);
    return r.found ? this.children[r.index]!.set : FieldSet.EMPTY;
  }

  /** The elements that are members at this level, in order. */
  memberElements(): readonly PathElement[] {
    return this.members;
  }

  /** The elements that have children at this level, in order, with their subsets. */
  childEntries(): readonly { readonly pe: PathElement; readonly set: FieldSet }[] {
    return this.children;
  }

  /** True when the set holds no path. */
  get empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty);
  }

  /** The number of paths in the set. */
  get size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size, 0);
  }

  /** Paths in either set. */
  union(o: FieldSet): FieldSet {
    if (o === this || o.isEmptyNode()) return this;
    if (this.isEmptyNode()) return o;
    const members = mergeSorted(this.members, o.members, selfPe, (a) => a);
    const children: Child[] = [];
    let i = 0;
    let j = 0;
    while (i < this.children.length && j < o.children.length) {
      const a = this.children[i]!;
      const b = o.children[j]!;
      const c = comparePathElements(a.pe, b.pe);
      if (c < 0) {
        children.push(a);
        i++;
      } else if (c > 0) {
        children.push(b);
        j++;
      } else {
        children.push({ pe: a.pe, set: a.set.union(b.set) });
        i++;
        j++;
      }
    }
    children.push(...this.children.slice(i), ...o.children.slice(j));
    return new FieldSet(members, children);
  }

  /** Paths in both sets. */
  intersection(o: FieldSet): FieldSet {
    const members = this.members.filter((m) => search(o.members, m, selfPe).found);
    const children: Child[] = [];
    for (const a of this.children) {
      const r = search(o.children, a.pe, childPe);
      if (!r.found) continue;
      const s = a.set.intersection(o.children[r.index]!.set);
      if (!s.empty) children.push({ pe: a.pe, set: s });
    }
    return new FieldSet(members, children);
  }

  /** Paths in this set and not in `o`. */
  difference(o: FieldSet): FieldSet {
    if (o.isEmptyNode()) return this;
    const members = this.members.filter((m) => !search(o.members, m, selfPe).found);
    const children: Child[] = [];
    for (const a of this.children) {
      const r = search(o.children, a.pe, childPe);
      if (!r.found) {
        children.push(a);
        continue;
      }
      const s = a.set.difference(o.children[r.index]!.set);
      if (!s.empty) children.push({ pe: a.pe, set: s });
    }
    return new FieldSet(members, children);
  }

  /**
   * Like {@link difference}, and also drops every path below a member of `o`
   * (SMD's `RecursiveDifference`).
   */
  recursiveDifference(o: FieldSet): FieldSet {
    const members = this.members.filter((m) => !search(o.members, m, selfPe).found);
    const children: Child[] = [];
    for (const a of this.children) {
      if (search(o.members, a.pe, selfPe).found) continue;
      const r = search(o.children, a.pe, childPe);
      if (!r.found) {
        children.push(a);
        continue;
      }
      const s = a.set.recursiveDifference(o.children[r.index]!.set);
      if (!s.empty) children.push({ pe: a.pe, set: s });
    }
    return new FieldSet(members, children);
  }

  /** The members that have no member below them (SMD's `Leaves`). */
  leaves(): FieldSet {
    const members = this.members.filter((m) => !search(this.children, m, childPe).found);
    return new FieldSet(
      members,
      this.children.map((c) => ({ pe: c.pe, set: c.set.leaves() })),
    );
  }

  /** True when both sets hold the same paths (and the same structure). */
  equals(o: FieldSet): boolean {
    if (this.members.length !== o.members.length || this.children.length !== o.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (comparePathElements(this.members[i]!, o.members[i]!) !== 0) return false;
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i]!;
      const b = o.children[i]!;
      if (comparePathElements(a.pe, b.pe) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Every path, in SMD's iteration order (members of a level before the levels below it). */
  *[Symbol.iterator](): Iterator<FieldPath> {
    yield* this.iteratePrefix([]);
  }

  private *iteratePrefix(prefix: PathElement[]): Generator<FieldPath> {
    for (const m of this.members) yield [...prefix, m];
    for (const c of this.children) yield* c.set.iteratePrefix([...prefix, c.pe]);
  }

  /** Every path, as an array. */
  paths(): FieldPath[] {
    return [...this];
  }

  private isEmptyNode(): boolean {
    return this.members.length === 0 && this.children.length === 0;
  }

  /** The FieldsV1 form as a JSON value, keys in the order Kubernetes writes them. */
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  /** The FieldsV1 form as the exact JSON text Kubernetes stores. */
  toFieldsV1String(): string {
    return goJsonInOrder(this.toFieldsV1());
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && !this.isEmptyNode()) out['.'] = FIELDS_V1_LEAF;
    let mi = 0;
    let ci = 0;
    while (mi < this.members.length || ci < this.children.length) {
      const m = this.members[mi];
      const c = this.children[ci];
      const cmp = m === undefined ? 1 : c === undefined ? -1 : comparePathElements(m, c.pe);
      if (cmp < 0) {
        out[serializePathElement(m!)] = FIELDS_V1_LEAF;
        mi++;
      } else if (cmp > 0) {
        out[serializePathElement(c!.pe)] = c!.set.emit(false);
        ci++;
      } else {
        out[serializePathElement(c!.pe)] = c!.set.emit(true);
        mi++;
        ci++;
      }
    }
    return out;
  }

  /**
   * Reads a FieldsV1 document (`Set.FromJSON`): a JSON value as decoded from a request, or the raw
   * JSON text. Keys of an unknown type (`x:...`) are dropped, as Kubernetes does. Throws
   * {@link FieldsV1Error} with the decoder's message (`ReadMapCB: expect { or n, ...`,
   * `parsing key as path element: missing colon: ...`) when the document is malformed.
   */
  static fromFieldsV1(fields: unknown): FieldSet {
    // A frozen document is part of a stored object and never changes: it is parsed once.
    const frozen = typeof fields === 'object' && fields !== null && Object.isFrozen(fields);
    if (frozen) {
      const known = parsedFieldsV1.get(fields);
      if (known) return known;
    }
    const set = FieldSet.parseFieldsV1(fields);
    if (frozen) {
      parsedFieldsV1.set(fields, set);
      storedFieldsV1.set(set, fields);
    }
    return set;
  }

  private static parseFieldsV1(fields: unknown): FieldSet {
    const text = typeof fields === 'string' ? fields : goJsonInOrder(fields ?? {});
    // Clients send back the managedFields they read: the same few documents, parsed once each.
    const known = parsedFieldsV1Texts.get(text);
    if (known) return known;
    const set = FieldSet.parseFieldsV1Text(text);
    if (parsedFieldsV1Texts.size >= MAX_PARSED_TEXTS) parsedFieldsV1Texts.clear();
    parsedFieldsV1Texts.set(text, set);
    return set;
  }

  private static parseFieldsV1Text(text: string): FieldSet {
    const iter = GoJsonIter.reader(text);
    const r = iter.run(() => {
      const found = readIterV1(iter);
      iter.expectEnd();
      return found.children?.build() ?? FieldSet.EMPTY;
    });
    if (r.error !== undefined) throw new FieldsV1Error(r.error);
    return r.value ?? FieldSet.EMPTY;
  }

  /** @internal Used by the builder. */
  static fromParts(members: PathElement[], children: Child[]): FieldSet {
    return new FieldSet(members, children);
  }
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], get: (t: T) => PathElement, pick: (x: T, y: T) => T): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(get(a[i]!), get(b[j]!));
    if (c < 0) out.push(a[i++]!);
    else if (c > 0) out.push(b[j++]!);
    else {
      out.push(pick(a[i++]!, b[j++]!));
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** FieldSets parsed from stored (frozen) FieldsV1 documents, and back. */
const parsedFieldsV1 = new WeakMap<object, FieldSet>();
const storedFieldsV1 = new WeakMap<FieldSet, object>();
/** FieldSets of FieldsV1 texts seen lately (bounded: cleared when full). FieldSets never change, so they are shared. */
const parsedFieldsV1Texts = new Map<string, FieldSet>();
const MAX_PARSED_TEXTS = 1024;

/**
 * The stored (frozen) FieldsV1 document `set` was read from, if it was read from one: a manager
 * whose fields did not change keeps that document instead of a new copy of it.
 */
export function storedFieldsV1Of(set: FieldSet): Readonly<Record<string, unknown>> | undefined {
  return storedFieldsV1.get(set) as Readonly<Record<string, unknown>> | undefined;
}

// Shared empty parts of built sets: a FieldSet never changes its arrays.
const NO_MEMBERS: PathElement[] = [];
const NO_CHILDREN: { pe: PathElement; node: FieldSetBuilder }[] = [];
const NO_SETS: Child[] = [];
const byPathElement = (a: { pe: PathElement }, b: { pe: PathElement }) => comparePathElements(a.pe, b.pe);
const builtChild = (c: { pe: PathElement; node: FieldSetBuilder }): Child => ({ pe: c.pe, set: c.node.build() });

/**
 * Sorts in place; a few elements (most levels of a field set) by insertion, which allocates
 * nothing where Array.prototype.sort makes a work copy on every call.
 */
function sortInPlace<T>(items: T[], compare: (a: T, b: T) => number): void {
  if (items.length > 12) {
    items.sort(compare);
    return;
  }
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    for (; j >= 0 && compare(items[j]!, item) > 0; j--) items[j + 1] = items[j]!;
    items[j + 1] = item;
  }
}

/** A mutable trie used to build a {@link FieldSet} path by path. */
export class FieldSetBuilder {
  // Made on first use: most nodes of a field set are leaves (members only, no children).
  private members: Map<string, PathElement> | undefined;
  private children: Map<string, { pe: PathElement; node: FieldSetBuilder }> | undefined;

  /** Adds a path (SMD's `Set.Insert`). */
  insert(path: FieldPath): this {
    if (path.length === 0) return this;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let node: FieldSetBuilder = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]!);
    node.insertMember(path[path.length - 1]!);
    return this;
  }

  /** Adds an element as a member of this level. */
  insertMember(pe: PathElement): void {
    const k = serializePathElement(pe);
    const members = (this.members ??= new Map());
    if (!members.has(k)) members.set(k, pe);
  }

  /** The node under `pe`, created when missing. */
  descend(pe: PathElement): FieldSetBuilder {
    const k = serializePathElement(pe);
    const children = (this.children ??= new Map());
    const found = children.get(k);
    if (found) return found.node;
    const node = new FieldSetBuilder();
    children.set(k, { pe, node });
    return node;
  }

  /** Replaces the node under `pe`. */
  setChild(pe: PathElement, node: FieldSetBuilder): void {
    (this.children ??= new Map()).set(serializePathElement(pe), { pe, node });
  }

  /** The set built so far. */
  build(): FieldSet {
    const members = this.members ? [...this.members.values()] : NO_MEMBERS;
    if (members.length > 1) sortInPlace(members, comparePathElements);
    const children = this.children ? [...this.children.values()] : NO_CHILDREN;
    if (children.length > 1) sortInPlace(children, byPathElement);
    return FieldSet.fromParts(members, children.length === 0 ? NO_SETS : children.map(builtChild));
  }
}

/** SMD's `readIterV1`: the children of the current object, and whether it is itself a member. */
function readIterV1(iter: GoJsonIter): { children?: FieldSetBuilder; isMember: boolean } {
  let children: FieldSetBuilder | undefined;
  let isMember = false;
  iter.readMapCB((key) => {
    if (key === '.') {
      isMember = true;
      iter.skip();
      return true;
    }
    let pe: PathElement | typeof UNKNOWN_PATH_ELEMENT;
    try {
      pe = deserializePathElement(key);
    } catch (e) {
      if (e instanceof PathElementError) iter.reportError('parsing key as path element', e.message);
      throw e;
    }
    if (pe === UNKNOWN_PATH_ELEMENT) {
      iter.skip();
      return true;
    }
    const sub = readIterV1(iter);
    if (sub.isMember) (children ??= new FieldSetBuilder()).insertMember(pe);
    if (sub.children) (children ??= new FieldSetBuilder()).setChild(pe, sub.children);
    return true;
  });
  if (!children) isMember = true;
  return { ...(children ? { children } : {}), isMember };
}
