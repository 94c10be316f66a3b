/**
 * Decoding a request body against a kind's structural schema, the way Kubernetes' JSON decoder
 * does it: wrong types fail the whole request (400), unknown fields are dropped and reported
 * (Strict fails, Warn warns, Ignore drops silently), `null` means "unset", and the result is a
 * fresh object the caller's input cannot reach.
 */
import { getOwn, setOwn } from '../util/own.js';
import { quantityParseError } from './quantity.js';
import { goZeroValue } from './go-zero-value.js';
import type { StructuralNode } from './structural.js';

/** A type mismatch, reported the way Go's encoding/json reports it. */
export class DecodeTypeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeTypeError';
  }
}

/** What decoding found besides the value. */
export interface DecodeResult {
  value: unknown;
  /** Field paths of unknown fields, e.g. `spec.containers[0].foo`, in document order. */
  unknownFields: string[];
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

function goTypeName(node: StructuralNode): string {
  switch (node.type) {
    case 'object':
      return node.id ? shortGoName(node.id) : 'struct';
    case 'map':
      return `map[string]${goTypeName(node.values)}`;
    case 'array':
      return `[]${goTypeName(node.items)}`;
    case 'string':
      return node.format === 'byte' ? '[]uint8' : node.format === 'date-time' ? 'Time' : 'string';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'int-or-string':
      return node.quantity ? 'resource.Quantity' : 'intstr.IntOrString';
    default:
      return 'interface {}';
  }
}

/** `io.k8s.api.core.v1.Container` → `v1.Container`, as Go prints a type. */
function shortGoName(id: string): string {
  const parts = id.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : id;
}

function structName(id: string | undefined): string {
  return id ? (id.split('.').pop() ?? id) : '';
}

/** Base64 check matching Go's StdEncoding: padding required; `\r` and `\n` are skipped, as Go skips them. */
function base64Error(raw: string): string | undefined {
  const text = raw.includes('\n') || raw.includes('\r') ? raw.replace(/[\r\n]/g, '') : raw;
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    let i = 0;
    for (; i < text.length; i++) if (!/[A-Za-z0-9+/=]/.test(text[i]!)) break;
    const at = i < text.length ? i : Math.max(0, text.length - (text.length % 4 || 4));
    return `illegal base64 data at input byte ${at}`;
  }
  return undefined;
}

interface Walk {
  unknown: string[];
  /** How many objects, maps and arrays enclose the value being decoded. */
  depth: number;
  /**
   * Where the walk is, step by step: a struct field, a map key or an array index. The paths of
   * reports and errors are written from it only when there is one to make.
   */
  readonly names: (string | number)[];
  readonly steps: Step[];
}

const enum Step {
  Field,
  Key,
  Index,
}

/** The field path of the walk's place (`spec.containers[0]`), with `field` below it when given. */
function pathOf(w: Walk, field?: string): string {
  let p = '';
  for (let i = 0; i < w.steps.length; i++) {
    const name = w.names[i]!;
    const step = w.steps[i]!;
    if (step === Step.Field) p = p ? `${p}.${name}` : String(name);
    else if (step === Step.Key) p = `${p}.${name}`;
    else p = `${p}[${name}]`;
  }
  if (field !== undefined) p = p ? `${p}.${field}` : field;
  return p;
}

/** The index-free path Go puts in type errors: struct fields only (`spec.containers`). */
function goPathOf(w: Walk): string {
  let p = '';
  for (let i = 0; i < w.steps.length; i++) if (w.steps[i] === Step.Field) p = p ? `${p}.${w.names[i]!}` : String(w.names[i]!);
  return p;
}

function enter(w: Walk, step: Step, name: string | number): void {
  w.steps.push(step);
  w.names.push(name);
}

function leave(w: Walk): void {
  w.steps.pop();
  w.names.pop();
}

/**
 * How deeply typed values may nest (objects, maps and arrays, each a level). Go decodes to 10,000
 * levels; the decoder here recurses, so it answers a clear error well before the call stack ends.
 * Only recursive types reach it (a definition's JSONSchemaProps, whose schemas memkube bounds at
 * 1,000 levels anyway); untyped values are not walked.
 */
