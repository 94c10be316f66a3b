/**
 * update (PUT), on the main resource or on a subresource such as `/status`: decode the body, check
 * it names the object of the URL, and give the store the new object with its preconditions (the
 * body's resourceVersion and uid). The store keeps what may not change, writes with
 * compare-and-swap and creates the object when the kind creates on update.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { badRequest, conflict, invalid, OBJECT_MODIFIED } from '../../machinery/errors.js';
import { fieldError } from '../../machinery/field-errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { objectKey, type EngineContext } from '../context.js';
import { decodeBody } from '../decode-body.js';
import { fieldValidationOf, validateWriteOptions } from '../options.js';
import { checkUidPrecondition, parseUpdateResourceVersion } from '../preconditions.js';
import { updateObject } from '../store/update.js';
import { metaOf, reconcileNamespace } from '../write-steps.js';
import { isPromise } from '../../util/maybe-promise.js';

/** The update verb (PUT on an item or its subresource). */
export async function update(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<KubeObject>> {
  validateWriteOptions('UpdateOptions', req.writeOptions);
  const def = kind.definition;
  const gr = { group: kind.group, resource: def.plural };
  const name = req.name ?? '';
  const decoding = decodeBody(ctx.registry, kind, version, req.body, fieldValidationOf(req.writeOptions), req.duplicateFields);
  const decoded = isPromise(decoding) ? await decoding : decoding;
  const body = decoded.object;
  const bodyName = metaOf(body).name ?? '';
  if (bodyName !== name) throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  reconcileNamespace(kind, body, req.namespace);
  const requestedRv = body.metadata?.resourceVersion;
  const change = { object: body, warnings: decoded.warnings, conditional: !!requestedRv };

  return updateObject(ctx, kind, req, version, objectKey(kind, body.metadata?.namespace, name), {
    tryUpdate(current) {
      if (!current) return change;
      checkUidPrecondition(kind, current, body);
      if (requestedRv) {
        if (parseUpdateResourceVersion(requestedRv) !== current.revision) throw conflict(gr, name, OBJECT_MODIFIED);
      } else if (def.allowUnconditionalUpdate === false) {
        throw invalid({ group: kind.group, kind: def.kind }, name, [fieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update')]);
      }
      return change;
    },
  });
}
