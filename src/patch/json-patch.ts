/**
 * JSON patch (RFC 6902, `application/json-patch+json`) as the Kubernetes API server applies it.
 *
 * Kubernetes (k8s.io/apiserver pkg/endpoints/handlers/patch.go, `jsonPatcher.applyJSPatch`) uses
 * `gopkg.in/evanphx/json-patch.v4` (v4.13.0), which differs from the RFC in ways clients can see;
 * all of them are reproduced here:
 *
 * - `add`/`replace` without a `value` member store `null`; `test` without `value` (or with
 *   `value: null`) passes when the target is missing or null.
 * - `replace` of a missing object member adds it (only array indexes are checked).
 * - `copy` from a missing object member copies `null`.
 * - Negative array indexes count from the end (`SupportNegativeIndices` is true); indexes are
 *   parsed with `strconv.Atoi`, so `+1` and `01` are accepted.
 * - A path is split on `/` and its first segment is ignored, so `a/b` addresses `/b`; `~1` and
 *   `~0` are unescaped, other `~` sequences are kept.
 * - `add`/`remove`/`move`/`copy` at the root path `""` fail; `replace` at `""` swaps the whole
 *   document for an object or array; `test` at `""` compares the whole document.
 * - `copy` may add at most 3 MiB in total (`JSONPatchMaxCopyBytes`, the apiserver default).
 * - Operations run in order on a working copy; the first failure aborts, so nothing is applied.
 *
 * Before applying, the handler decodes the body: under fieldValidation `Warn` (the default) or
 * `Strict` with `sigs.k8s.io/json.UnmarshalStrict` into `[]jsonPatchOp` (a failure is 400
 * `error decoding patch: <decoder error>`), then always with `jsonpatch.DecodePatch` (400 with the
 * decoder error), then rejects more than 10000 operations (413). A failure while applying is
 * 422 with the generic message (see errors.ts). The mutations themselves go through
 * fast-json-patch once the v4 rules have resolved the target.
 *
 * `test` compares as evanphx's `lazyNode.equal` does: objects member by member (names decoded),
 * arrays element by element, scalars by their compacted JSON bytes. The document's bytes are
 * Go's encoding of the stored object (`<`, `>`, `&`, U+2028/9 escaped as `\u003c`...), the
 * operation's are the patch text, so `"a<b"` sent unescaped does not equal a stored `a<b`, and
 * `80.0`, `1e2` or `"\u0061"` do not equal `80`, `100` or `"a"`. The patch's text reaches this
 * module beside the parsed value (util/json-raw.ts, recorded by the HTTP decoder); a value built
 * in process stands for the text `JSON.stringify` writes. Values an earlier operation of the
 * same patch put in place keep their patch text, as Go keeps the patch's bytes (`add` then `test`
 * of the same text passes); `move` keeps them, `copy` compacts and HTML-escapes them (Go
 * re-marshals the node). Not reproduced: `copy` measures object member names decoded, where Go
 * counts the bytes the patch spelled them with.
 */
import jsonpatch from 'fast-json-patch';
import { goJsonString, goQuote } from '../util/go-format.js';
import { writtenText } from '../util/json-raw.js';
import { PatchError } from './errors.js';
import { goKind, GoPanic, isJsonObject, type JsonObject } from '../util/go-value.js';
import { cloneJsonDocument } from '../util/json-clone.js';
import { nestingExceeds } from '../util/json-nesting.js';
import { hasOwn, setOwn } from '../util/own.js';

/** How unknown and duplicate fields are treated (`PatchOptions.fieldValidation`). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Options of {@link applyJsonPatch}. */
export interface JsonPatchOptions {
  /** Default `Warn`, the apiserver's default when the request names none. */
  fieldValidation?: FieldValidation;
  /** Total bytes `copy` operations may add; default 3 MiB (`--json-patch-max-copy-bytes`). */
  maxCopyBytes?: number;
}

/** The apiserver's `maxJSONPatchOperations`. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** The apiserver's default `JSONPatchMaxCopyBytes` (3 MiB). */
export const DEFAULT_JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;
/** Go's JSON scanner nesting limit. */
export const MAX_JSON_NESTING_DEPTH = 10000;

