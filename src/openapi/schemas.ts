/**
 * The schema definitions of the OpenAPI documents, derived from each served kind version's zod
 * schema as schema/zod-openapi.ts publishes it (the one source, which a declared kind's schema
 * rules are compiled from too): definitions are named by the schemas' `id`
 * (`io.k8s.api.core.v1.Pod`, ...), every `x-kubernetes-*` extension is kept.
 *
 * The result is "neutral": OpenAPI 3.0 schemas whose refs read `#/definitions/<name>`; the v3 and
 * v2 writers only rewrite refs (and, for v2, what Swagger 2.0 cannot say).
 */
import { z } from 'zod';
import { DeleteOptions, ListMeta, Status, WatchEvent } from '../kinds/types/meta-v1.js';
import type { PublishedSchema } from '../schema/define-kind.js';
import type { KindRegistry, ResolvedKind } from '../schema/registry.js';
import { zodOpenApi } from '../schema/zod-openapi.js';

/** A JSON/OpenAPI schema object. */
export type JsonSchema = { [key: string]: unknown };

/** A group/version/kind as the `x-kubernetes-group-version-kind` extension spells it. */
export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** One served kind version: its schema names. */
export interface KindSchemaNames {
  kind: ResolvedKind;
  version: string;
  /** The definition of the object (`io.k8s.api.core.v1.Pod`). */
  object: string;
  /**
   * The definition of its list (`io.k8s.api.core.v1.PodList`); none for a kind that is never listed
   * (the reviews, Binding), as Kubernetes publishes none.
   */
  list?: string;
}

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const STATUS = `${META}.Status`;
export const DELETE_OPTIONS = `${META}.DeleteOptions`;
export const WATCH_EVENT = `${META}.WatchEvent`;
export const PATCH = `${META}.Patch`;
const LIST_META = `${META}.ListMeta`;

/** Prefix of refs between neutral definitions. */
export const NEUTRAL_REF = '#/definitions/';

/**
 * `z.toJSONSchema` of one schema as neutral definitions, and the name of the schema's own
 * definition (its `id`, or `fallbackName` when it has none).
 */