export const MAX_DECODE_DEPTH = 2000;

function deeper(w: Walk): void {
  if (++w.depth > MAX_DECODE_DEPTH) throw new DecodeTypeError(`json: exceeded max depth of ${MAX_DECODE_DEPTH} nested values (a memkube limit)`);
}

/** Go's type error for `input` where `node`'s type was wanted, at the walk's place. */
function typeError(input: unknown, node: StructuralNode, owner: string, w: Walk): DecodeTypeError {
  const goPath = goPathOf(w);
  const where = goPath ? ` into Go struct field ${owner}.${goPath}` : ' into Go value';
  return new DecodeTypeError(`json: cannot unmarshal ${jsonTypeName(input)}${where} of type ${goTypeName(node)}`);
}

/** The struct type name of an object node (`ObjectMeta`), made once per node id. */
const structNames = new Map<string, string>();

function structNameOf(node: StructuralNode): string {
  const id = node.id;
  if (!id) return '';
  let name = structNames.get(id);
  if (name === undefined) structNames.set(id, (name = structName(id)));
  return name;
}

/**
 * Decodes `input` against `node`. `owner` is the struct type that holds the current field; the
 * walk `w` knows where it is, for the paths of unknown-field reports (`spec.containers[0]`) and
 * of Go's type errors (`spec.containers`).
 */
function walk(input: unknown, node: StructuralNode, owner: string, w: Walk): unknown {
  switch (node.type) {
    case 'any':
      return input;
    case 'object': {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) throw typeError(input, node, owner, w);
      deeper(w);
      const out: Record<string, unknown> = {};
      const ownerName = structNameOf(node) || owner;
      const source = input as Record<string, unknown>;
      for (const k of Object.keys(source)) {
        const v = source[k];
        const child = node.properties.get(k);
        if (!child) {
          w.unknown.push(pathOf(w, k));
          continue;
        }
        // null means unset, as in Go; undefined (in-process callers) is simply absent, as JSON would have it.
        if (v === null || v === undefined) continue;
        enter(w, Step.Field, k);
        setOwn(out, k, walk(v, child, ownerName, w));
        leave(w);
      }
      w.depth--;
      return out;
    }
    case 'map': {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) throw typeError(input, node, owner, w);
      deeper(w);
      const out: Record<string, unknown> = {};
      const source = input as Record<string, unknown>;
      for (const k of Object.keys(source)) {
        const v = source[k];
        if (v === undefined) continue;
        // A map key is any string (a ConfigMap may hold `__proto__`): defined, never assigned.
        if (v === null) setOwn(out, k, goZeroValue(node.values));
        else {
          enter(w, Step.Key, k);
          setOwn(out, k, walk(v, node.values, owner, w));
          leave(w);
        }
      }
      w.depth--;
      return out;
    }
    case 'array': {
      if (!Array.isArray(input)) throw typeError(input, node, owner, w);
      deeper(w);
      const out = new Array<unknown>(input.length);
      for (let i = 0; i < input.length; i++) {
        if (!(i in input)) continue; // a hole (in-process callers only) stays one
        const item: unknown = input[i];
        if (item === null) out[i] = goZeroValue(node.items);
        else {
          enter(w, Step.Index, i);
          out[i] = walk(item, node.items, owner, w);
          leave(w);
        }
      }
      w.depth--;
      return out;
    }
    case 'string': {
      if (typeof input !== 'string') throw typeError(input, node, owner, w);
      if (node.format === 'byte') {
        const err = base64Error(input);
        if (err) throw new DecodeTypeError(err);
        // Go decodes to bytes and encodes back without the line breaks it skipped.
        if (input.includes('\n') || input.includes('\r')) return input.replace(/[\r\n]/g, '');
      } else if (node.format === 'date-time' && !RFC3339.test(input)) {
        throw new DecodeTypeError(`parsing time ${JSON.stringify(input)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(input)} as "2006"`);
      }
      return input;
    }
    case 'integer': {
      if (typeof input !== 'number') throw typeError(input, node, owner, w);
      const ok = Number.isInteger(input) && (node.format !== 'int32' || (input >= -2147483648 && input <= 2147483647));
      if (!ok) {
        const goPath = goPathOf(w);
        const where = goPath ? ` into Go struct field ${owner}.${goPath}` : ' into Go value';
        throw new DecodeTypeError(`json: cannot unmarshal number ${input}${where} of type ${goTypeName(node)}`);
      }
      return input;
    }
    case 'number':
      if (typeof input !== 'number' || !Number.isFinite(input)) throw typeError(input, node, owner, w);
      return input;
    case 'boolean':
      if (typeof input !== 'boolean') throw typeError(input, node, owner, w);
      return input;
    case 'int-or-string': {
      if (node.quantity) {
        if (typeof input !== 'string' && typeof input !== 'number') throw typeError(input, node, owner, w);
        const error = quantityParseError(String(input).trim());
        if (error) throw new DecodeTypeError(error);
        return input;
      }
      if (typeof input === 'string') return input;
      if (typeof input === 'number' && Number.isInteger(input) && input >= -2147483648 && input <= 2147483647) return input;
      throw typeError(input, node, owner, w);
    }
  }
}

