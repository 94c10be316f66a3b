/**
 * A minimal OpenAPI v3 (`/openapi/v3`, `/openapi/v3/api/v1`, `/openapi/v3/apis/<g>/<v>`): for each
 * kind its paths, with the PATCH operation tagged with `x-kubernetes-group-version-kind` and the
 * write parameters, so kubectl sees that the server validates fields itself (`fieldValidation`)
 * and leaves validation to it.
 */
import type { KindRegistry, ResolvedKind } from '../schema/registry.js';
import { KUBERNETES_VERSION } from './version.js';

function gvPaths(registry: KindRegistry): Map<string, { group: string; version: string; kinds: ResolvedKind[] }> {
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

/** A stable hash of a document's identity (the kinds it lists), for `serverRelativeURL`. */
function hashOf(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const ch of Buffer.from(text)) h = BigInt.asUintN(64, (h ^ BigInt(ch)) * 0x100000001b3n);
  return h.toString(16).toUpperCase().padStart(16, '0');
}

/** `/openapi/v3`: the index of group-version documents. */
export function openApiV3Index(registry: KindRegistry): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, gv] of gvPaths(registry)) {
    const hash = hashOf(`${key}:${gv.kinds.map((k) => k.definition.kind).join(',')}`);
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}

const QUERY = (name: string, type = 'string') => ({ name, in: 'query', schema: { type, uniqueItems: true } });

/** One group-version document, or undefined when the group-version is not served. */
export function openApiV3Document(registry: KindRegistry, key: string): unknown {
  const gv = gvPaths(registry).get(key);
  if (!gv) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const kind of gv.kinds) {
    const d = kind.definition;
    const gvk = { group: gv.group, version: gv.version, kind: d.kind };
    const prefix = gv.group ? `/apis/${gv.group}/${gv.version}` : `/api/${gv.version}`;
    const collection = kind.namespaced ? `${prefix}/namespaces/{namespace}/${d.plural}` : `${prefix}/${d.plural}`;
    const ref = { $ref: `#/components/schemas/${schemaName(kind, gv.version)}` };
    const response = { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } };
    const write = [QUERY('dryRun'), QUERY('fieldManager'), QUERY('fieldValidation')];
    paths[collection] = {
      post: { operationId: `create${d.kind}`, 'x-kubernetes-action': 'post', 'x-kubernetes-group-version-kind': gvk, parameters: write, requestBody: { content: { 'application/json': { schema: ref } } }, responses: response },
    };
    paths[`${collection}/{name}`] = {
      get: { operationId: `read${d.kind}`, 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': gvk, responses: response },
      put: { operationId: `replace${d.kind}`, 'x-kubernetes-action': 'put', 'x-kubernetes-group-version-kind': gvk, parameters: write, requestBody: { content: { 'application/json': { schema: ref } } }, responses: response },
      patch: {
        operationId: `patch${d.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': gvk,
        parameters: [...write, QUERY('force', 'boolean')],
        requestBody: {
          content: {
            'application/json-patch+json': { schema: { type: 'object' } },
            'application/merge-patch+json': { schema: { type: 'object' } },
            'application/apply-patch+yaml': { schema: { type: 'object' } },
          },
        },
        responses: response,
      },
    };
    schemas[schemaName(kind, gv.version)] = { type: 'object', 'x-kubernetes-group-version-kind': [gvk] };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: KUBERNETES_VERSION.gitVersion }, paths, components: { schemas } };
}

function schemaName(kind: ResolvedKind, version: string): string {
  const group = kind.group ? kind.group.split('.').reverse().join('.') : 'core';
  return `io.k8s.api.${group}.${version}.${kind.definition.kind}`;
}