function definitionsOf(schema: z.ZodType, fallbackName: string): { name: string; defs: Record<string, JsonSchema> } {
  const { root, defs } = zodOpenApi(schema);
  fixRefs(defs);
  const rootRef = typeof root.$ref === 'string' ? root.$ref : undefined;
  if (rootRef && Object.keys(root).length === 1) return { name: rootRef.replace(/^#\/(definitions|\$defs)\//, ''), defs };
  fixRefs(root);
  defs[fallbackName] = root;
  return { name: fallbackName, defs };
}

/** zod writes `#/$defs/` for some targets; the neutral form is `#/definitions/`. */
function fixRefs(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(fixRefs);
  } else if (node && typeof node === 'object') {
    const o = node as JsonSchema;
    if (typeof o.$ref === 'string') o.$ref = o.$ref.replace(/^#\/\$defs\//, NEUTRAL_REF);
    for (const v of Object.values(o)) fixRefs(v);
  }
}

/**
 * The definition name of a kind whose schema has no `id`: `io.k8s.api.<group>.<version>.<Kind>`
 * for Kubernetes' groups, the reversed group for others (`com.example.stable.v1.CronTab`), as
 * Kubernetes names custom resources.
 */
export function kubernetesName(group: string, version: string, kind: string): string {
  if (!group) return `io.k8s.api.core.${version}.${kind}`;
  if (group.endsWith('.k8s.io') || !group.includes('.')) return `io.k8s.api.${group.replace(/\.k8s\.io$/, '')}.${version}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function gvkList(schema: JsonSchema): Gvk[] {
  const v = schema['x-kubernetes-group-version-kind'];
  return Array.isArray(v) ? (v as Gvk[]) : [];
}

/** Adds the GVK to a definition's `x-kubernetes-group-version-kind` unless it is there. */
function withGvk(schema: JsonSchema, gvk: Gvk): JsonSchema {
  const list = gvkList(schema);
  if (list.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) return schema;
  return { ...schema, 'x-kubernetes-group-version-kind': [...list, gvk] };
}

function merge(into: Record<string, JsonSchema>, defs: Record<string, JsonSchema>): void {
  for (const [name, s] of Object.entries(defs)) into[name] ??= s;
}

/** The definitions of a set of served kind versions, with their lists and the meta types. */
export interface DefinitionSet {
  definitions: Record<string, JsonSchema>;
  kinds: KindSchemaNames[];
}

let metaDefs: Record<string, JsonSchema> | undefined;

/** The meta.k8s.io types the operations name (Status, DeleteOptions, WatchEvent, Patch). */
function metaDefinitions(): Record<string, JsonSchema> {
  if (!metaDefs) {
    metaDefs = {};
    for (const s of [Status(), DeleteOptions(), WatchEvent(), ListMeta()]) merge(metaDefs, definitionsOf(s, 'unused').defs);
    // Kubernetes publishes the body of a PATCH as an object of any shape.
    metaDefs[PATCH] = { type: 'object' };
  }
  return metaDefs;
}

/** Definitions of the given kind versions (`[kind, version]` pairs), memoized per schema. */
export function definitionSet(entries: readonly { kind: ResolvedKind; version: string }[]): DefinitionSet {
  const definitions: Record<string, JsonSchema> = {};
  merge(definitions, metaDefinitions());
  const kinds: KindSchemaNames[] = [];
  for (const { kind, version } of entries) {
    const v = kind.versions.find((x) => x.name === version);
    if (!v) continue;
    const d = kind.definition;
    const gvk = { group: kind.group, version, kind: d.kind };
    const { name, defs } = v.published
      ? publishedDefinitions(v.published, kubernetesName(kind.group, version, d.kind))
      : kindDefinitions(v.schema, kubernetesName(kind.group, version, d.kind));
    merge(definitions, defs);
    definitions[name] = withGvk(definitions[name] ?? { type: 'object' }, gvk);
    const unsupported = d.unsupportedVerbs ?? [];
    if (d.review || (unsupported.includes('list') && unsupported.includes('watch'))) {
      kinds.push({ kind, version, object: name });
      continue;
    }
    const list = `${name}List`;
    definitions[list] = {
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        items: { type: 'array', items: { $ref: `${NEUTRAL_REF}${name}` } },
        kind: { type: 'string' },
        metadata: { allOf: [{ $ref: `${NEUTRAL_REF}${LIST_META}` }], default: {} },
      },
      'x-kubernetes-group-version-kind': [{ group: kind.group, version, kind: `${d.kind}List` }],
    };
    kinds.push({ kind, version, object: name, list });
  }
  return { definitions, kinds };
}

/** The definition of a version whose schema is published as OpenAPI (a custom resource's). */
function publishedDefinitions(published: PublishedSchema, name: string): { name: string; defs: Record<string, JsonSchema> } {
  return { name, defs: { [name]: published.openApi() } };
}

const kindCache = new WeakMap<z.ZodType, { name: string; defs: Record<string, JsonSchema> }>();

function kindDefinitions(schema: z.ZodType, fallbackName: string): { name: string; defs: Record<string, JsonSchema> } {
  let out = kindCache.get(schema);
  if (!out) {
    out = definitionsOf(schema, fallbackName);
    kindCache.set(schema, out);
  }
  return out;
}

/** Every served group-version key (`api/v1`, `apis/apps/v1`) with its kinds, in registry order. */
export function groupVersions(registry: KindRegistry): Map<string, { group: string; version: string; kinds: ResolvedKind[] }> {
  const out = new Map<string, { group: string; version: string; kinds: ResolvedKind[] }>();
  for (const kind of registry.kinds()) {
    for (const v of kind.versions) {
      const key = kind.group ? `apis/${kind.group}/${v.name}` : `api/${v.name}`;
      const entry = out.get(key) ?? { group: kind.group, version: v.name, kinds: [] };
      entry.kinds.push(kind);
      out.set(key, entry);
    }
  }
  return out;
}
