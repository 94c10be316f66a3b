/** The RBAC authorizer: rule matching, rule resolution over an index of the cluster's RBAC objects, and the authorizer. */
export { createRbacAuthorizer, createStorageRbacAuthorizer, rbacApiGroup, type RbacAuthorizer } from './authorizer.js';
export { StoragePolicyIndex, rbacBuckets, type IndexedBinding, type RbacPolicySource } from './policy-index.js';
export { resolveRules, visitRulesFor, describeSource, roleReferenceRules, type RuleSource, type RuleVisitor } from './rule-resolver.js';
export { apiGroupMatches, nonResourceURLMatches, resourceMatches, resourceNameMatches, ruleAllows, rulesAllow, verbMatches } from './rule-matching.js';
export { aggregateErrorText } from './aggregate-error.js';
