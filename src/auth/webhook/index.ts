/**
 * The Webhook authorizer: a SubjectAccessReview sent to a remote service named by a kubeconfig,
 * its answers cached, its failures decided by the failure policy.
 */
export {
  BOTH_ALLOWED_AND_DENIED,
  createWebhookAuthorizer,
  MAX_CONTROLLED_ATTR_CACHE_SIZE,
  RULES_NOT_SUPPORTED,
  WEBHOOK_CACHE_SIZE,
  WebhookAuthorizerConfigError,
  type WebhookAuthorizerEntry,
  type WebhookAuthorizerOptions,
} from './authorizer.js';
export { KubeconfigError, loadWebhookKubeconfig, type ReadFile, type WebhookKubeconfig } from './kubeconfig.js';
export { DEFAULT_RETRY_BACKOFF, type RetryBackoff, type RetryTiming } from './retry.js';
export {
  subjectAccessReviewBody,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  SubjectAccessReviewError,
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
} from './subject-access-review.js';
