/**
 * create of a review kind (TokenReview, SubjectAccessReview, ...): nothing is stored. The body is
 * decoded and checked by the kind's own rules, then the kind's `review` fills in the answer, as
 * Kubernetes' review REST handlers (pkg/registry/authorization/subjectaccessreview/rest.go and
 * friends) answer without the generic store: no metadata rules, no generated name, no admission.
 */
import type { KubeObject, ReviewContext } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import { invalid } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { requestsAsCaller } from '../caller-requests.js';
import { kindContext, type EngineContext } from '../context.js';
import { decodeBody } from '../decode-body.js';
import { fieldValidationOf, validateWriteOptions } from '../options.js';
import { reconcileNamespace } from '../write-steps.js';

/** The create verb of a review kind: 201 with the reviewed object. */
export async function review(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  engine: (req: ApiRequest) => Promise<ApiResponse>,
): Promise<ApiResponse<KubeObject>> {
  validateWriteOptions('CreateOptions', req.writeOptions);
  const { object, warnings } = await decodeBody(ctx.registry, kind, version, req.body, fieldValidationOf(req.writeOptions), req.duplicateFields);
  if (kind.namespaced) reconcileNamespace(kind, object, req.namespace);
  const kctx: ReviewContext = {
    ...kindContext(ctx, req, 'create'),
    request: requestsAsCaller(req, engine),
  };
  const errors = (await kind.definition.strategy?.validate?.(object, kctx)) ?? [];
  // The review REST handlers name no object in their Invalid error: `SubjectAccessReview.authorization.k8s.io "" is invalid`.
  if (errors.length) throw invalid({ group: kind.group, kind: kind.definition.kind }, '', errors);
  const result = await kind.definition.review!(object, kctx);
  if (result.kind === 'Status') return { code: 201, body: result, warnings };
  const { apiVersion: _a, kind: _k, ...answered } = result;
  return { code: 201, body: { kind: kind.definition.kind, apiVersion: apiVersionOf(kind.group, version), ...answered }, warnings };
}