/** Decodes a body against a structural schema; throws {@link DecodeTypeError} on a type mismatch. */
export function decodeWithSchema(input: unknown, node: StructuralNode): DecodeResult {
  const w: Walk = { unknown: [], depth: 0, names: [], steps: [] };
  const value = walk(input, node, structNameOf(node), w);
  return { value, unknownFields: w.unknown };
}

/**
 * Fields that are required by the schema but absent, as field paths. Only the parts of the schema
 * that require something below them are walked, and a path is written only for a missing field:
 * every write asks, and most of an object (a ConfigMap's data, labels) can require nothing.
 */
export function missingRequired(value: unknown, node: StructuralNode, path = ''): string[] {
  const out: string[] = [];
  const visit = (v: unknown, n: StructuralNode, p: string): void => {
    if (v === null || v === undefined || !requiresBelow(n)) return;
    switch (n.type) {
      case 'object': {
        if (typeof v !== 'object' || Array.isArray(v)) return;
        const obj = v as Record<string, unknown>;
        for (const r of n.required) {
          // Presence is what the schema requires (as for custom resources): "" is a value.
          const x = getOwn(obj, r);
          if (x === undefined || x === null) out.push(p ? `${p}.${r}` : r);
        }
        for (const [k, child] of requiringProperties(n)) {
          const x = getOwn(obj, k);
          if (x !== undefined) visit(x, child, p ? `${p}.${k}` : k);
        }
        return;
      }
      case 'map':
        if (typeof v === 'object' && !Array.isArray(v)) for (const k of Object.keys(v)) visit((v as Record<string, unknown>)[k], n.values, `${p}[${k}]`);
        return;
      case 'array':
        if (Array.isArray(v)) v.forEach((x, i) => visit(x, n.items, `${p}[${i}]`));
        return;
      default:
        return;
    }
  };
  visit(value, node, path);
  return out;
}

/** The properties of an object node below which something is required, by node. */
const requiringChildren = new WeakMap<StructuralNode, readonly (readonly [string, StructuralNode])[]>();

function requiringProperties(n: StructuralNode & { type: 'object' }): readonly (readonly [string, StructuralNode])[] {
  let found = requiringChildren.get(n);
  if (!found) requiringChildren.set(n, (found = [...n.properties].filter(([, child]) => requiresBelow(child))));
  return found;
}

/** Whether anything at or below a node is required, by node (schemas never change once built). */
const requiring = new WeakMap<StructuralNode, boolean>();

function requiresBelow(n: StructuralNode): boolean {
  const known = requiring.get(n);
  if (known !== undefined) return known;
  // A recursive schema meets itself again below: counted as requiring until the answer is known,
  // which only ever walks more than needed, never less.
  requiring.set(n, true);
  let answer = false;
  switch (n.type) {
    case 'object':
      answer = n.required.size > 0 || [...n.properties.values()].some(requiresBelow);
      break;
    case 'map':
      answer = requiresBelow(n.values);
      break;
    case 'array':
      answer = requiresBelow(n.items);
      break;
  }
  requiring.set(n, answer);
  return answer;
}
