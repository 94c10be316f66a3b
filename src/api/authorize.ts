/**
 * The engine's authorization step, for requests no door authorized yet (the in-process client, a
 * controller): the cluster's authorizer chain decides, as kube-apiserver's WithAuthorization
 * filter does — allowed requests go on; an authorizer error without an allow is a 500; anything
 * else a 403 worded as kube-apiserver's.
 */
import { forbiddenError } from '../auth/forbidden.js';
import { apiRequestAttributes } from '../auth/request-attributes.js';
import { isPrivileged } from '../auth/union.js';
import { internalError } from '../machinery/errors.js';
import type { ApiRequest } from '../machinery/request.js';
import type { EngineContext } from './context.js';

/**
 * Throws unless the cluster's authorizers allow `req`; a promise only when an authorizer is asked
 * (system:masters is allowed at once).
 */
export function authorize(ctx: EngineContext, req: ApiRequest): void | Promise<void> {
  // system:masters is allowed everything by every chain: the controllers and the default client skip the work.
  if (isPrivileged(req.user)) {
    annotateDecision(req, 'allow', '');
    return;
  }
  return authorizeByChain(ctx, req);
}

async function authorizeByChain(ctx: EngineContext, req: ApiRequest): Promise<void> {
  const attributes = apiRequestAttributes(req);
  const result = await ctx.auth.authorizer.authorize(attributes);
  if (result.decision === 'Allow') {
    annotateDecision(req, 'allow', result.reason);
    return;
  }
  if (result.evaluationError) {
    req.audit?.addAnnotation(REASON_ANNOTATION, 'internal error');
    throw internalError(result.evaluationError);
  }
  annotateDecision(req, 'forbid', result.reason);
  throw forbiddenError(attributes, result.reason);
}

/** The audit annotations kube-apiserver's authorization filter adds (`authorization.k8s.io/decision` and `/reason`). */
export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

function annotateDecision(req: ApiRequest, decision: 'allow' | 'forbid', reason: string): void {
  if (!req.audit) return;
  req.audit.addAnnotation(DECISION_ANNOTATION, decision);
  req.audit.addAnnotation(REASON_ANNOTATION, reason);
}
