/**
 * The OpenAPI 3.0 schema a zod schema is published as: `z.toJSONSchema`, then the JSON Schema bits
 * OpenAPI 3.0 lacks rewritten as Kubernetes publishes them (`format: int32`/`int64` instead of
 * integer bounds, `format: double`, no `propertyNames`, `enum` for `const`).
 *
 * One function, used twice: the OpenAPI documents (openapi/schemas.ts) publish it, and a declared
 * kind's schema rules (zod-rules.ts) are compiled from it, so what clients read is what the server
 * applies.
 */
import { z } from 'zod';

/** A JSON/OpenAPI schema object. */
export type OpenApiSchema = { [key: string]: unknown };

const INT32 = 2 ** 31;

/** Rewrites one zod-made schema (recursively) into OpenAPI 3.0 as Kubernetes publishes it. */
function normalize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalize);
  if (node === null || typeof node !== 'object') return node;
  const out: OpenApiSchema = {};
  for (const [k, v] of Object.entries(node as OpenApiSchema)) {
    if (k === '$schema' || k === 'propertyNames' || k === 'id') continue;
    if (k === 'properties' || k === 'definitions' || k === '$defs' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v as OpenApiSchema).map(([name, s]) => [name, normalize(s)]));
    } else if (k.startsWith('x-kubernetes-') || k === 'default' || k === 'enum') {
      out[k] = v; // extensions, defaults and enum values are data, not schemas
    } else if (k === 'const') {
      out.enum = [v];
    } else {
      out[k] = normalize(v);
    }
  }
  if (out.type === 'integer') {
    const min = out.minimum;
    const max = out.maximum;
    if (min === -INT32 && max === INT32 - 1) {
      delete out.minimum;
      delete out.maximum;
      out.format ??= 'int32';
    } else if (min === Number.MIN_SAFE_INTEGER && max === Number.MAX_SAFE_INTEGER) {
      delete out.minimum;
      delete out.maximum;
      out.format ??= 'int64';
    } else {
      out.format ??= 'int64';
    }
  } else if (out.type === 'number') {
    out.format ??= 'double';
  }
  return out;
}

/**
 * A `z.toJSONSchema` override that keeps `z.int32()` an int32 when it has bounds of its own
 * (`z.int32().max(10)`): zod then writes only the bounds, which would read as an int64.
 */
export function keepInt32(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { format?: unknown } } })._zod?.def;
  if (def?.format === 'int32' && ctx.jsonSchema.type === 'integer') ctx.jsonSchema.format ??= 'int32';
}

/**
 * The published form of a zod schema: the root schema and the definitions it refers to (by the
 * `id`s of `.meta()`), refs still as zod writes them (`#/definitions/<name>` or `#/$defs/<name>`).
 * A schema zod cannot express (a custom check) is published as an object of any fields.
 */
export function zodOpenApi(schema: z.ZodType): { root: OpenApiSchema; defs: Record<string, OpenApiSchema> } {
  let raw: OpenApiSchema;
  try {
    raw = z.toJSONSchema(schema, {
      target: 'openapi-3.0',
      unrepresentable: 'any',
      io: 'input',
      cycles: 'ref',
      reused: 'inline',
      override: keepInt32,
    }) as OpenApiSchema;
  } catch {
    raw = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
  const { definitions, $defs, ...root } = normalize(raw) as OpenApiSchema;
  return { root, defs: { ...(definitions as Record<string, OpenApiSchema> | undefined), ...($defs as Record<string, OpenApiSchema> | undefined) } };
}
