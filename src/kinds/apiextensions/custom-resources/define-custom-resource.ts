/**
 * Declaring a custom resource in TypeScript: a zod schema per version becomes the
 * CustomResourceDefinition to install (its `openAPIV3Schema` written from the schema) and a typed
 * target for the in-process client, so objects come back typed.
 */
import { z } from 'zod';
import type { TypedResourceTarget } from '../../../machinery/request.js';
import type { KubeObject, ObjectMetaLike } from '../../../schema/define-kind.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../types/apiextensions-v1.js';

/**
 * One version of a custom resource declared in TypeScript.
 * @category Defining kinds
 */
export interface CustomResourceVersionDeclaration<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  /**
   * The object's fields besides `apiVersion`, `kind` and `metadata` (typically `spec` and `status`),
   * as a zod object. Written into the definition as its OpenAPI schema.
   */
  readonly schema: S;
  /** Served; true by default. */
  readonly served?: boolean;
  /** The storage version; exactly one version must be it (the first by default). */
  readonly storage?: boolean;
  /** Serve `/status`. */
  readonly status?: boolean;
  /** Serve `/scale` from these paths. */
  readonly scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Columns of `kubectl get`, as the definition declares them. */
  readonly printerColumns?: CustomResourceDefinitionVersion['additionalPrinterColumns'];
}

/**
 * A custom resource declared in TypeScript.
 * @category Defining kinds
 */
export interface CustomResourceDeclaration<S extends z.ZodObject = z.ZodObject> {
  readonly group: string;
  readonly kind: string;
  /** Lowercase plural; the kind lowercased plus `s` by default. */
  readonly plural?: string;
  readonly singular?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly scope?: 'Namespaced' | 'Cluster';
  /** The versions; the first is the one `target` and the typed object use. */
  readonly versions: readonly [CustomResourceVersionDeclaration<S>, ...CustomResourceVersionDeclaration[]];
}

/**
 * The object type of a custom resource declared with schema `S`.
 * @category Defining kinds
 */
export type CustomResourceObject<S extends z.ZodObject> = z.infer<S> & { apiVersion?: string; kind?: string; metadata?: ObjectMetaLike };

/**
 * A declared custom resource: the definition to install and the typed target of its first version.
 * @category Defining kinds
 */
export interface CustomResource<T extends KubeObject> {
  /** The CustomResourceDefinition object (create it, e.g. with `cluster.client`, or `cluster.load`). */
  readonly definition: CustomResourceDefinition;
  /** The first version's resource, typed: `cluster.client.resource(widgets.target)`. */
  readonly target: TypedResourceTarget<T>;
}

type JsonSchema = Record<string, unknown>;

const INT32 = 2 ** 31;

/**
 * Rewrites what `z.toJSONSchema` writes into what a structural schema may hold: integer bounds as
 * `format: int32`/`int64`, `const` as a one-value `enum`, no `additionalProperties: false` (custom
 * resources prune unknown fields anyway), no `$schema`.
 */
function structural(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(structural);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (k === '$schema' || k === 'id' || k === 'propertyNames') continue;
    if (k === 'additionalProperties' && v === false) continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([name, s]) => [name, structural(s)]));
    else if (k === 'const') out.enum = [v];
    else if (k.startsWith('x-kubernetes-')) out[k] = v;
    else out[k] = structural(v);
  }
  if (out.type === 'integer') {
    if (out.minimum === -INT32 && out.maximum === INT32 - 1) {
      delete out.minimum;
      delete out.maximum;
      out.format ??= 'int32';
    } else if (out.minimum === Number.MIN_SAFE_INTEGER && out.maximum === Number.MAX_SAFE_INTEGER) {
      delete out.minimum;
      delete out.maximum;
      out.format ??= 'int64';
    }
  }
  return out;
}

/** The `openAPIV3Schema` of one version: the object with its declared fields. */
export function openApiSchemaOf(schema: z.ZodObject): JsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any', reused: 'inline', cycles: 'throw' });
  return { ...(structural(raw) as JsonSchema), type: 'object' };
}

/**
 * Declares a custom resource: the CustomResourceDefinition to install, and a typed target.
 *
 * @example
 * ```ts
 * const widgets = defineCustomResource({
 *   group: 'example.com',
 *   kind: 'Widget',
 *   versions: [{ name: 'v1', schema: z.object({ spec: z.object({ size: z.number().int() }) }) }],
 * });
 * await cluster.client.resource(kinds.CustomResourceDefinitionKind).create(widgets.definition);
 * await cluster.settle();
 * const w = await cluster.client.resource(widgets.target).create({ metadata: { name: 'a' }, spec: { size: 1 } });
 * ```
 * @category Defining kinds
 */
export function defineCustomResource<S extends z.ZodObject>(declaration: CustomResourceDeclaration<S>): CustomResource<CustomResourceObject<S>> {
  const plural = declaration.plural ?? `${declaration.kind.toLowerCase()}s`;
  const storageDeclared = declaration.versions.some((v) => v.storage);
  const versions: CustomResourceDefinitionVersion[] = declaration.versions.map((v, i) => ({
    name: v.name,
    served: v.served ?? true,
    storage: storageDeclared ? v.storage === true : i === 0,
    schema: { openAPIV3Schema: openApiSchemaOf(v.schema) },
    ...(v.status || v.scale ? { subresources: { ...(v.status ? { status: {} } : {}), ...(v.scale ? { scale: v.scale } : {}) } } : {}),
    ...(v.printerColumns ? { additionalPrinterColumns: v.printerColumns } : {}),
  }));
  const definition: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${declaration.group}` },
    spec: {
      group: declaration.group,
      scope: declaration.scope ?? 'Namespaced',
      names: {
        plural,
        kind: declaration.kind,
        ...(declaration.singular ? { singular: declaration.singular } : {}),
        ...(declaration.shortNames ? { shortNames: [...declaration.shortNames] } : {}),
        ...(declaration.categories ? { categories: [...declaration.categories] } : {}),
      },
      versions,
    },
  };
  return { definition, target: { group: declaration.group, version: declaration.versions[0].name, resource: plural } };
}
