/**
 * The Swagger 2.0 document (`/openapi/v2`): every served group-version in one, with `definitions`
 * and `paths` as Kubernetes publishes them. What Swagger 2.0 cannot say is written its way:
 * a single `allOf` ref becomes a plain `$ref`, int-or-string becomes `type: string,
 * format: int-or-string`, and `anyOf`/`oneOf`/`nullable` go.
 */
import type { KindRegistry } from '../schema/registry.js';
import type { Operation, OperationParameter } from './operations.js';
import { documentPaths, producedMediaTypes, responseDescription } from './paths.js';
import { definitionSet, groupVersions, type JsonSchema } from './schemas.js';

/** A neutral (OpenAPI 3.0) schema as Swagger 2.0. */
export function toV2Schema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toV2Schema);
  if (node === null || typeof node !== 'object') return node;
  const s = node as JsonSchema;
  const allOf = s.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && !s.properties && !s.type) {
    const { allOf: _drop, default: _default, ...rest } = s;
    return { ...(toV2Schema(allOf[0]) as JsonSchema), ...toV2Fields(rest) };
  }
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const types = variants.map((v) => v.type);
    if (s['x-kubernetes-int-or-string'] === true && types.includes('integer')) return { ...toV2Fields(rest), type: 'string', format: 'int-or-string' };
    if (types.includes('string')) return { ...toV2Fields(rest), type: 'string' };
    return toV2Fields(rest);
  }
  return toV2Fields(s);
}

function toV2Fields(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable') continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([n, p]) => [n, toV2Schema(p)]));
    else if (k.startsWith('x-kubernetes-') || k === 'required' || k === 'enum' || k === 'default') out[k] = v;
    else out[k] = toV2Schema(v);
  }
  return out;
}

function parameter(p: OperationParameter): JsonSchema {
  return { name: p.name, in: p.in, type: p.type, uniqueItems: true, ...(p.required ? { required: true } : {}) };
}

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

function operation(o: Operation): JsonSchema {
  const responses: JsonSchema = {};
  for (const [code, def] of Object.entries(o.responses)) responses[code] = { description: responseDescription(code), schema: ref(def) };
  responses['401'] = { description: 'Unauthorized' };
  const params = o.parameters.map(parameter);
  if (o.body) params.unshift({ name: 'body', in: 'body', ...(o.method === 'delete' ? {} : { required: true }), schema: ref(o.body) });
  return {
    ...(o.consumes.length ? { consumes: o.consumes } : {}),
    produces: producedMediaTypes(o),
    schemes: ['https'],
    tags: [o.tag],
    operationId: o.operationId,
    ...(params.length ? { parameters: params } : {}),
    responses,
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.gvk,
  };
}

/** The whole Swagger 2.0 document. */
export function v2Document(registry: KindRegistry, version: string): JsonSchema {
  const entries = [...groupVersions(registry).values()].flatMap((gv) => gv.kinds.map((kind) => ({ kind, version: gv.version })));
  const set = definitionSet(entries);
  const paths = documentPaths(set.kinds, { operation, parameter });
  const definitions = Object.fromEntries(
    Object.keys(set.definitions)
      .sort()
      .map((name) => [name, toV2Schema(set.definitions[name])]),
  );
  return { swagger: '2.0', info: { title: 'Kubernetes', version }, paths, definitions };
}
