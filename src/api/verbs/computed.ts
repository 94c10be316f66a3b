/**
 * get and list of a kind whose objects the server computes instead of storing (`computedObjects`,
 * e.g. ComponentStatus, which Kubernetes answers from its own health checks): nothing is read from
 * storage; a list applies the request's label and field selectors and has no resourceVersion.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import { notFound } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { compileSelection } from '../selection.js';

/** get or list of a computed kind. */
export function computedRead(kind: ResolvedKind, req: ApiRequest, version: string, objects: readonly KubeObject[]): ApiResponse {
  const apiVersion = apiVersionOf(kind.group, version);
  if (req.verb === 'get') {
    const found = objects.find((o) => o.metadata?.name === req.name);
    if (!found) throw notFound({ group: kind.group, resource: kind.definition.plural }, req.name ?? '');
    return { code: 200, body: { kind: kind.definition.kind, apiVersion, ...structuredClone(found) }, warnings: [] };
  }
  const selection = compileSelection(kind, req.listOptions, false);
  // The list has no resourceVersion: Kubernetes answers an empty ListMeta.
  const body = {
    apiVersion,
    kind: `${kind.definition.kind}List`,
    metadata: {},
    items: objects.filter((o) => selection.matches(o)).map((o) => structuredClone(o)),
  };
  return { code: 200, body, warnings: [] };
}
