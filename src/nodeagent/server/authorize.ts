/**
 * What a request to the node agent asks for, and whether it may: kubelet's
 * `nodeAuthorizerAttributesGetter` (`pkg/kubelet/server/auth.go`: resource `nodes`, the node's
 * name, the verb by HTTP method, the subresource by path, with `KubeletFineGrainedAuthz` a
 * fine-grained subresource first and `proxy` as the fallback) and `BuildAuthz`
 * (`cmd/kubelet/app/auth.go`: `AlwaysAllow`, or `Webhook` asking SubjectAccessReviews with the
 * allowed and denied answers cached for their own TTLs).
 */
import { ExpiringLruCache } from '../../auth/webhook/cache.js';
import type { Clock } from '../../clock.js';
import type { UserInfo } from '../../machinery/request.js';
import type { KubeApiClient } from '../kube-api.js';
import { withWebhookRetry, type WebhookRetry } from './webhook-retry.js';

/**
 * How the secured port authorizes requests (kubelet's `authorization` settings).
 * @category Node agent
 */
export interface NodeAgentAuthorizationOptions {
  /** `--authorization-mode`: `AlwaysAllow` (the default) or `Webhook`. */
  mode?: 'AlwaysAllow' | 'Webhook';
  /** `--authorization-webhook-cache-authorized-ttl`; 5 minutes by default. */
  cacheAuthorizedTTLms?: number;
  /** `--authorization-webhook-cache-unauthorized-ttl`; 30 seconds by default. */
  cacheUnauthorizedTTLms?: number;
}

/** The attributes of one authorization question about the node (always resource `nodes`, version `v1`). */
export interface NodeRequestAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly resource: 'nodes';
  readonly subresource: string;
  readonly name: string;
  readonly path: string;
}

/** An authorizer's decision; an error (the review could not be made) is thrown. */
export type NodeAuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

/** Decides one question. */
export type NodeAuthorizer = (attributes: NodeRequestAttributes) => Promise<NodeAuthorizationDecision>;

export const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;
/** k8s.io/apiserver's webhook authorizer keeps this many answers. */
const DECISION_CACHE_SIZE = 8192;

const VERBS: Readonly<Record<string, string>> = { POST: 'create', GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** kubelet's `isSubpath`: `path` itself or anything below it (a trailing slash of `base` ignored). */
function isSubpath(path: string, base: string): boolean {
  const root = base.endsWith('/') ? base.slice(0, -1) : base;
  return path === root || (path.startsWith(root) && path[root.length] === '/');
}

/**
 * The questions a request asks, in the order kubelet tries them: with fine-grained authorization
 * `/pods` and `/runningpods/` ask `pods`, `/healthz` `healthz`, `/configz` `configz`, `/statusz`
 * `statusz` before the coarse subresource; `/stats/` asks `stats`, `/metrics` `metrics`, `/logs/`
 * `log`, `/checkpoint/` `checkpoint`, everything else (`/containerLogs` included) `proxy`.
 */
export function nodeRequestAttributes(user: UserInfo, method: string, path: string, nodeName: string, fineGrained: boolean): NodeRequestAttributes[] {
  const subresources: string[] = [];
  if (fineGrained) {
    if (isSubpath(path, '/pods')) subresources.push('pods');
    else if (isSubpath(path, '/healthz')) subresources.push('healthz');
    else if (isSubpath(path, '/configz')) subresources.push('configz');
    else if (isSubpath(path, '/statusz')) subresources.push('statusz');
    else if (isSubpath(path, '/runningpods/')) subresources.push('pods');
  }
  if (isSubpath(path, '/stats/')) subresources.push('stats');
  else if (isSubpath(path, '/metrics')) subresources.push('metrics');
  else if (isSubpath(path, '/logs/')) subresources.push('log');
  else if (isSubpath(path, '/checkpoint/')) subresources.push('checkpoint');
  else subresources.push('proxy');
  const verb = VERBS[method] ?? '';
  return subresources.map((subresource) => ({ user, verb, resource: 'nodes', subresource, name: nodeName, path }));
}

/** kubelet's 403 text: the first question's user, verb and resource, and every subresource asked. */
export function forbiddenText(attributes: readonly NodeRequestAttributes[]): string {
  const first = attributes[0]!;
  return `Forbidden (user=${first.user.username}, verb=${first.verb}, resource=${first.resource}, subresource(s)=[${attributes.map((a) => a.subresource).join(' ')}])\n`;
}

/** kubelet's 500 text when a question could not be answered. */
export function authorizationErrorText(a: NodeRequestAttributes): string {
  return `Authorization error (user=${a.user.username}, verb=${a.verb}, resource=${a.resource}, subresource=${a.subresource})`;
}

interface SubjectAccessReviewAnswer {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

/** The authorizer of `mode`. */
export function createNodeAuthorizer(
  options: NodeAgentAuthorizationOptions,
  deps: { kube?: KubeApiClient; clock: Clock; retry?: WebhookRetry },
): NodeAuthorizer {
  if ((options.mode ?? 'AlwaysAllow') === 'AlwaysAllow') return async () => 'Allow';
  const kube = deps.kube;
  if (!kube) throw new Error('no client provided, cannot use webhook authorization');
  const allowedTtl = options.cacheAuthorizedTTLms ?? DEFAULT_AUTHORIZED_TTL_MS;
  const deniedTtl = options.cacheUnauthorizedTTLms ?? DEFAULT_UNAUTHORIZED_TTL_MS;
  const cache = new ExpiringLruCache<NodeAuthorizationDecision>(DECISION_CACHE_SIZE, () => deps.clock.now());
  return async (a) => {
    const spec = {
      resourceAttributes: { verb: a.verb, version: 'v1', resource: a.resource, subresource: a.subresource, name: a.name },
      user: a.user.username,
      ...(a.user.groups.length ? { groups: a.user.groups } : {}),
      ...(a.user.extra && Object.keys(a.user.extra).length ? { extra: a.user.extra } : {}),
      ...(a.user.uid ? { uid: a.user.uid } : {}),
    };
    // The webhook authorizer's cache key is the review's spec.
    const key = JSON.stringify(spec);
    const cached = cache.get(key);
    if (cached) return cached;
    const answer = await withWebhookRetry(deps.retry, () =>
      kube.request<SubjectAccessReviewAnswer>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec },
      }),
    );
    const decision: NodeAuthorizationDecision = answer.status?.allowed ? 'Allow' : answer.status?.denied ? 'Deny' : 'NoOpinion';
    cache.add(key, decision, decision === 'Allow' ? allowedTtl : deniedTtl);
    return decision;
  };
}
