/** The authentication and authorization metrics of a cluster. */
export {
  authenticationMetrics,
  compressUsername,
  CLIENT_CERTIFICATE_EXPIRATION_BUCKETS,
  type AuthenticationMetrics,
  type AuthenticationOutcome,
} from './authentication.js';
export { authorizationMetrics, type AuthorizationMetrics, type WebhookAuthorizerMetrics, type WebhookCallResult } from './authorization.js';
export { metricHash } from './hash.js';
export { instrumentedAuthorizer } from './instrumented-authorizer.js';
