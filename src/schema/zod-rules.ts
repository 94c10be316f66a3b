/**
 * The rules a declared kind's zod schema publishes, applied as a custom resource's schema is
 * applied (apiextensions-apiserver: structural defaulting on every decode, from a request or from
 * storage, then kube-openapi's value validation, with ratcheting on update): zod's `.default()`,
 * `.min()`/`.max()`/`.gt()`, `z.enum()`/`z.literal()`, string lengths and `.regex()`, formats
 * (`z.email()`, `z.uuid()`, ...), array sizes, and the invariants of `x-kubernetes-list-type`
 * `set` and `map` lists.
 *
 * They are compiled from the very schema the OpenAPI documents publish (zod-openapi.ts), by the
 * compiler custom resources use (custom/), so that what `kubectl explain` and client tools read is
 * what the server applies. What the schema cannot say (`.refine()`, `.transform()`) is neither
 * published nor applied: such rules belong in the kind's `strategy.validate`.
 */
import type { z } from 'zod';
import { compileGoRegexp } from '../util/go-regexp.js';
import { getOwn } from '../util/own.js';
import { compileCustomSchema, type CompiledCustomSchema, type JsonSchemaProps } from './custom/index.js';
import { structuralOf, type StructuralNode } from './structural.js';
import { zodOpenApi, type OpenApiSchema } from './zod-openapi.js';

/** A declared kind's schema that memkube cannot apply as it is published. */
export class SchemaRulesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaRulesError';
  }
}

/** Members whose value is a schema, or a map or list of schemas; everything else is data. */
const SCHEMA_MEMBERS = new Set(['items', 'additionalProperties', 'not']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/** Members that state a rule the decoder does not already enforce. */
const RULE_MEMBERS = [
  'default',
  'enum',
  'minimum',
  'maximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
];
/** Formats the decoder already enforces, as Go's JSON decoding of the field's type does. */
const DECODED_FORMATS = new Set(['', 'int32', 'int64', 'double', 'float', 'byte', 'date-time']);

interface Resolution {
  readonly defs: Record<string, OpenApiSchema>;
  /** The definitions being inlined on the current path (a recursive schema's cycle). */
  readonly open: Set<string>;
  rules: boolean;
  readonly problems: string[];
}

function refName(ref: string): string {
  return decodeURIComponent(ref.replace(/^#\/(definitions|\$defs)\//, ''));
}

/**
 * `schema` with its refs inlined, ready for the custom schema compiler. `required` is left out: the
 * engine reports missing required fields itself, as `<path>: Required value`, and a kind may turn
 * that off (`schemaRequired: false`).
 */
function resolve(schema: OpenApiSchema, path: string, r: Resolution): JsonSchemaProps {
  const ref = getOwn(schema, '$ref');
  if (typeof ref === 'string') {
    const name = refName(ref);
    const target = getOwn(r.defs, name) as OpenApiSchema | undefined;
    // A recursive schema is followed once: its rules hold down to the first repetition, and the
    // value beneath that is left as it is (a schema tree must be finite to be compiled).
    if (!target || r.open.has(name)) return {};
    r.open.add(name);
    try {
      const { $ref: _ref, ...local } = schema;
      const inlined = resolve(target, path, r);
      return Object.keys(local).length ? { ...inlined, ...resolve(local, path, r) } : inlined;
    } finally {
      r.open.delete(name);
    }
  }
  const allOf = getOwn(schema, 'allOf');
  if (Array.isArray(allOf) && allOf.length === 1 && allOf[0] !== null && typeof allOf[0] === 'object') {
    // OpenAPI 3.0 allows nothing beside a `$ref`, so zod wraps a referenced schema that has its own
    // description, default or nullability in a one-entry allOf: one schema, read as one.
    const { allOf: _allOf, ...local } = schema;
    return { ...resolve(allOf[0] as OpenApiSchema, path, r), ...resolve(local, path, r) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'required') continue;
    if (k === 'x-kubernetes-validations') {
      r.problems.push(`${path || '<root>'}: x-kubernetes-validations (CEL rules) are not applied to a declared kind; write the rule in strategy.validate`);
      continue;
    }
    if (k === 'properties' && v !== null && typeof v === 'object') {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, OpenApiSchema>).map(([name, s]) => [name, resolve(s, path ? `${path}.${name}` : name, r)]),
      );
    } else if (SCHEMA_MEMBERS.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = resolve(v as OpenApiSchema, k === 'not' ? path : `${path}[*]`, r);
    } else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) {
      out[k] = v.map((s: OpenApiSchema) => resolve(s, path, r));
    } else {
      out[k] = v;
    }
  }
  noteRules(out, path, r);
  return out;
}

function noteRules(s: Record<string, unknown>, path: string, r: Resolution): void {
  if (RULE_MEMBERS.some((m) => s[m] !== undefined)) r.rules = true;
  const format = typeof s.format === 'string' ? s.format : '';
  if (!DECODED_FORMATS.has(format)) r.rules = true;
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set' || listType === 'map') r.rules = true;
  if (typeof s.pattern === 'string') {
    const compiled = compileGoRegexp(s.pattern);
    // Kubernetes' patterns are Go (RE2) regular expressions; a JavaScript-only one (a lookahead, a
    // back-reference) would fail every value, so it is refused where it is declared.
    if (!compiled.ok) r.problems.push(`${path || '<root>'}: the pattern ${JSON.stringify(s.pattern)} is not RE2 syntax (${compiled.error})`);
  }
}

/**
 * The compiled rules of a kind version's zod schema, or undefined when it states none (nothing to
 * run). Throws {@link SchemaRulesError} for a schema whose published rules cannot be applied.
 */
export function compileZodRules(schema: z.ZodType, kind: string): CompiledCustomSchema | undefined {
  // A compiled schema holds no state of its own: every cluster serving the kind shares it.
  if (compiledRules.has(schema)) return compiledRules.get(schema);
  const compiled = compile(schema, kind);
  compiledRules.set(schema, compiled);
  return compiled;
}

const compiledRules = new WeakMap<z.ZodType, CompiledCustomSchema | undefined>();

function compile(schema: z.ZodType, kind: string): CompiledCustomSchema | undefined {
  const published = zodOpenApi(schema);
  let root = published.root;
  const topRef = getOwn(root, '$ref');
  if (typeof topRef === 'string') root = (getOwn(published.defs, refName(topRef)) as OpenApiSchema | undefined) ?? {};
  // The object's own metadata is ObjectMeta, which the engine decodes and checks with Kubernetes'
  // rules for it (names, labels, ...), not with its published schema.
  const properties = getOwn(root, 'properties') as Record<string, OpenApiSchema> | undefined;
  if (properties && Object.hasOwn(properties, 'metadata')) root = { ...root, properties: { ...properties, metadata: {} } };
  const r: Resolution = { defs: published.defs, open: new Set(), rules: false, problems: [] };
  const props = resolve(root, '', r);
  if (r.problems.length) throw new SchemaRulesError(`defineKind(${kind}): ${r.problems.join('; ')}`);
  if (!r.rules) return undefined;
  const structural = structuralOf(schema);
  const meta: StructuralNode | undefined = structural.type === 'object' ? structural.properties.get('metadata') : undefined;
  return compileCustomSchema(props, { objectMeta: meta ?? { type: 'any' } });
}
