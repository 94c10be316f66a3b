/**
 * The vocabulary of authentication and authorization every layer speaks: what an authorizer is
 * asked (`authorizer.Attributes` of k8s.io/apiserver), what it answers, and the services a kind's
 * hooks may use (a review asks the cluster's authorizer; a role's write checks for escalation).
 */
import type { UserInfo } from './request.js';

/**
 * What a request asks to do, as an authorizer sees it (k8s.io/apiserver's `authorizer.Attributes`).
 * A resource request names a verb on a resource; a non-resource request a verb (`get`, `post`, ...)
 * on a path.
 * @category Authentication and authorization
 */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /**
   * The verb: for resource requests `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
   * `deletecollection`, or a special verb (`impersonate`, `bind`, `escalate`, `approve`, `use`, ...);
   * for non-resource requests the lower-cased HTTP method (`get`, `post`, `put`, ...).
   */
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** The request path (non-resource requests; resource requests may carry it too). */
  readonly path?: string;
  /** Empty for cluster-scoped requests and for lists across all namespaces. */
  readonly namespace?: string;
  /** The API group; empty for the core group. */
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resource?: string;
  readonly subresource?: string;
  /** The object's name; empty for lists, and for creates without a name in the path. */
  readonly name?: string;
  /** The request's field selector, when an authorizer may narrow a list or watch by it. */
  readonly fieldSelector?: string;
  /** The request's label selector, likewise. */
  readonly labelSelector?: string;
}

/**
 * An authorizer's verdict (`authorizer.Decision`).
 * @category Authentication and authorization
 */
export type AuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

/**
 * What an authorizer answers.
 * @category Authentication and authorization
 */
export interface AuthorizationResult {
  readonly decision: AuthorizationDecision;
  /** Why (shown after the 403 message and in `SubjectAccessReview.status.reason`); may be empty. */
  readonly reason: string;
  /** An error met while deciding (`SubjectAccessReview.status.evaluationError`). */
  readonly evaluationError?: string;
}

/**
 * A resource rule as `SelfSubjectRulesReview` reports it.
 * @category Authentication and authorization
 */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

/**
 * A non-resource rule as `SelfSubjectRulesReview` reports it.
 * @category Authentication and authorization
 */
export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs?: string[];
}

/**
 * The rules a user has in a namespace (`authorizer.RuleResolver.RulesFor`).
 * @category Authentication and authorization
 */
export interface RulesForResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when some authorizer could not list its rules (a webhook), so the list is not the whole truth. */
  incomplete: boolean;
  /** Errors met while resolving, joined (`SubjectRulesReviewStatus.evaluationError`). */
  evaluationError?: string;
}

/**
 * The cluster's authorizer chain (`--authorization-mode` / `--authorization-config`).
 * @category Authentication and authorization
 */
export interface Authorizer {
  /** The chain's decision on a request: allowed, denied, or no opinion, with the reason. */
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
  /** What `user` may do in `namespace` (every rule-listing authorizer of the chain, in order). */
  rulesFor(user: UserInfo, namespace: string): RulesForResult | Promise<RulesForResult>;
}

/**
 * Who a credential belongs to, and for which audiences it was accepted (`authenticator.Response`).
 * @category Authentication and authorization
 */
export interface AuthenticationResult {
  readonly user: UserInfo;
  /** The audiences the credential is valid for that the caller asked about (TokenReview `status.audiences`). */
  readonly audiences?: readonly string[];
}

/**
 * Authenticates a bearer token. Answers `undefined` when the token is not one this authenticator
 * knows (the next one is tried); throws an `Error` whose message says why when it knows the token
 * but refuses it (expired, wrong audience, revoked).
 * @category Authentication and authorization
 */
export interface TokenAuthenticator {
  /** The user of a bearer token; undefined when this authenticator does not know the token. */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthenticationResult | undefined>;
}

/**
 * A service account token's bound object (`TokenRequestSpec.boundObjectRef`), resolved.
 * @category Authentication and authorization
 */
export interface BoundObject {
  readonly kind: 'Pod' | 'Secret' | 'Node';
  readonly name: string;
  readonly uid: string;
  /** A pod's node, when the pod is bound to one (the token then carries the node too). */
  readonly node?: { readonly name: string; readonly uid: string };
}

/**
 * What a TokenRequest asks for, checked and defaulted.
 * @category Authentication and authorization
 */
export interface ServiceAccountTokenRequest {
  readonly namespace: string;
  readonly serviceAccount: { readonly name: string; readonly uid: string };
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  readonly boundObject?: BoundObject;
}

/**
 * Issues service account tokens (the `serviceaccounts/token` subresource, the legacy token controller).
 * @category Authentication and authorization
 */
export interface ServiceAccountTokenIssuer {
  /** The cluster's `--api-audiences` (the issuer by default): a TokenRequest without audiences gets these. */
  readonly apiAudiences: readonly string[];
  /** The longest expiry a TokenRequest gets (`--service-account-max-token-expiration`), in seconds; 0 means no limit. */
  readonly maxExpirationSeconds: number;
  /** A signed bound token and its expiry (RFC 3339). */
  issueBound(request: ServiceAccountTokenRequest): Promise<{ token: string; expirationTimestamp: string }>;
  /** A signed legacy token for a `kubernetes.io/service-account-token` Secret (never expires). */
  issueLegacy(secret: {
    readonly namespace: string;
    readonly name: string;
    readonly serviceAccount: { readonly name: string; readonly uid: string };
  }): Promise<string>;
}

/**
 * The cluster's authentication and authorization, as a kind's hooks may use it.
 * @category Authentication and authorization
 */
export interface AuthServices {
  readonly authorizer: Authorizer;
  /**
   * The rules the cluster's RBAC objects give a user, whatever the authorizer chain: what the
   * escalation checks of role and binding writes compare against (kube-apiserver's RBAC storage
   * builds its own rule resolver over the RBAC objects, not over the chain).
   */
  readonly rbacRules: Pick<Authorizer, 'rulesFor'>;
  /** Every token authenticator of the cluster, in order (what a TokenReview asks). */
  readonly tokenAuthenticator: TokenAuthenticator;
  readonly serviceAccountTokens: ServiceAccountTokenIssuer;
}

/** `system:masters`: the group every authorizer chain allows everything (kube-apiserver's privileged group). */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
/** The group of every authenticated user. */
export const ALL_AUTHENTICATED = 'system:authenticated';
/** The group of every anonymous request. */
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
/** The user of a request with no credentials. */
export const ANONYMOUS_USER = 'system:anonymous';
