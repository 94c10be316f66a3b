/**
 * OpenAPI 3.0 documents, one per group-version (`/openapi/v3/api/v1`, `/openapi/v3/apis/<g>/<v>`),
 * as Kubernetes' kube-openapi serves them: `components.schemas` with Kubernetes' names and
 * `paths` with every served resource's operations.
 */
import type { KindRegistry } from '../schema/registry.js';
import type { Operation, OperationParameter } from './operations.js';
import { documentPaths, producedMediaTypes, responseDescription } from './paths.js';
import { definitionSet, groupVersions, NEUTRAL_REF, type JsonSchema } from './schemas.js';

const V3_REF = '#/components/schemas/';

/** Rewrites neutral `#/definitions/` refs to `#/components/schemas/`. */
export function toV3Refs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toV3Refs);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace(NEUTRAL_REF, V3_REF) : k.startsWith('x-kubernetes-') ? v : toV3Refs(v);
  }
  return out;
}

function parameter(p: OperationParameter): JsonSchema {
  return { name: p.name, in: p.in, ...(p.required ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}

const ref = (name: string) => ({ $ref: `${V3_REF}${name}` });

function operation(o: Operation): JsonSchema {
  const produces = producedMediaTypes(o);
  const responses: JsonSchema = {};
  for (const [code, def] of Object.entries(o.responses)) {
    responses[code] = { description: responseDescription(code), content: Object.fromEntries(produces.map((t) => [t, { schema: ref(def) }])) };
  }
  responses['401'] = { description: 'Unauthorized' };
  return {
    tags: [o.tag],
    operationId: o.operationId,
    ...(o.parameters.length ? { parameters: o.parameters.map(parameter) } : {}),
    ...(o.body
      ? {
          requestBody: {
            content: Object.fromEntries(o.consumes.map((t) => [t, { schema: ref(o.body!) }])),
            ...(o.method === 'delete' ? {} : { required: true }),
          },
        }
      : {}),
    responses,
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.gvk,
  };
}

/** The group-version keys served, for the `/openapi/v3` index. */
export function v3Keys(registry: KindRegistry): string[] {
  return [...groupVersions(registry).keys()];
}

/** One group-version document, or undefined when the group-version is not served. */
export function v3Document(registry: KindRegistry, key: string, version: string): JsonSchema | undefined {
  const gv = groupVersions(registry).get(key);
  if (!gv) return undefined;
  const set = definitionSet(gv.kinds.map((kind) => ({ kind, version: gv.version })));
  const paths = documentPaths(set.kinds, { operation, parameter });
  const schemas = Object.fromEntries(
    Object.keys(set.definitions)
      .sort()
      .map((name) => [name, toV3Refs(set.definitions[name])]),
  );
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version }, paths, components: { schemas } };
}
