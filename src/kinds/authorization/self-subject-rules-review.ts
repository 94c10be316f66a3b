/** SelfSubjectRulesReview (authorization.k8s.io/v1): what may I do in a namespace? */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { SelfSubjectRulesReview as SelfSubjectRulesReviewSchema } from '../types/authorization-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A SelfSubjectRulesReview object. */
export type SelfSubjectRulesReview = SelfSubjectRulesReviewSchema;

/**
 * SelfSubjectRulesReview (`kubectl auth can-i --list`): `spec.namespace` is required (400, as
 * pkg/registry/authorization/selfsubjectrulesreview answers); the rules are those every
 * rule-listing authorizer of the chain lists for the caller in that namespace, `incomplete` when
 * one could not list them all.
 */
export const SelfSubjectRulesReviewKind = defineKind<SelfSubjectRulesReview>({
  group: 'authorization.{api_domain}',
  kind: 'SelfSubjectRulesReview',
  plural: 'selfsubjectrulesreviews',
  scope: 'Cluster',
  versions: [lazyVersion('v1', SelfSubjectRulesReviewSchema, { storage: true })],
  async review(review, ctx) {
    if (!review.spec?.namespace) throw badRequest('no namespace on request');
    const rules = await ctx.auth.authorizer.rulesFor(ctx.user, review.spec.namespace);
    const status: NonNullable<SelfSubjectRulesReview['status']> = {
      resourceRules: rules.resourceRules,
      nonResourceRules: rules.nonResourceRules,
      incomplete: rules.incomplete,
    };
    if (rules.evaluationError) status.evaluationError = rules.evaluationError;
    return { metadata: {}, spec: {}, status };
  },
});
