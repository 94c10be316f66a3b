/**
 * The two authorizers without state, `--authorization-mode=AlwaysAllow` and `AlwaysDeny`
 * (k8s.io/apiserver's authorizerfactory): one allows every request and lists every rule, the other
 * has no opinion on anything (a request no authorizer allows is denied).
 */
import type { Authorizer, AuthorizationResult, RulesForResult } from '../machinery/auth.js';

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: 'Everything is forbidden.' };

/**
 * `AlwaysAllow`: allows everything; its rules are every verb on every resource and URL.
 * @category Authentication and authorization
 */
export const alwaysAllowAuthorizer: Authorizer = {
  authorize: () => ALLOW,
  rulesFor: (): RulesForResult => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
};

/**
 * `AlwaysDeny`: no opinion on anything, with the reason "Everything is forbidden."; no rules.
 * @category Authentication and authorization
 */
export const alwaysDenyAuthorizer: Authorizer = {
  authorize: () => NO_OPINION,
  rulesFor: (): RulesForResult => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};
