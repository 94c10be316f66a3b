/**
 * A custom resource version's schema as the engine uses it: the structural tree the decoder,
 * strategic merge and apply walk, and the OpenAPI schema published for it, built as
 * apiextensions-apiserver's OpenAPI builder builds it (pkg/controller/openapi/builder
 * `buildKubeNative`): the version's schema with `apiVersion`, `kind` and `metadata` (a reference to
 * ObjectMeta) added, at the root and in every embedded resource.
 */
import { badRequest } from '../../../machinery/errors.js';
import { fieldErrorMessage } from '../../../machinery/field-errors.js';
import { compileCustomSchema, readObjectMeta, type CompiledCustomSchema, type JsonSchemaProps } from '../../../schema/custom/index.js';
import type { KubeObject, PublishedSchema } from '../../../schema/define-kind.js';
import { structuralOf, type StructuralNode } from '../../../schema/structural.js';
import { ObjectMeta } from '../../types/meta-v1.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../types/apiextensions-v1.js';

type Schema = Record<string, unknown>;

const OBJECT_META_REF = '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const API_VERSION_DOC =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DOC =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const EMBEDDED_API_VERSION_DOC =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND_DOC =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DOC = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** The `openAPIV3Schema` of a version (the version's own, or the definition's shared one). */
export function versionSchema(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion): Schema | undefined {
  return (version.schema?.openAPIV3Schema as Schema | undefined) ?? undefined;
}

function metadataRef(): Schema {
  return { description: METADATA_DOC, allOf: [{ $ref: OBJECT_META_REF }] };
}

/** A copy of `s` with the TypeMeta and ObjectMeta properties added to every embedded resource. */
function withEmbeddedMeta(s: unknown): unknown {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return s;
  const out: Schema = { ...(s as Schema) };
  if (out.properties && typeof out.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(out.properties as Schema).map(([k, v]) => [k, withEmbeddedMeta(v)]));
  }
  if (out.items && typeof out.items === 'object') out.items = withEmbeddedMeta(out.items);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = withEmbeddedMeta(out.additionalProperties);
  if (out['x-kubernetes-embedded-resource'] === true) {
    out.properties = {
      ...((out.properties as Schema | undefined) ?? {}),
      apiVersion: { type: 'string', description: EMBEDDED_API_VERSION_DOC },
      kind: { type: 'string', description: EMBEDDED_KIND_DOC },
      metadata: metadataRef(),
    };
    const required = new Set((out.required as string[] | undefined) ?? []);
    out.required = [...((out.required as string[] | undefined) ?? []), ...['kind', 'apiVersion'].filter((r) => !required.has(r))];
  }
  return out;
}

/** The published OpenAPI schema of a version's objects. */
export function publishedOpenApi(schema: Schema | undefined): Schema {
  if (!schema) return { type: 'object' };
  const root = withEmbeddedMeta(schema) as Schema;
  return {
    ...root,
    properties: {
      ...((root.properties as Schema | undefined) ?? {}),
      apiVersion: { type: 'string', description: API_VERSION_DOC },
      kind: { type: 'string', description: KIND_DOC },
      metadata: metadataRef(),
    },
  };
}

const ANY: StructuralNode = { type: 'any' };

let objectMetaNode: StructuralNode | undefined;
/** The structural schema of ObjectMeta, which custom resources and their embedded resources carry. */
export function objectMetaStructural(): StructuralNode {
  return (objectMetaNode ??= structuralOf(ObjectMeta()));
}

/** A version's schema compiled, or undefined for a version without one (everything preserved). */
export function compiledSchemaOf(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion): CompiledCustomSchema | undefined {
  const schema = versionSchema(crd, version);
  return schema ? compileCustomSchema(schema as JsonSchemaProps, { objectMeta: objectMetaStructural() }) : undefined;
}

/**
 * Decodes a custom resource as apiextensions-apiserver's schema coercion does on a request: the
 * root `metadata` read as ObjectMeta, unknown fields and non-nullable nulls pruned, embedded
 * resources coerced. A body that cannot be read answers 400.
 */
function decodeCustomResource(compiled: CompiledCustomSchema | undefined, raw: Readonly<Record<string, unknown>>, kind: string, version: string) {
  const fail = (why: string) => badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${why}`);
  const meta = readObjectMeta(raw as Record<string, unknown>, { objectMeta: objectMetaStructural() });
  if (meta.error !== undefined) throw fail(meta.error);
  const pruned = compiled ? compiled.prune(raw) : { value: raw, unknownFields: [], error: undefined };
  if (pruned.error) throw fail(fieldErrorMessage(pruned.error));
  const value = { ...(pruned.value as Record<string, unknown>) };
  if (meta.found) value['metadata'] = meta.meta ?? {};
  return { value: value as KubeObject, unknownFields: [...meta.unknownFields, ...pruned.unknownFields] };
}

/** The engine's view of a version's schema (and its compiled form, for the kind's rules). */
export function publishedSchemaOf(
  crd: CustomResourceDefinition,
  version: CustomResourceDefinitionVersion,
  compiled: CompiledCustomSchema | undefined,
): PublishedSchema {
  const schema = versionSchema(crd, version);
  const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
  let openApi: Schema | undefined;
  return {
    structural: compiled?.structural ?? ANY,
    openApi: () => (openApi ??= publishedOpenApi(schema)),
    decode: (raw) => decodeCustomResource(compiled, raw, kind, version.name),
    // As Kubernetes decodes stored objects: pruned by the current schema (bad embedded metadata
    // dropped), then defaulted.
    ...(compiled ? { onRead: (obj: KubeObject) => compiled.default(compiled.prune(obj, { dropInvalidMetadata: true }).value) as KubeObject } : {}),
  };
}
