/**
 * POST to an action subresource (a Pod's `binding`, `eviction`): the body is decoded as the
 * action's kind (400 when it is not one, or names another object than the URL, as Kubernetes'
 * BindingREST and EvictionREST answer), then the kind's action runs with an engine of its own to
 * call, as the same user.
 */
import { decodeWithSchema, DecodeTypeError } from '../../schema/decode.js';
import type { ActionContext, ActionSubresource, KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import { structuralOf, type StructuralNode } from '../../schema/structural.js';
import { StorageConflictError } from '../../storage/storage.js';
import { cloneJson } from '../../util/json-clone.js';
import { badRequest, notFound } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { requestsAsCaller } from '../caller-requests.js';
import { kindContext, objectKey, storageFor, type EngineContext } from '../context.js';
import { isDryRun, validateWriteOptions } from '../options.js';
import { inServerOrder } from '../write-steps.js';

const structural = new WeakMap<ActionSubresource, StructuralNode>();

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body as an object of the action's kind; 400 otherwise. */
function decodeActionBody(action: ActionSubresource, body: unknown): KubeObject {
  const expected = action.kind.kind;
  if (!isObject(body)) throw badRequest(`the object provided is unrecognized (must be of type ${expected})`);
  const accepted = [apiVersionOf(action.kind.group, action.kind.version), ...(action.alsoAccepts ?? [])];
  if (body.kind !== undefined && body.kind !== expected) throw badRequest(`not a ${expected} object: ${String(body.kind)}`);
  if (body.apiVersion !== undefined && !accepted.includes(String(body.apiVersion))) {
    throw badRequest(`${expected} in version ${JSON.stringify(String(body.apiVersion))} cannot be handled as a ${expected}`);
  }
  let node = structural.get(action);
  if (!node) structural.set(action, (node = structuralOf(action.schema)));
  try {
    return decodeWithSchema(body, node).value as KubeObject;
  } catch (e) {
    if (e instanceof DecodeTypeError)
      throw badRequest(`${expected} in version ${JSON.stringify(action.kind.version)} cannot be handled as a ${expected}: ${e.message}`);
    throw e;
  }
}

/** Runs an action subresource. `engine` answers the action's own requests. */
export async function act(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  action: ActionSubresource,
  engine: (req: ApiRequest) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  validateWriteOptions('CreateOptions', req.writeOptions);
  const body = decodeActionBody(action, req.body);
  const key = objectKey(kind, req.namespace, req.name!);
  const storage = storageFor(ctx, isDryRun(req.writeOptions));
  const actx: ActionContext = {
    ...kindContext(ctx, req, 'create'),
    request: requestsAsCaller(req, engine),
    async readTarget() {
      const stored = await storage.get(key);
      if (!stored) throw notFound({ group: kind.group, resource: kind.definition.plural }, req.name!);
      return { object: cloneJson(stored.value) as KubeObject, revision: stored.revision };
    },
    async writeTarget(obj, revision) {
      try {
        return (await storage.update(key, inServerOrder(obj), revision)).value as KubeObject;
      } catch (e) {
        if (e instanceof StorageConflictError) return undefined;
        throw e;
      }
    },
  };
  return action.run(body, { namespace: kind.namespaced ? req.namespace : undefined, name: req.name! }, actx);
}
