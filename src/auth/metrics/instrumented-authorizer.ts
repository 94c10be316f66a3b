/**
 * Counting what the authorizers decide, around the real thing: `InstrumentedAuthorizer` of
 * k8s.io/apiserver `pkg/authorization/metrics`.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../machinery/auth.js';
import type { AuthorizationMetrics } from './authorization.js';

/**
 * `authorizer`, counting its allows and denies as `type`/`name` (its entry of the
 * AuthorizationConfiguration); no opinion is not a terminal decision and is not counted.
 */
export function instrumentedAuthorizer(type: string, name: string, authorizer: Authorizer, metrics: AuthorizationMetrics): Authorizer {
  // The decision names match SubjectAccessReview's status fields.
  const decisions = metrics.decisionsOf(type, name);
  const count = (result: AuthorizationResult): AuthorizationResult => {
    if (result.decision === 'Allow') decisions.allowed.inc();
    else if (result.decision === 'Deny') decisions.denied.inc();
    return result;
  };
  return {
    // A synchronous authorizer stays synchronous: no promise per request for counting it.
    authorize(attributes: AuthorizationAttributes) {
      const answer = authorizer.authorize(attributes);
      return answer instanceof Promise ? answer.then(count) : count(answer);
    },
    rulesFor: (user, namespace) => authorizer.rulesFor(user, namespace),
  };
}
