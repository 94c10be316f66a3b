/**
 * The part of a zod schema's JSON Schema that the structural schema reads (types, properties,
 * required fields, items, map values, unions, formats, `$ref`s to the schemas with an `id`, and the
 * metadata), written straight from the zod definitions. `z.toJSONSchema` writes the whole document
 * and walks each schema through its generic machinery; for a Pod that is most of the 40 ms of its
 * first write. This covers the zod types the built-in kinds are made of and answers what
 * `z.toJSONSchema(schema, { io: 'input', reused: 'inline' })` answers for them, as far as
 * `structuralFromJsonSchema` reads it; for anything else (checks, defaults, literals, pipes, lazy or
 * nullable schemas, ...) it throws {@link NotWrittenHere} and the caller takes zod's own.
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

/** A schema this module does not write; zod's `toJSONSchema` does. */
export class NotWrittenHere extends Error {
  override name = 'NotWrittenHere';
}

interface ZodInternals {
  readonly def: { readonly type: string; readonly [key: string]: unknown };
  readonly parent?: z.ZodType;
  readonly optin?: string;
}

const internals = (s: z.ZodType): ZodInternals => (s as unknown as { _zod: ZodInternals })._zod;
const hasChecks = (def: ZodInternals['def']): boolean => ((def['checks'] as unknown[] | undefined)?.length ?? 0) > 0;

/** `json[key] = value` as an own property, `__proto__` too (as zod's `assignProp`). */
function assign(json: Json, key: string, value: unknown): void {
  Object.defineProperty(json, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The JSON Schema document of `root` (its `$defs` keyed by the schemas' ids), as far as the
 * structural schema reads it; throws {@link NotWrittenHere} for a schema it does not cover.
 */
export function structuralJsonOf(root: z.ZodType): Json {
  const defs: Json = {};
  const owners = new Map<string, z.ZodType>();
  // Schemas without an id being written, to refuse a cycle through them (zod writes those as refs).
  const open = new Set<z.ZodType>();
  let rootReferred = false;

  const json = (s: z.ZodType, isRoot = false): Json => {
    const meta = z.globalRegistry.get(s) as Json | undefined;
    const id = typeof meta?.['id'] === 'string' ? meta['id'] : undefined;
    if (id === undefined) return body(s, meta);
    // zod escapes these in its refs (as JSON pointers), which the structural schema does not unescape.
    if (/[~/%]/.test(id)) throw new NotWrittenHere(`an id with ~, / or %: ${id}`);
    const ref = { $ref: `#/$defs/${id}` };
    if (isRoot) return body(s, meta);
    // The root refers to itself: zod then writes it as a definition too, and the root as its ref.
    if (s === root) {
      rootReferred = true;
      return ref;
    }
    const owner = owners.get(id);
    if (owner !== undefined && owner !== s) throw new NotWrittenHere(`two schemas with the id ${id}`);
    if (owner === undefined) {
      // A schema with an id is a definition of its own, written once, referred to everywhere.
      owners.set(id, s);
      assign(defs, id, body(s, meta));
    }
    return ref;
  };

  const body = (s: z.ZodType, meta: Json | undefined): Json => {
    if (open.has(s)) throw new NotWrittenHere('a cycle through a schema without an id');
    open.add(s);
    const j = shapeOf(s);
    open.delete(s);
    // Metadata lands on the schema as zod assigns it (a copy's includes its parent's, but its id).
    if (meta) for (const [k, v] of Object.entries(meta)) assign(j, k, v);
    return j;
  };

  const shapeOf = (s: z.ZodType): Json => {
    const zi = internals(s);
    const def = zi.def;
    // A copy (`.meta()`) of a definition with an id refers to it; any other copy shares its def.
    const parentId = zi.parent ? (z.globalRegistry.get(zi.parent) as Json | undefined)?.['id'] : undefined;
    if (zi.parent && typeof parentId === 'string') return json(zi.parent);
    switch (def.type) {
      case 'object': {
        const shape = def['shape'] as Record<string, z.ZodType>;
        if (Object.getOwnPropertySymbols(shape).length) throw new NotWrittenHere('symbol keys');
        const properties: Json = {};
        const required: string[] = [];
        for (const key of Object.keys(shape)) {
          const field = shape[key]!;
          assign(properties, key, json(field));
          if (internals(field).optin === undefined) required.push(key);
        }
        return { type: 'object', properties, ...(required.length ? { required } : {}) };
      }
      case 'optional':
        return { ...json(def['innerType'] as z.ZodType) };
      case 'array':
        return { type: 'array', items: json(def['element'] as z.ZodType) };
      case 'record': {
        const key = internals(def['keyType'] as z.ZodType).def;
        if (key.type !== 'string' || hasChecks(key) || key['format'] !== undefined) throw new NotWrittenHere('a record with other keys than strings');
        return { type: 'object', additionalProperties: json(def['valueType'] as z.ZodType) };
      }
      case 'union':
        return { anyOf: (def['options'] as z.ZodType[]).map((o) => json(o)) };
      case 'string':
        if (hasChecks(def) || def['format'] !== undefined) throw new NotWrittenHere('a string with checks');
        return { type: 'string' };
      case 'number': {
        if (hasChecks(def)) throw new NotWrittenHere('a number with checks');
        // z.int32() and z.int(): the bounds zod writes, which the structural schema reads as a format.
        if (def['format'] === 'int32') return { type: 'integer', maximum: 2 ** 31 - 1, format: 'int32' };
        if (def['format'] === 'safeint') return { type: 'integer', maximum: Number.MAX_SAFE_INTEGER };
        if (def['format'] === undefined) return { type: 'number' };
        throw new NotWrittenHere(`a number of format ${String(def['format'])}`);
      }
      case 'boolean':
        if (hasChecks(def)) throw new NotWrittenHere('a boolean with checks');
        return { type: 'boolean' };
      case 'unknown':
      case 'any':
        return {};
      default:
        throw new NotWrittenHere(`zod type ${def.type}`);
    }
  };

  const top = json(root, true);
  if (!rootReferred) return { ...top, $defs: defs };
  const id = (z.globalRegistry.get(root) as Json)['id'] as string;
  const { id: _id, ...definition } = top;
  assign(defs, id, definition);
  return { $ref: `#/$defs/${id}`, $defs: defs };
}