/** The JSON kind name Go's decoder uses in `cannot unmarshal <kind>` messages. */
export function jsonValueKind(v: unknown): string {
  switch (goKind(v)) {
    case 'map':
      return 'object';
    case 'slice':
      return 'array';
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'nil':
      return 'null';
    default:
      return 'number';
  }
}

class OpError extends Error {}

const ERR_MISSING = 'missing value';
const ERR_INVALID_INDEX = 'invalid index referenced';
const ERR_TEST_FAILED = 'test failed';

/** The decode errors Kubernetes reports before applying anything (400). */
function checkDecodable(patch: unknown, validation: FieldValidation): unknown[] {
  if (validation === 'Warn' || validation === 'Strict') {
    // kjson.UnmarshalStrict(patchBytes, &[]jsonPatchOp{}) — the first type error in document order.
    const fail = (m: string): never => {
      throw new PatchError('invalid-patch', `error decoding patch: json: cannot unmarshal ${m}`);
    };
    if (patch !== null && !Array.isArray(patch)) fail(`${jsonValueKind(patch)} into Go value of type []handlers.jsonPatchOp`);
    for (const op of (patch as unknown[] | null) ?? []) {
      if (op === null) continue;
      if (!isJsonObject(op)) fail(`${jsonValueKind(op)} into Go value of type handlers.jsonPatchOp`);
      for (const k of Object.keys(op as JsonObject)) {
        if (k !== 'op' && k !== 'path' && k !== 'from') continue;
        const v = (op as JsonObject)[k];
        if (v !== null && typeof v !== 'string') fail(`${jsonValueKind(v)} into Go struct field jsonPatchOp.${k} of type string`);
      }
    }
  }
  // jsonpatch.DecodePatch: json.Unmarshal into Patch ([]Operation, Operation map[string]*RawMessage).
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw new PatchError('invalid-patch', `json: cannot unmarshal ${jsonValueKind(patch)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of patch) {
    if (op !== null && !isJsonObject(op)) {
      throw new PatchError('invalid-patch', `json: cannot unmarshal ${jsonValueKind(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  return patch;
}

/**
 * The strict-decoding errors of a JSON patch body (unknown members of operations), as Kubernetes
 * reports them under fieldValidation Warn (warnings) or Strict (422 on field `patch`):
 * `json patch unknown field "[0].foo"`. Duplicate members cannot be seen in a parsed value; the
 * transport reports those.
 */
export function jsonPatchUnknownFields(patch: unknown): string[] {
  if (!Array.isArray(patch)) return [];
  const out: string[] = [];
  patch.forEach((op, i) => {
    if (!isJsonObject(op)) return;
    for (const k of Object.keys(op)) {
      if (k !== 'op' && k !== 'path' && k !== 'from' && k !== 'value') out.push(`json patch unknown field ${goQuote(`[${i}].${k}`)}`);
    }
  });
  return out;
}

// --- the bytes behind the document's scalars -------------------------------------------------

type Slot = string | number;

/** Go's encoding of a stored scalar: the bytes the document holds before the patch touches it. */
function goScalarText(v: unknown): string {
  return typeof v === 'string' ? goJsonString(v) : (JSON.stringify(v) ?? 'null');
}

/** What Go's `compact(dst, src, escapeHTML=true)` makes of a scalar's bytes when a node is re-marshalled. */
function escapeHtmlText(raw: string): string {
  return raw.replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * The raw bytes evanphx holds for scalars of the working document, where they are not Go's
 * encoding of the value: text an operation of the patch put there (and copies of it). Kept by
 * holder (object or array of the working document) and member name or index.
 */
class DocText {
  private readonly records = new WeakMap<object, Map<Slot, string>>();

  /** The bytes of the scalar `value` at `holder[slot]`. */
  text(holder: object | undefined, slot: Slot, value: unknown): string {
    const raw = holder === undefined ? undefined : this.records.get(holder)?.get(slot);
    return raw ?? goScalarText(value);
  }

  /** Notes that `holder[slot]` now holds `value` written as `raw` (undefined: a container, or Go's encoding). */
  set(holder: object, slot: Slot, value: unknown, raw: string | undefined): void {
    const m = this.records.get(holder);
    if (raw === undefined || (typeof value !== 'object' && raw === goScalarText(value))) {
      m?.delete(slot);
      return;
    }
    if (m) m.set(slot, raw);
    else this.records.set(holder, new Map([[slot, raw]]));
  }

  /** Array `arr` had an element inserted (delta 1) or removed (delta -1) at `at`: move the records behind it. */
  shift(arr: unknown[], at: number, delta: 1 | -1): void {
    const m = this.records.get(arr);
    if (!m) return;
    const moved: Array<[number, string]> = [];
    for (const [slot, raw] of m) {
      const i = slot as number;
      if (i < at) continue;
      m.delete(i);
      if (delta === -1 && i === at) continue;
      moved.push([i + delta, raw]);
    }
    for (const [i, raw] of moved) m.set(i, raw);
  }
}

/** A value taken into the document: the copy to insert and, for a scalar, its bytes. */
interface Imported {
  value: unknown;
  raw: string | undefined;
}

/**
 * A fresh copy of the patch value `holder[slot]` for the document, its scalars keeping the text
 * the patch wrote them with (Go inserts the operation's raw bytes). Iterative; `__proto__`-safe.
 */
function importValue(doc: DocText, holder: object, slot: Slot, value: unknown): Imported {
  if (value === undefined) value = null;
  if (typeof value !== 'object' || value === null) return { value, raw: writtenText(holder, slot, value) };
  const root = copyTree(value as Container, (src, k, item, dst) => doc.set(dst, k, item, writtenText(src, k, item)));
  return { value: root, raw: undefined };
}

/**
 * Copies a JSON tree iteratively (`__proto__`-safe; `undefined` members dropped, `undefined`
 * elements made null), telling `onScalar` of every scalar with its holder in the source and in the
 * copy, and `onContainer` of every object (its member names) and array (its length).
 */
function copyTree(
  value: Container,
  onScalar: (src: Container, k: Slot, item: unknown, dst: Container) => void,
  onContainer?: (names: readonly string[] | undefined, length: number) => void,
): Container {
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: Array<[Container, Container]> = [[value, root]];
  while (stack.length) {
    const [src, dst] = stack.pop()!;
    const take = (k: Slot, item: unknown): void => {
      if (typeof item === 'object' && item !== null) {
        const child: Container = Array.isArray(item) ? [] : {};
        put(dst, k, child);
        stack.push([item as Container, child]);
      } else {
        put(dst, k, item);
        onScalar(src, k, item, dst);
      }
    };
    if (Array.isArray(src)) {
      onContainer?.(undefined, src.length);
      src.forEach((item, i) => take(i, item === undefined ? null : item));
    } else {
      const keys = Object.keys(src).filter((k) => src[k] !== undefined);
      onContainer?.(keys, keys.length);
      for (const k of keys) take(k, src[k]);
    }
  }
  return root;
}

function put(c: Container, k: Slot, v: unknown): void {
  if (Array.isArray(c)) c[k as number] = v;
  else setOwn(c, k as string, v);
}

/**
 * `deepCopy` of the document node `holder[slot]`: Go marshals it (compacted, HTML-escaped) and
 * counts the bytes; the copy's scalars keep those bytes.
 */
function copyValue(doc: DocText, holder: object, slot: Slot, value: unknown): Imported & { size: number } {
  if (typeof value !== 'object' || value === null) {
    const raw = escapeHtmlText(doc.text(holder, slot, value));
    return { value, raw, size: Buffer.byteLength(raw, 'utf8') };
  }
  let size = 0;
  const root = copyTree(
    value as Container,
    (src, k, item, dst) => {
      const raw = escapeHtmlText(doc.text(src, k, item));
      size += Buffer.byteLength(raw, 'utf8');
      doc.set(dst, k, item, raw);
    },
    (names, length) => {
      // Brackets and commas, and for an object each member's name and colon.
      size += 2 + Math.max(0, length - 1);
      if (names) for (const k of names) size += 1 + Buffer.byteLength(goJsonString(k), 'utf8');
    },
  );
  return { value: root, raw: undefined, size };
}

// --- evanphx/json-patch v4 containers -------------------------------------------------------

type Container = JsonObject | unknown[];

interface Target {
  container: Container;
  key: string;
  /** Decoded, canonical reference tokens of the container from the root. */
  tokens: string[];
}

function decodeKey(k: string): string {
  // strings.NewReplacer("~1", "/", "~0", "~"): one left-to-right pass.
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** `strconv.Atoi`, with its error texts. */
function atoi(s: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new OpError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw new OpError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}

function invalidIndex(idx: bigint): OpError {
  return new OpError(`Unable to access invalid index: ${idx}: ${ERR_INVALID_INDEX}`);
}

/** `container.get(key)`: the member (null when missing or null) or an error for arrays. */
function getIn(c: Container, key: string): unknown {
  if (!Array.isArray(c)) return hasOwn(c, key) ? (c[key] ?? null) : null;
  return c[arrayIndex(c, key)] ?? null;
}

function arrayIndex(c: unknown[], key: string): number {
  let idx = atoi(key);
  const len = BigInt(c.length);
  if (idx < 0n) {
    if (idx < -len) throw invalidIndex(idx);
    idx += len;
  }
  if (idx >= len) throw invalidIndex(idx);
  return Number(idx);
}

/** `container.add(key, value)`; returns the canonical key it wrote. */
function addIndex(c: unknown[], key: string): number {
  if (key === '-') return c.length;
  let idx: bigint;
  try {
    idx = atoi(key);
  } catch (e) {
    throw new OpError(`value was not a proper array index: '${key}': ${(e as Error).message}`);
  }
  const size = BigInt(c.length + 1);
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  return Number(idx);
}

function removeIndex(c: unknown[], key: string): number {
  let idx = atoi(key);
  const len = BigInt(c.length);
  if (idx >= len) throw invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -len) throw invalidIndex(idx);
    idx += len;
  }
  return Number(idx);
}

/** `findObject`: the container holding the last segment, or undefined when the path is missing. */
function findObject(root: Container, path: string): Target | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc: Container = root;
  const tokens: string[] = [];
  for (const part of split.slice(1, -1)) {
    const key = decodeKey(part);
    let next: unknown;
    try {
      next = getIn(doc, key);
    } catch {
      return undefined;
    }
    if (next === null || typeof next !== 'object') return undefined;
    tokens.push(Array.isArray(doc) ? String(arrayIndex(doc, key)) : key);
    doc = next as Container;
  }
  return { container: doc, key: decodeKey(split[split.length - 1]!), tokens };
}

function pointer(tokens: string[]): string {
  return tokens.map((t) => '/' + t.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** fast-json-patch refuses these tokens (prototype protection); we write them as own members. */
function unsafeForLibrary(tokens: string[]): boolean {
  return tokens.some((t, i) => t === '__proto__' || (t === 'prototype' && tokens[i - 1] === 'constructor'));
}

type Mutation = { op: 'add' | 'replace'; value: unknown; raw: string | undefined } | { op: 'remove' };

/** Writes through fast-json-patch at a target the v4 rules resolved; never touches prototypes. */
function mutate(s: State, t: Target, canonicalKey: string, m: Mutation): void {
  const c = t.container;
  if (Array.isArray(c)) {
    const i = Number(canonicalKey);
    if (m.op === 'add') s.text.shift(c, i, 1);
    else if (m.op === 'remove') s.text.shift(c, i, -1);
    if (m.op !== 'remove') s.text.set(c, i, m.value, m.raw);
  } else s.text.set(c, canonicalKey, m.op === 'remove' ? undefined : m.value, m.op === 'remove' ? undefined : m.raw);
  const tokens = [...t.tokens, canonicalKey];
  if (!unsafeForLibrary(tokens)) {
    const op = m.op === 'remove' ? { op: 'remove' as const, path: pointer(tokens) } : { op: m.op, path: pointer(tokens), value: m.value };
    jsonpatch.applyOperation(s.root, op, false, true, true);
    return;
  }
  if (Array.isArray(c)) {
    const i = Number(canonicalKey);
    if (m.op === 'add') c.splice(i, 0, m.value);
    else if (m.op === 'replace') c[i] = m.value;
    else c.splice(i, 1);
  } else if (m.op === 'remove') delete c[canonicalKey];
  else setOwn(c, canonicalKey, m.value);
}

function conAdd(s: State, t: Target, v: Imported): void {
  const c = t.container;
  if (Array.isArray(c)) mutate(s, t, String(addIndex(c, t.key)), { op: 'add', ...v });
  else mutate(s, t, t.key, { op: hasOwn(c, t.key) ? 'replace' : 'add', ...v });
}

function conRemove(s: State, t: Target): void {
  const c = t.container;
  if (Array.isArray(c)) {
    mutate(s, t, String(removeIndex(c, t.key)), { op: 'remove' });
    return;
  }
  if (!hasOwn(c, t.key)) throw new OpError(`Unable to remove nonexistent key: ${t.key}: ${ERR_MISSING}`);
  mutate(s, t, t.key, { op: 'remove' });
}

/** `container.get(key)` with where the value sits (for its bytes): [value, canonical slot]. */
function getSlot(c: Container, key: string): [unknown, Slot] {
  if (!Array.isArray(c)) return [hasOwn(c, key) ? (c[key] ?? null) : null, key];
  const i = arrayIndex(c, key);
  return [c[i] ?? null, i];
}

// --- operation members ------------------------------------------------------------------------

type Op = JsonObject | null;

function member(op: Op, name: string): unknown {
  return op && hasOwn(op, name) ? op[name] : undefined;
}

/** `Operation.Kind()`. */
function opKind(op: Op): string {
  const v = member(op, 'op');
  return typeof v === 'string' ? v : 'unknown';
}

/** `Operation.Path()` / `From()`: the string, or the Go error text. */
function stringMember(op: Op, name: 'path' | 'from'): string | OpError {
  const v = member(op, name);
  if (v === undefined || v === null) {
    return new OpError(name === 'path' ? `operation missing path field: ${ERR_MISSING}` : `operation, missing from field: ${ERR_MISSING}`);
  }
  if (typeof v !== 'string') return new OpError(`json: cannot unmarshal ${jsonValueKind(v)} into Go value of type string`);
  return v;
}

/** `op.value()`: undefined when the member is absent (a nil node), else the value (null kept). */
function opValue(op: Op): unknown {
  return member(op, 'value');
}

/**
 * `lazyNode.equal`: n is a non-null document value at `nAt`, o the operation's value at `oAt`
 * (holder and slot, for the bytes of scalars). Go panics (nil dereference) when an array element
 * on either side is null.
 */
function lazyEqual(text: DocText, n: unknown, nAt: [object | undefined, Slot], o: unknown, oAt: [object | undefined, Slot]): boolean {
  const stack: Array<[unknown, object | undefined, Slot, unknown, object | undefined, Slot]> = [[n, nAt[0], nAt[1], o, oAt[0], oAt[1]]];
  while (stack.length) {
    const [a, aHolder, aSlot, b, bHolder, bSlot] = stack.pop()!;
    if (b === null || b === undefined) return false;
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = a.length - 1; i >= 0; i--) {
        if (a[i] === null || b[i] === null) throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
        stack.push([a[i], a, i, b[i], b, i]);
      }
    } else if (isJsonObject(a)) {
      if (!isJsonObject(b)) return false;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      for (const k of keys) {
        if (!hasOwn(b, k)) return false;
        const av = a[k];
        const bv = b[k];
        if ((av === null) !== (bv === null)) return false;
        if (av !== null) stack.push([av, a, k, bv, b, k]);
      }
    } else if (typeof b === 'object' || text.text(aHolder, aSlot, a) !== (bHolder === undefined ? JSON.stringify(b) : writtenText(bHolder, bSlot, b))) {
      // Scalars: bytes.Equal of the compacted raw bytes (a scalar's bytes hold no blanks).
      return false;
    }
  }
  return true;
}

interface State {
  root: Container;
  copied: number;
  maxCopy: number;
  text: DocText;
}

function applyOp(s: State, op: Op): void {
  const kind = opKind(op);
  switch (kind) {
    case 'add': {
      const path = stringMember(op, 'path');
      if (path instanceof OpError) throw new OpError(`add operation failed to decode path: ${ERR_MISSING}`);
      const t = findObject(s.root, path);
      if (!t) throw new OpError(`add operation does not apply: doc is missing path: "${path}": ${ERR_MISSING}`);
      try {
        conAdd(s, t, importValue(s.text, op!, 'value', opValue(op)));
      } catch (e) {
        throw new OpError(`error in add for path: '${path}': ${(e as Error).message}`);
      }
      return;
    }
    case 'remove': {
      const path = stringMember(op, 'path');
      if (path instanceof OpError) throw new OpError(`remove operation failed to decode path: ${ERR_MISSING}`);
      const t = findObject(s.root, path);
      if (!t) throw new OpError(`remove operation does not apply: doc is missing path: "${path}": ${ERR_MISSING}`);
      try {
        conRemove(s, t);
      } catch (e) {
        throw new OpError(`error in remove for path: '${path}': ${(e as Error).message}`);
      }
      return;
    }
    case 'replace': {
      const path = stringMember(op, 'path');
      if (path instanceof OpError) throw new OpError(`replace operation failed to decode path: ${path.message}`);
      if (path === '') {
        const v = opValue(op);
        if (v === undefined) throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
        if (typeof v !== 'object' || v === null) throw new OpError('replace operation value must be object or array: %!w(<nil>)');
        s.root = importValue(s.text, op!, 'value', v).value as Container;
        return;
      }
      const t = findObject(s.root, path);
      if (!t) throw new OpError(`replace operation does not apply: doc is missing path: ${path}: ${ERR_MISSING}`);
      let key = t.key;
      if (Array.isArray(t.container)) {
        try {
          key = String(arrayIndex(t.container, t.key));
        } catch {
          throw new OpError(`replace operation does not apply: doc is missing key: ${path}: ${ERR_MISSING}`);
        }
      }
      const exists = Array.isArray(t.container) || hasOwn(t.container, key);
      mutate(s, t, key, { op: exists ? 'replace' : 'add', ...importValue(s.text, op!, 'value', opValue(op)) });
      return;
    }
    case 'move': {
      const from = stringMember(op, 'from');
      if (from instanceof OpError) throw new OpError(`move operation failed to decode from: ${from.message}`);
      const src = findObject(s.root, from);
      if (!src) throw new OpError(`move operation does not apply: doc is missing from path: ${from}: ${ERR_MISSING}`);
      let moved: Imported;
      try {
        // The node moves as it is: a scalar keeps its bytes.
        const [value, slot] = getSlot(src.container, src.key);
        moved = { value, raw: typeof value === 'object' && value !== null ? undefined : s.text.text(src.container, slot, value) };
        conRemove(s, src);
      } catch (e) {
        throw new OpError(`error in move for path: '${src.key}': ${(e as Error).message}`);
      }
      const path = stringMember(op, 'path');
      if (path instanceof OpError) throw new OpError(`move operation failed to decode path: ${path.message}`);
      const dst = findObject(s.root, path);
      if (!dst) throw new OpError(`move operation does not apply: doc is missing destination path: ${path}: ${ERR_MISSING}`);
      try {
        conAdd(s, dst, moved);
      } catch (e) {
        throw new OpError(`error in move for path: '${path}': ${(e as Error).message}`);
      }
      return;
    }
    case 'test': {
      const path = stringMember(op, 'path');
      if (path instanceof OpError) throw new OpError(`test operation failed to decode path: ${path.message}`);
      const expected = opValue(op);
      const failed = (): PatchError => new PatchError('test-failed', `testing value ${path} failed: ${ERR_TEST_FAILED}`);
      if (path === '') {
        if (expected === undefined) throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
        if (lazyEqual(s.text, s.root, [undefined, ''], expected, [op!, 'value'])) return;
        throw failed();
      }
      const t = findObject(s.root, path);
      if (!t) throw new OpError(`test operation does not apply: is missing path: ${path}: ${ERR_MISSING}`);
      let actual: unknown;
      let slot: Slot;
      try {
        [actual, slot] = getSlot(t.container, t.key);
      } catch (e) {
        throw new OpError(`error in test for path: '${path}': ${(e as Error).message}`);
      }
      if (actual === null) {
        if (expected === undefined || expected === null) return;
        throw failed();
      }
      if (expected === undefined) throw failed();
      if (lazyEqual(s.text, actual, [t.container, slot], expected, [op!, 'value'])) return;
      throw failed();
    }
    case 'copy': {
      const from = stringMember(op, 'from');
      if (from instanceof OpError) throw new OpError(`copy operation failed to decode from: ${from.message}`);
      const src = findObject(s.root, from);
      if (!src) throw new OpError(`copy operation does not apply: doc is missing from path: ${from}: ${ERR_MISSING}`);
      let value: unknown;
      let slot: Slot;
      try {
        [value, slot] = getSlot(src.container, src.key);
      } catch (e) {
        throw new OpError(`error in copy for from: '${from}': ${(e as Error).message}`);
      }
      const path = stringMember(op, 'path');
      if (path instanceof OpError) throw new OpError(`copy operation failed to decode path: ${ERR_MISSING}`);
      const dst = findObject(s.root, path);
      if (!dst) throw new OpError(`copy operation does not apply: doc is missing destination path: ${path}: ${ERR_MISSING}`);
      // deepCopy marshals the node: a missing source copies nothing (0 bytes) and adds null.
      const copy = value === null ? { value: null, raw: undefined, size: 0 } : copyValue(s.text, src.container, slot, value);
      s.copied += copy.size;
      if (s.maxCopy > 0 && s.copied > s.maxCopy) {
        throw new OpError(`Unable to complete the copy, the accumulated size increase of copy is ${s.copied}, exceeding the limit ${s.maxCopy}`);
      }
      try {
        conAdd(s, dst, copy);
      } catch (e) {
        throw new OpError(`error while adding value during copy: ${(e as Error).message}`);
      }
      return;
    }
    default:
      throw new OpError(`Unexpected kind: ${kind}`);
  }
}

/**
 * Applies a JSON patch to `doc` as Kubernetes does; returns a new document (the inputs are not
 * touched). Throws {@link PatchError}: see errors.ts for the HTTP answer of each failure.
 */
export function applyJsonPatch(doc: unknown, patch: unknown, options: JsonPatchOptions = {}): unknown {
  if (nestingExceeds(patch, MAX_JSON_NESTING_DEPTH)) throw new PatchError('invalid-patch', 'invalid JSON patch');
  const ops = checkDecodable(patch, options.fieldValidation ?? 'Warn');
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new PatchError('too-large', `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  if (typeof doc !== 'object' || doc === null) {
    throw new PatchError('apply-failed', `json: cannot unmarshal ${jsonValueKind(doc)} into Go value of type jsonpatch.partialDoc`);
  }
  const state: State = {
    root: cloneJsonDocument(doc as Container),
    copied: 0,
    maxCopy: options.maxCopyBytes ?? DEFAULT_JSON_PATCH_MAX_COPY_BYTES,
    text: new DocText(),
  };
  for (const op of ops) {
    try {
      applyOp(state, op as Op);
    } catch (e) {
      if (e instanceof PatchError) throw e;
      if (e instanceof OpError) throw new PatchError('apply-failed', e.message);
      if (e instanceof GoPanic) throw new PatchError('panic', e.message);
      throw e;
    }
  }
  return state.root;
}
